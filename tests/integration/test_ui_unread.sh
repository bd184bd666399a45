#!/bin/bash
# The dashboard's status line says how many of the job's files are not
# read and names the latest with its reason (a TF trace with no .metadata
# record in its step directory), in a real terminal.
source "$(dirname "$0")/ui_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }

JOB="$UI_WORK/job/profiler-output"
"$SMTOP" synth --out "$JOB" --nodes 2 --minutes 2 --seed 3 >/dev/null || { echo "FAIL: synth"; exit 1; }
python3 "$SMTOP_SRC/tests/tools/layout_fixture.py" tf "$JOB" >/dev/null || { echo "FAIL: fixture"; exit 1; }

ui_start 200 30 "$SMTOP" --interval 1 "$JOB"
ui_wait '1 file not read'
ui_wait 'ip-10-0-209-63\.ec2\.internal\.trace\.json\.gz: not read: not placed on the job clock'
# a record arriving later places it: the count goes away
step=$(ls -d "$JOB"/framework/tensorflow/detailed_profiling/*/000000007)
touch "$step/0-algo-1_1591748100000000_1591748101000000.metadata"
ui_wait_gone 'file not read' 20
echo "OK"
