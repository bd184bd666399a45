#!/bin/bash
# The heatmap's order (issue 26): `s` jumps to the first row of the new
# order, the border names the order, the last column's title names the
# key and its rows show the value sorted by. At 80x24, where two rows
# show, the straggler's row stays in view and the last column keeps its
# title.
source "$(dirname "$0")/ui_lib.sh"

ui_synth "$UI_WORK/job" --nodes 4 --gpus 2 --minutes 2 --interval-ms 1000 --slow-node 2 --start 1700000000
# The heatmap's rows (one space after the id, then its cells; the System
# pane's node headers have two), without the borders.
heat_rows() { ui_screen | LC_ALL=C.UTF-8 grep -oE '│[! ][> ]algo-[0-9]+ [^ ][^│]*' | sed 's/^│//'; }

ui_start 80 24 "$SMTOP" "$UI_WORK/job"
ui_wait 'Heatmap - by name' 20
ui_wait '│! algo-3 ' 20
ui_loaded 60                     # every node's rows, not those read so far
ui_screen | grep -q '│node.*gpu%│' || ui_fail "80x24: the value column lost its title"
[ "$(heat_rows | wc -l)" -eq 2 ] || ui_fail "80x24: expected two heatmap rows"
ui_screen | grep -q 'Heatmap - by name, 2 of 4 rows' || ui_fail "80x24: the border does not say how many rows show"
ui_focus Heatmap
# The cursor walks down to algo-4; the straggler stays on screen.
ui_keys j j j
ui_wait '│ >algo-4 ' 10
ui_screen | grep -q '│! algo-3 ' || ui_fail "80x24: the straggler left the view"
ui_keys s
ui_wait 'Heatmap - by worst gpu' 10
ui_screen | grep -q '│node .*gpu%▲│' || ui_fail "80x24: worst gpu: no gpu%▲ title"
ui_keys s
ui_wait 'Heatmap - by slowest step' 10
ui_screen | grep -q '│node .*p50▼│' || ui_fail "80x24: slowest step: no p50▼ title"
# The first row of the new order is selected and shown: the slow node.
first=$(heat_rows | head -1)
[[ "$first" =~ ^!\>algo-3\ .*[0-9]\ ms$ ]] || ui_fail "80x24: slowest step: first row '$first'"
ui_quit

ui_start 200 60 "$SMTOP" "$UI_WORK/job"
ui_wait '│! algo-3 ' 20
ui_loaded 60
ui_focus Heatmap
ui_keys End
ui_wait '│ >algo-4 ' 10
for order in 'worst gpu' 'slowest step' 'stragglers'; do
    ui_keys s
    ui_wait "Heatmap - by $order" 10
    first=$(heat_rows | head -1)
    [[ "$first" =~ ^.\> ]] || ui_fail "by $order: the first row is not selected: '$first'"
done
# By stragglers: algo-3 first, its deviation in the last column, the
# biggest; the rows descend.
ui_screen | grep -q '│node .*dev%▼│' || ui_fail "stragglers: no dev%▼ title"
devs=$(heat_rows | grep -oE '[0-9]+%$' | tr -d %)
[ "$(echo "$devs" | wc -l)" -eq 4 ] || ui_fail "stragglers: four deviations expected: $devs"
[ "$devs" = "$(echo "$devs" | sort -rn)" ] || ui_fail "stragglers: not descending: $devs"
[[ "$(heat_rows | head -1)" =~ ^!\>algo-3 ]] || ui_fail "stragglers: algo-3 not first"
ui_keys s
ui_wait 'Heatmap - by name' 10
ui_screen | grep -q '│node▲ .*gpu%│' || ui_fail "by name: the node column has no ▲"
ui_quit
echo "ok: heatmap sort: first row, key named, value column; 80x24 keeps the straggler and the title"
