#!/bin/bash
# The System pane scrolls only as far as needed (issue 26), as htop's
# cursor does: selecting the last node shows its block at the bottom,
# under the end of the node before it, not at the top above blank lines;
# a node whose header is scrolled off keeps it on the first line.
source "$(dirname "$0")/ui_lib.sh"

ui_synth "$UI_WORK/job" --nodes 4 --gpus 2 --minutes 2 --interval-ms 1000 --start 1700000000
# The System pane's inner lines: it spans the width at 120x40, from its
# top border to the first bottom border.
sys_lines() { ui_screen | sed -n '/^┌─.1 System/,/^└/p' | sed '1d;$d'; }
check_full() {   # $1: what was pressed
    local lines blank
    lines=$(sys_lines)
    [ -n "$lines" ] || ui_fail "$1: no System pane"
    blank=$(echo "$lines" | grep -cE '^│ *│$')
    [ "$blank" -eq 0 ] || ui_fail "$1: $blank blank lines in the System pane"
    echo "$lines" | head -1 | grep -Eq '^│[> ] algo-[0-9]  ' ||
        ui_fail "$1: the first line does not name a node"
}

ui_start 120 40 "$SMTOP" "$UI_WORK/job"
ui_wait '│> algo-1 ' 20
ui_loaded 30
check_full start
ui_keys j
ui_wait '│> algo-2 ' 10
check_full j
ui_keys j j
ui_wait '│> algo-4 ' 10
check_full "j j j"
# algo-4's block ends on the pane's last line; above it, algo-3's end.
sys_lines | tail -1 | grep -q 'eth0 sent' || ui_fail "algo-4's block does not end the pane"
sys_lines | head -1 | grep -q '│  algo-3 ' || ui_fail "the node above keeps no header"
sys_lines | sed -n 2p | grep -q 'algo-' && ui_fail "two headers at the top"
ui_keys k
ui_wait '│> algo-3 ' 10
check_full k
sys_lines | head -1 | grep -q '│> algo-3 ' || ui_fail "k: algo-3's header is not at the top"
ui_keys Home
ui_wait '│> algo-1 ' 10
check_full Home
ui_quit

# 80x24: a block taller than the pane starts at its header; no blank lines.
ui_start 80 24 "$SMTOP" "$UI_WORK/job"
ui_wait '│> algo-1 ' 20
ui_keys End
ui_wait '│> algo-4 ' 10
check_full End
sys_lines | head -1 | grep -q '│> algo-4 ' || ui_fail "80x24: algo-4's header not at the top"
ui_quit
echo "ok: the System pane scrolls only as far as needed, never above blank lines"
