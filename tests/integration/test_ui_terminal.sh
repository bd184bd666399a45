#!/bin/bash
# Terminals the dashboard cannot fill: a window below 80x24 gets the
# "terminal too small" screen with the needed and the current size whole
# (not cut) even at 40x12 and 24x8, and the dashboard once it is enlarged;
# TERM=dumb, a terminal without cursor addressing, and an unknown TERM get
# a clear message and exit 2 instead of a blank or garbled screen.
source "$(dirname "$0")/ui_lib.sh"

JOB="$UI_WORK/job"
ui_synth "$JOB" --nodes 2 --minutes 2 --no-traces

for size in "40 12" "24 8" "79 24"; do
    set -- $size
    ui_start "$1" "$2" "$SMTOP" "$JOB"
    ui_wait 'terminal too small' 15
    ui_wait 'need 80×24'
    ui_wait "have $1×$2"
    ui_wait 'press q'
    # nothing wider than the window: every line fits
    ui_screen | awk -v w="$1" 'length($0) > w { bad = 1 } END { exit bad }' ||
        ui_fail "a line wider than $1 columns"
    ui_keys q
    ui_wait 'SMTOP_EXIT=0' 15
    echo "ok: ${1}x${2}: too-small screen whole"
done

ui_start 40 12 "$SMTOP" "$JOB"
ui_wait 'have 40×12' 15
tm resize-window -x 120 -y 40
ui_wait '2 nodes' 15
ui_wait_gone 'terminal too small'
ui_quit
echo "ok: enlarged: the dashboard"

for term in dumb smtop-no-such-terminal; do
    ui_start 100 30 env TERM="$term" "$SMTOP" "$JOB"
    ui_wait 'SMTOP_EXIT=2' 15
    ui_wait "terminal type '$term'"
    ui_wait 'TERM=xterm-256color'
    ui_wait 'smtop report'
    echo "ok: TERM=$term: $(ui_screen | grep -m1 "terminal type")"
done
