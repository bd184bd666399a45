#!/bin/bash
# The widest slot goes to the pane with the most to say (issue 26): at
# 80x24 five panes share the grid under the System pane and the last row
# spans the width. With 64 nodes the Heatmap (a row per node) says more
# than the Alerts (two lines per alert) and takes it; the others keep
# their order. The choice holds still while a live job writes.
source "$(dirname "$0")/ui_lib.sh"

ui_synth "$UI_WORK/job" --nodes 64 --gpus 2 --cpus 2 --minutes 2 --interval-ms 1000 \
    --slow-node 41 --python-stats 50 --start 1700000000
borders() { ui_screen | grep -E '^┌'; }
# Which panes share each row of the layout ("1", "34", "56", "2"): the
# titles' notes (time ranges, rows shown) may change, the places not.
places() { borders | while read -r l; do echo "$l" | grep -oE '(─ |\[)[0-9] [A-Z]' | tr -dc '0-9'; echo; done; }

ui_start 80 24 "$SMTOP" "$UI_WORK/job"
ui_wait '6 Alerts' 20
ui_loaded 60
ui_wait '^┌─ 2 Heatmap[^┐]*┐$' 20
last=$(borders | tail -1)
[[ "$last" == "┌─ 2 Heatmap"* ]] || ui_fail "the Heatmap is not in the last, widest slot: $last"
borders | grep -q '┐┌─ 6 Alerts' || ui_fail "the Alerts pane did not take a grid cell"
order=$(borders | grep -oE "─ [0-9] " | tr -d "─ " | tr -d "\n")   # the focused System pane is [1 System]
[ "$order" = "34562" ] || ui_fail "panes out of order: $order"
ui_quit

# A live job: the slots do not trade places from frame to frame.
"$SMTOP" synth --out "$UI_WORK/live" --nodes 4 --gpus 2 --minutes 1 --interval-ms 500 \
    --slow-node 2 --python-stats 20 --live >/dev/null 2>&1 &
SYNTH=$!
trap 'kill $SYNTH 2>/dev/null; ui_cleanup' EXIT
ui_start 80 24 "$SMTOP" "$UI_WORK/live"
ui_wait '6 Alerts' 30
sleep 2
first=$(places)
for i in 1 2 3 4 5 6 7 8; do
    sleep 0.5
    now=$(places)
    [ "$now" = "$first" ] || ui_fail "the layout changed while the job wrote: $first / $now"
done
ui_quit
kill $SYNTH 2>/dev/null
echo "ok: the widest slot goes to the pane with the most to say, and stays"
