#!/bin/bash
# 80x24 and 200x60 captures of `smtop jobs` with the 30 jobs of tests/aws/server.py.
# usage: SMTOP=build/smtop OUT=DIR tests/bench/jobs_captures.sh   (from the repo root)
source "$(dirname "$0")/../integration/ui_lib.sh"
. "$(dirname "$0")/../aws/rig.sh"
mkdir -p "${OUT:?OUT=DIR}"
trap 'aws_stop; ui_cleanup' EXIT
aws_start "$UI_WORK/aws" 30 || exit 1
aws_env; aws_envline
for size in "80 24" "200 60"; do
  set -- $size
  ui_start $1 $2 "${AWSENV[@]}" "$SMTOP" jobs --since 9d
  ui_wait '30 jobs'
  sleep 4
  ui_screen > $OUT/jobs-30-$1x$2.txt
  ui_keys f; sleep 1
  ui_screen > $OUT/jobs-30-$1x$2-faults.txt
  ui_keys f '>' '>' S; sleep 1
  ui_screen > $OUT/jobs-30-$1x$2-sorted-gpu-desc.txt
  ui_keys q; sleep 0.5
done
