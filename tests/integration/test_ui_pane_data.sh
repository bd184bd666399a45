#!/bin/bash
# What the system, heatmap and steps panes compute, read off a real
# terminal: on a synthetic 4-node job with a straggler (node index 2 =
# algo-3) the heatmap marks algo-3 and no other node, the steps pane shows
# algo-1's TRAIN count, the system pane's window mean of algo-1's total CPU
# equals `smtop report --json`'s mean, I/O is shown in bytes with its axis
# labelled; a system-metrics-only job gets a calm steps message; and the
# real sample job shows its node and GPU rows. Complements test_ui_panes.sh.
source "$(dirname "$0")/ui_lib.sh"

JOB="$UI_WORK/job"
ui_synth "$JOB" --nodes 4 --gpus 2 --cpus 8 --minutes 5 --slow-node 2
"$SMTOP" report --json "$JOB" > "$UI_WORK/r.json" || { echo "FAIL: report"; exit 1; }
"$SMTOP_SRC/tests/tools/schema_ok.sh" "$UI_WORK/r.json" || exit 1
read -r TRAIN_N CPU_MEAN < <(python3 - "$UI_WORK/r.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
train = [s for s in r["steps"] if s["node"] == "algo-1" and s["phase"] == "Step:ModeKeys.TRAIN"][0]
n1 = [n for n in r["nodes"] if n["id"] == "algo-1"][0]
total = [m for m in n1["metrics"] if m["type"] == "cpu" and m["name"] == "total"][0]
print(train["count"], "%.4f" % total["mean_pct"])
PY
)
[ -n "${CPU_MEAN:-}" ] || { echo "FAIL: report has no algo-1 TRAIN count / total CPU"; exit 1; }

ui_start 200 60 "$SMTOP" --interval 1 "$JOB"
ui_wait "n $TRAIN_N "                       # steps pane: algo-1's TRAIN count
ui_wait "algo-1  TRAIN"
ui_wait '![ >]algo-3'                       # heatmap marks the straggler...
ui_wait 'straggler algo-3'
ui_loaded 60                     # a node read in part can look slow
! ui_screen | grep -q '![ >]algo-[124]' || ui_fail "heatmap marks a node that is not slow"
ui_wait 'gmem1'
# auto-scaled, the scale's top named beside the current value, MB → B
ui_wait 'nvme0n1 read .* [0-9.]+ [kMG]?B/s +[0-9.]+ [kMG]?B/s'

# `-` doubles the 5-minute window so it holds the whole job: the mean shown
# for algo-1's total CPU must then be the report's mean (to the 0.1 shown;
# on the chart's line, or under its label when the chart is several rows).
ui_keys -
cpu_avg() {
    ui_screen | awk '{ gsub("│", " ") } /algo-1  [0-9]+ cpu/ { on = 1; next }
        on && $1 == "cpu" { cpu = 1 }
        cpu && match($0, /avg [0-9.]+%/) {
            print substr($0, RSTART + 4, RLENGTH - 5); exit }'
}
avg_is_report() {
    got=$(cpu_avg)
    [ -n "$got" ] && python3 -c "import sys; sys.exit(abs($got - $CPU_MEAN) > 0.05)"
}
ui_poll 10 avg_is_report || ui_fail "algo-1 cpu avg $got != report mean $CPU_MEAN"
ui_quit
echo "ok: synthetic job: $TRAIN_N TRAIN steps, cpu avg $got% = report $CPU_MEAN, straggler algo-3"

# A job with system metrics only (the norm since TF 2.11 / PT 2.0) looks complete.
ui_synth "$UI_WORK/sys" --nodes 2 --gpus 1 --cpus 4 --minutes 2 --no-traces
ui_start 120 40 "$SMTOP" "$UI_WORK/sys"
ui_wait 'no framework traces, no Python stats in this job'
ui_wait 'gpu0 .*%'
ui_wait 'system metrics only'
ui_loaded 60
! ui_screen | grep -qi 'error' || ui_fail "metrics-only job shows an error"
ui_quit
echo "ok: system-metrics-only job"

if [ ! -d "${SMTOP_SAMPLES:-}/test_traces" ]; then
    echo "SKIPPED: ../shared/samples not found"
    exit 0
fi
ui_start 160 50 "$SMTOP" "$SMTOP_SAMPLES/test_traces"
ui_wait 'algo-1'
ui_wait 'gpu0 '
ui_wait 'gmem1'
ui_quit
echo "ok: real sample job"
