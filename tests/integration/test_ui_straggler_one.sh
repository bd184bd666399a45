#!/bin/bash
# One straggler definition (issue 26): the Straggler rule, over the whole
# job and every node. The heatmap's '!' and footer, the verdict, the
# Alerts pane and report --json name the same node; a node filter changes
# none of them; `:set Straggler.threshold=50` reaches every one.
source "$(dirname "$0")/ui_lib.sh"

ui_synth "$UI_WORK/job" --nodes 4 --gpus 2 --minutes 2 --interval-ms 1000 --slow-node 2 --start 1700000000
"$SMTOP" report --json "$UI_WORK/job" >"$UI_WORK/r.json" || ui_fail "report"
python3 - "$UI_WORK/r.json" <<'PY' || ui_fail "report --json straggler"
import json, sys
r = json.load(open(sys.argv[1]))
s = r["straggler"]
rule = [x for x in r["rules"] if x["name"] == "Straggler"][0]
assert s["node"] == "algo-3" and s["metric"] == "step_p50" and s["deviation_pct"] > 10, s
assert rule["status"] == "triggered", rule
PY
"$SMTOP" report --json --rule Straggler.threshold=50 "$UI_WORK/job" >"$UI_WORK/r50.json"
grep -q '"straggler": null' "$UI_WORK/r50.json" ||
    ui_fail "report --rule Straggler.threshold=50 still names a straggler"

ui_start 200 60 "$SMTOP" "$UI_WORK/job"
ui_wait 'straggler algo-3 \+[0-9]+ %: p50' 20
ui_screen | grep -q '│! algo-3 ' || ui_fail "heatmap does not mark algo-3"
ui_keys / a l g o - 1 Enter
ui_wait '1/4 nodes match' 10
ui_screen | grep -q 'straggler algo-3 +[0-9]* %: p50' || ui_fail "the filter changed the heatmap's straggler"
ui_screen | sed -n 2p | grep -q 'straggler algo-3' || ui_fail "the filter changed the verdict"
ui_keys Escape
ui_wait '4 nodes \|' 10
ui_keys : s e t Space S t r a g g l e r . t h r e s h o l d = 5 0 Enter
ui_wait 'every rank and node within 50% of' 20
ui_wait_gone '│! algo-3' 10
ui_screen | sed -n 2p | grep -q 'straggler' && ui_fail "the verdict kept the straggler past :set"
ui_screen | grep -q '\[ ok \] Straggler' || ui_fail "Alerts: Straggler not ok past :set"
ui_quit
echo "ok: one straggler: heatmap, verdict, Alerts and report agree; filters leave it; :set reaches all"
