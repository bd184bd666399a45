#!/bin/bash
# Alerts a user can read (issue 26): a message cut at the pane's edge
# scrolls with Right (a "<" marks the hidden start) and back with Left;
# in the zoomed pane every message is whole, wrapped under the rule's
# name, after the key facts.
source "$(dirname "$0")/ui_lib.sh"

ui_synth "$UI_WORK/job" --nodes 4 --gpus 2 --minutes 2 --interval-ms 1000 --slow-node 2 --start 1700000000
# 100x30: two alerts in two lines, no room to wrap them: cut.
ui_start 100 30 "$SMTOP" "$UI_WORK/job"
ui_wait 'Straggler algo-3' 20
ui_loaded 60                     # its message counts the nodes read so far
ui_focus Alerts
row() { ui_screen | grep -a 'Straggler algo-3' | sed 's/.*││//'; }
row | grep -q '~│$' || ui_fail "the Straggler message is not cut at 100 columns: $(row)"
ui_keys Right
ui_wait 'Straggler algo-3 .*  <' 5
# Right by Right up to the end: each step moves by what shows, so the
# views laid end to end spell the message, no word skipped.
seen=""
for i in $(seq 1 30); do
    seen+="$(row | grep '  <' | sed 's/.*  <//; s/~│$//; s/ *│$//')"
    row | grep -q 'above 10%' && break
    ui_keys Right
    sleep 0.3
done
row | grep -q 'above 10%' || ui_fail "Right never reached the end of the message"
[[ "$seen" == *"slower than 3 other nodes ("*"); fires above 10%"* ]] ||
    ui_fail "Right skipped text: $seen"
for i in $(seq 1 30); do
    row | grep -q '  <' || break
    ui_keys Left
    sleep 0.3
done
ui_wait_gone 'Straggler algo-3 .*<' 5
ui_focus Alerts
ui_keys Enter
ui_wait 'Alerts \(Esc: back\)' 5
ui_wait 'Straggler algo-3 \+[0-9]+% 1/4  median step [0-9.]+ ms is [0-9]+%' 5
ui_wait '^│ {7}[^ ].*fires above 10%' 5
ui_quit
echo "ok: Right/Left scroll a cut message; zoomed, messages wrap whole"
