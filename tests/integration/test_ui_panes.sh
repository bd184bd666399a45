#!/bin/bash
# The panes show the job's own numbers: a synthetic 4-node job (node names,
# GPU rows, and the step count / p50 that `smtop report` computes for
# algo-1), then the real smdebug sample job when ../shared/samples exists.
source "$(dirname "$0")/ui_lib.sh"

JOB="$UI_WORK/job"
ui_synth "$JOB" --nodes 4 --gpus 2 --cpus 4 --minutes 3 --start 1700000000
read -r COUNT P50 < <("$SMTOP" report "$JOB" |
    awk '$1 == "algo-1" && $3 == "Step:ModeKeys.TRAIN" { print $4, $7 " " $8 }')
[ -n "$COUNT" ] || { echo "FAIL: report has no TRAIN steps for algo-1"; exit 1; }

ui_start 200 60 "$SMTOP" "$JOB"
ui_wait '4 nodes'
for n in algo-1 algo-2 algo-3 algo-4; do ui_wait "$n"; done
ui_wait 'gpu1'
ui_wait "\\b$COUNT\\b"
ui_wait "$P50"
ui_wait 'System' && ui_wait 'Heatmap' && ui_wait 'Steps'
ui_quit
echo "ok: synthetic job ($COUNT TRAIN steps on algo-1, p50 $P50)"

if [ ! -d "${SMTOP_SAMPLES:-}/test_traces" ]; then
    echo "SKIPPED: ../shared/samples not found"
    exit 0
fi
ui_start 200 60 "$SMTOP" "$SMTOP_SAMPLES/test_traces"
ui_wait '2 nodes'
ui_wait 'algo-1'
ui_wait '4487_0000'
ui_wait '32 cpu'
ui_quit
echo "ok: real sample job"
