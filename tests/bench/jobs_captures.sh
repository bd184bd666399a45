#!/bin/bash
# 80x24 and 200x60 captures of `smtop jobs` with the 30 jobs of tests/aws/server.py
# (CloudWatch's figures and idle GPU-hours), and, where the S3 rig is installed,
# the profiler output of four of them on s3rver (Debugger figures, smdebug and
# PyTorch profiler step p50); then the same of 30 job folders in a directory.
# usage: SMTOP=build/smtop OUT=DIR tests/bench/jobs_captures.sh   (from the repo root)
source "$(dirname "$0")/../integration/ui_lib.sh"
. "$(dirname "$0")/../aws/rig.sh"
. "$(dirname "$0")/../s3/rig.sh"
mkdir -p "${OUT:?OUT=DIR}"
trap 'aws_stop; rig_stop; ui_cleanup' EXIT
aws_start "$UI_WORK/aws" 30 || exit 1
aws_env; aws_envline
S3ARGS=()
if command -v node >/dev/null && [ -d "$RIG_HOME/node_modules/s3rver" ]; then
  rig_start "$UI_WORK/rig" || exit 1
  rig_env
  # the newest four plain-named jobs with a profiler path get data
  mapfile -t P < <("$SMTOP" jobs --json --endpoint-url "$RIG_ENDPOINT" 2>/dev/null | python3 -c '
import json, sys
for j in json.load(sys.stdin)["jobs"]:
    if j["profiler_output"] and j["name"].isprintable() and j["training_start_s"]:
        print(j["name"])' | head -4)
  D="$UI_WORK/data"
  "$SMTOP" synth --out "$D/${P[0]}/profiler-output" --nodes 2 --gpus 4 --minutes 6 >/dev/null
  "$SMTOP" synth --out "$D/${P[1]}/profiler-output" --gpus 8 --minutes 6 --step-ms 340 --seed 2 >/dev/null
  "$SMTOP" synth --out "$D/${P[2]}" --kineto-only --minutes 3 >/dev/null
  "$SMTOP" synth --out "$D/${P[3]}" --kineto --gpus 2 --minutes 4 --seed 3 >/dev/null
  rig_upload smtop-jobs profiler "$D" >/dev/null
  S3ARGS=(--endpoint-url "$RIG_ENDPOINT")
fi
capture() {  # capture NAME W H ARGS...: the list, its faults, sorted by GPU % descending
  local name=$1 w=$2 h=$3
  shift 3
  ui_start "$w" "$h" "${AWSENV[@]}" "$SMTOP" jobs "$@"
  ui_wait '30 jobs'
  sleep 5
  ui_screen > "$OUT/$name-${w}x$h.txt"
  ui_keys f; sleep 1
  ui_screen > "$OUT/$name-${w}x$h-faults.txt"
  ui_keys f '>' '>' S; sleep 1
  ui_screen > "$OUT/$name-${w}x$h-sorted-gpu-desc.txt"
  ui_keys q; sleep 0.5
}
for size in "80 24" "200 60"; do
  capture jobs-30 $size --since 9d "${S3ARGS[@]}"
done
# 30 job folders: two thirds with system metrics and smdebug steps (some
# ended, some idle), the rest PyTorch profiler traces only
F="$UI_WORK/folders"
for i in $(seq -w 1 30); do
  case $((10#$i % 3)) in
    0) "$SMTOP" synth --out "$F/team-a/run-$i" --kineto-only --minutes 2 --seed "$i" >/dev/null ;;
    1) "$SMTOP" synth --out "$F/team-a/run-$i/profiler-output" --gpus 2 --minutes 3 --seed "$i" >/dev/null ;;
    2) # ended i hours ago: files dated by the minute in their names, then the marker
       J="$F/team-b/run-$i/profiler-output" start=$(($(date +%s) - 10#$i * 3600))
       "$SMTOP" synth --out "$J" --minutes 3 --seed "$i" --start $start \
         --step-ms $((80 + 10#$i * 7)) >/dev/null
       for f in "$J"/system/incremental/*/*.json; do b=${f##*/}; touch -d "@${b%%.*}" "$f"; done
       touch -d "@$((start + 240))" "$J/system/training_job_end.ts" ;;
  esac
done
for size in "80 24" "200 60"; do
  capture folders-30 $size "$F"
done
