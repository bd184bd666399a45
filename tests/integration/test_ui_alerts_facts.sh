#!/bin/bash
# Alert rows read at every size (issue 26): a pane too narrow for the
# columns leads each row with the key facts (rule, node, how far), so a
# cut takes the least of it; where the list has room, each alert's reason
# wraps onto a second line, read whole without zooming.
source "$(dirname "$0")/ui_lib.sh"

ui_synth "$UI_WORK/job" --nodes 4 --gpus 2 --minutes 2 --interval-ms 1000 --slow-node 2 --start 1700000000
alerts_text() { ui_screen | sed -n '/6 Alerts/,$p'; }

# 80x24: the Alerts pane is half the width.
ui_start 80 24 "$SMTOP" "$UI_WORK/job"
ui_wait '6 Alerts' 20
ui_wait '\[MED \] Straggler algo-3 \+[0-9]+%' 20
ui_quit

# 80x24, the demo: the facts lead whichever slot the pane gets. Its
# nodes have one trace writer each ("<pid>-algo-1"): StepOutlier names
# the node a reader knows, never the writer id.
ui_start 80 24 "$SMTOP" --demo
ui_wait '\[MED \] Straggler algo-3 \+[0-9]+% 1/4  m' 30
ui_wait '\[MED \] StepOutlier algo-[1-4] [0-9]+/' 30
ui_loaded 60                     # every alert the first read raises is on screen
alerts_text | grep -Eq '[0-9]+-algo-[0-9]' && ui_fail "80x24: an alert names a writer id"
ui_quit

# 200x60: the reasons wrap, unzoomed, up to their last words.
ui_start 200 60 "$SMTOP" "$UI_WORK/job"
ui_wait '\[MED \] Straggler algo-3 \+[0-9]+%' 20
ui_loaded 60
# The Dataloader alert can come a frame after the Straggler's: polled.
alerts_has() { alerts_text | grep -q -- "$1"; }
ui_poll 20 alerts_has 'fires above 10%' || ui_fail "200x60: the Straggler reason is cut"
ui_poll 20 alerts_has 'expected 70-200%' || ui_fail "200x60: the Dataloader reason is cut"
ui_quit
echo "ok: alert rows lead with rule, node and how far; reasons wrap where there is room"
