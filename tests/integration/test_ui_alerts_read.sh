#!/bin/bash
# Alerts a user can read (issue 26): a message cut at the pane's edge
# scrolls with Right (a "<" marks the hidden start) and back with Left;
# in the zoomed pane every message is whole, wrapped under its column.
source "$(dirname "$0")/ui_lib.sh"

ui_synth "$UI_WORK/job" --nodes 4 --gpus 2 --minutes 2 --interval-ms 1000 --slow-node 2 --start 1700000000
ui_start 200 60 "$SMTOP" "$UI_WORK/job"
ui_wait 'Straggler' 20
ui_focus Alerts
row() { ui_screen | grep -a 'Straggler  ' | sed 's/.*││//'; }
row | grep -q '~│$' || ui_fail "the Straggler message is not cut at 200 columns: $(row)"
ui_keys Right
ui_wait 'Straggler  .*<' 5
ui_keys Right
ui_wait 'Straggler  .*<.*3 other nodes \(' 5
ui_keys Left Left
ui_wait_gone 'Straggler  .*<' 5
ui_quit
ui_start 100 30 "$SMTOP" "$UI_WORK/job"
ui_wait 'Straggler' 20
ui_focus Alerts
ui_keys Enter
ui_wait 'Alerts \(Esc: back\)' 5
ui_wait 'algo-3: median step [0-9.]+ ms is [0-9]+% slower than 3' 5
ui_wait '^│ {40,}.*fires above 10%' 5
ui_quit
echo "ok: Right/Left scroll a cut message; zoomed, messages wrap whole"
