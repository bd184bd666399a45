#!/bin/bash
# Many nodes (issue 14): the heatmap says which rows of how many it shows,
# scrolls through all of them by keys and mouse wheel, sorts (worst GPU,
# slowest step, stragglers, name), and the straggler it marks is the one
# `report` and `report --json` name.
source "$(dirname "$0")/ui_lib.sh"

JOB="$UI_WORK/job"
ui_synth "$JOB" --nodes 64 --gpus 2 --cpus 2 --minutes 2 --interval-ms 1000 \
    --slow-node 41 --start 1700000000

# The report names the heatmap's straggler (node index 41 = algo-42).
"$SMTOP" report "$JOB" >"$UI_WORK/r.txt" || ui_fail "report failed"
grep -Eq '^straggler: +algo-42: step p50 ' "$UI_WORK/r.txt" ||
    { head -5 "$UI_WORK/r.txt"; ui_fail "text report does not name straggler algo-42"; }
"$SMTOP" report --json "$JOB" >"$UI_WORK/r.json" || ui_fail "report --json failed"
python3 - "$UI_WORK/r.json" <<'PY' || ui_fail "report --json straggler"
import json, sys
s = json.load(open(sys.argv[1]))["straggler"]
assert s["node"] == "algo-42" and s["metric"] == "step_p50", s
assert s["value_us"] > s["median_us"] and s["deviation_pct"] >= 10, s
assert "value" not in s and "median" not in s, s   # units in key names
PY

ui_start 120 40 "$SMTOP" "$JOB"
ui_wait '64 nodes'
ui_wait 'straggler algo-42'
# The sorts below rank by step time, and Home goes to the first row of
# the order on screen: wait until every file is read. The straggler shows
# from GPU utilization before the traces are in (newest system files of
# every node come first), and on a loaded machine they came after `s`
# and Home, which then landed on algo-1 (step times all unknown).
ui_loaded 60
ui_wait ' 1-[0-9]+/64 '
ui_keys Tab                    # focus the heatmap
ui_wait '┌─\[2 Heatmap'
# End reaches the last node, Home the first again.
ui_keys End
ui_wait '[0-9]+-64/64'
ui_wait ' >algo-64 '
ui_keys Home
ui_wait ' 1-[0-9]+/64'
ui_wait ' >algo-1 '
# The wheel over the heatmap (column 10, row 22; X10 mouse encoding:
# button 64/65 + 32, then column and row + 33) moves along the list.
ui_keys -l $'\e[Ma+7'
ui_wait ' >algo-2 '
ui_keys -l $'\e[Ma+7'
ui_wait ' >algo-3 '
ui_keys -l $'\e[M`+7'
ui_wait ' >algo-2 '
# Sorts (issue 26): a new order starts at its first row, selected and in
# view, which is the slow node by step time and as straggler.
ui_keys s
ui_wait 's: worst gpu'
ui_wait_gone ' >algo-2 '
ui_keys s
ui_wait 's: slowest step'
ui_wait '!>algo-42 '
ui_wait ' 1-[0-9]+/64'
ui_keys End
ui_wait_gone '!>algo-42 '
ui_keys s
ui_wait 's: stragglers'
ui_wait '!>algo-42 '
ui_keys s
ui_wait 's: name'
ui_wait ' >algo-1 '
ui_quit
# At 80x24 the heatmap has no room for its legend: the border says how
# many rows show, so the other rows are still announced, and the last
# column keeps its title (issue 26).
ui_start 80 24 "$SMTOP" "$JOB"
ui_wait '64 nodes'
ui_wait 'Heatmap - by name, [0-9]+ of 64 rows'
ui_screen | grep -q '│node.*gpu%│' || ui_fail "80x24: the value column lost its title"
ui_quit
echo "ok: 64 nodes: row range, scrolling by keys and wheel, sorts, straggler in report"
