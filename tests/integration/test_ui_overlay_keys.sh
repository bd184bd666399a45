#!/bin/bash
# Keys a new user tries (issue 26): `q` and Esc close the help overlay
# instead of quitting; `:q` quits; the overlay fits 80x24 inside the pane
# area (the header with its verdict and the status line stay visible, no
# pane border peeks out beside its frame) and lists every global key;
# "1 node", not "1 nodes".
source "$(dirname "$0")/ui_lib.sh"

ui_synth "$UI_WORK/job" --nodes 1 --gpus 1 --minutes 2 --start 1700000000
ui_start 80 24 "$SMTOP" "$UI_WORK/job"
ui_wait '1 node \|' 20
ui_screen | grep -q '1 nodes' && ui_fail "1 nodes"
ui_keys '?'
ui_wait 'smtop keys'
s=$(ui_screen)
sed -n 3p <<<"$s" | grep -q '^┌─ smtop keys ' || ui_fail "overlay does not start at the pane area's corner"
sed -n 2p <<<"$s" | grep -q 'smtop keys' && ui_fail "overlay covers the verdict row"
grep -Eq '┌│|│┐|└│|│┘' <<<"$s" && ui_fail "pane borders beside the overlay's frame"
for k in 'quit' 'fit window to the job' 'live, zoom reset' 'click selects'; do
    grep -q "$k" <<<"$s" || ui_fail "80x24 overlay lacks '$k'"
done
tail -1 <<<"$s" | grep -q 'help  q quit' || ui_fail "status line hidden by the overlay"
ui_keys q
ui_wait_gone 'smtop keys' 5
ui_screen | grep -q 'SMTOP_EXIT' && ui_fail "q in the help overlay quit smtop"
ui_keys '?'
ui_wait 'smtop keys'
ui_keys Escape
ui_wait_gone 'smtop keys' 5
ui_keys : q Enter
ui_wait 'SMTOP_EXIT=' 10
[ "$(ui_exit_status)" = 0 ] || ui_fail ":q exited $(ui_exit_status)"
echo "ok: q/Esc close the overlay, :q quits, the overlay fits 80x24"
