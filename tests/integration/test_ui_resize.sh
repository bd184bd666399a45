#!/bin/bash
# Resize 200x60 → 80x24 → 60x20 (too-small screen) → 200x60: every size
# redraws completely, with no stale cells from the previous one.
source "$(dirname "$0")/ui_lib.sh"

JOB="$UI_WORK/job"
ui_synth "$JOB" --nodes 2 --gpus 1 --minutes 2 --no-traces
ui_start 200 60 "$SMTOP" "$JOB"
ui_wait '2 nodes'

check_fits() {   # every screen line within the width, border corners present
    local cols=$1 rows=$2 s
    s=$(ui_screen)
    [ "$(printf '%s\n' "$s" | wc -l)" -le "$rows" ] || ui_fail "more than $rows lines"
    [ "$(printf '%s\n' "$s" | LC_ALL=C.UTF-8 wc -L)" -le "$cols" ] ||
        ui_fail "a line is wider than $cols"
    printf '%s\n' "$s" | grep -q '┌' || ui_fail "no pane border at ${cols}x${rows}"
    printf '%s\n' "$s" | tail -1 | grep -q 'q quit' || ui_fail "status line not at the bottom"
}

tm resize-window -x 80 -y 24
ui_wait '2 nodes'
ui_wait 'q quit'
ui_wait_gone 'too small'
check_fits 80 24

tm resize-window -x 60 -y 20
ui_wait 'terminal too small'
ui_wait 'need 80.24, have 60.20'
ui_wait_gone '┌|q quit'

tm resize-window -x 200 -y 60
ui_wait '2 nodes'
ui_wait_gone 'too small'
check_fits 200 60
ui_quit
echo "ok: resize"
