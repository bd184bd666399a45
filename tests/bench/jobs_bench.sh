#!/bin/bash
# smtop jobs against the local API (tests/aws) with 1,000 jobs, in tmux:
#   first screen   ms from start until the first rows are drawn (median of RUNS)
#   keys           ms from a `j` until the cursor's line changes, while every
#                  ListTrainingJobs page is held 1 s by the server (pages
#                  still loading; median and max of 20 keys)
#   idle           % of one core used by smtop over 30 s once the list is in
#   calls          ListTrainingJobs / DescribeTrainingJob answered for the
#                  first screen
# usage: SMTOP=build/smtop tests/bench/jobs_bench.sh   (from the repo root)
source "$(dirname "$0")/../integration/ui_lib.sh"
. "$(dirname "$0")/../aws/rig.sh"
aws_require
trap 'aws_stop; ui_cleanup' EXIT
RUNS=${RUNS:-5}
aws_start "$UI_WORK/aws" 1000 || exit 1
aws_env; aws_envline
now_ms() { echo $(($(date +%s%N) / 1000000)); }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

for i in $(seq 1 "$RUNS"); do
  aws_reset
  t0=$(now_ms)
  ui_start 120 40 "${AWSENV[@]}" "$SMTOP" jobs
  end=$((SECONDS + 20))
  until ui_screen | grep -qE '^[a-z].* (Training|Completed|Failed|Stopped|Stopping|InProgress|Starting|Downloading) ' || ((SECONDS > end)); do sleep 0.01; done
  echo $(($(now_ms) - t0))
  ui_keys q; ui_wait 'SMTOP_EXIT=' 10 >/dev/null
done >"$UI_WORK/first"
echo "first screen (1,000 jobs, $RUNS runs): median $(median <"$UI_WORK/first") ms, all: $(tr '\n' ' ' <"$UI_WORK/first")"
echo "calls for the last run's first screen: $(aws_calls ListTrainingJobs) lists, $(aws_calls DescribeTrainingJob) describes"

aws_reset
aws_fault '{"kind":"slow","op":"ListTrainingJobs","ms":1000,"count":1000}'
ui_start 120 40 "${AWSENV[@]}" "$SMTOP" jobs --since 9d
until ui_screen | grep -qE '^[a-z].* (Training|Completed|Failed) '; do sleep 0.01; done
sel() { ui_screen | sed -n 39p; }   # the selected job's line
keyloop() {
for k in $(seq 1 20); do
  before=$(sel)
  t0=$(date +%s%N)
  ui_keys j
  end=$((SECONDS + 5))
  while [ "$(sel)" = "$before" ] && ((SECONDS < end)); do :; done
  echo $((($(date +%s%N) - t0) / 1000000))
done
}
before=$(ui_screen | head -1)
keyloop >"$UI_WORK/keys"
loading=$(ui_screen | head -1)
echo "keys while pages load: median $(median <"$UI_WORK/keys") ms, max $(sort -n "$UI_WORK/keys" | tail -1) ms (title before: $before; after: $loading)"
ui_wait '1000 jobs' 30 >/dev/null
keyloop >"$UI_WORK/keys2"
echo "keys once loaded (the same measure, tmux's capture included): median $(median <"$UI_WORK/keys2") ms, max $(sort -n "$UI_WORK/keys2" | tail -1) ms"
ui_keys q; ui_wait 'SMTOP_EXIT=' 10 >/dev/null

aws_reset
ui_start 120 40 "${AWSENV[@]}" "$SMTOP" jobs
ui_wait 'jobs' 10 >/dev/null
sleep 8
pid=$(ui_smtop_pid)
tick=$(getconf CLK_TCK)
cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
c0=$(cpu); sleep 30; c1=$(cpu)
echo "idle: $(awk -v c=$((c1 - c0)) -v t="$tick" 'BEGIN {printf "%.2f", 100 * c / t / 30}') % of a core over 30 s (ticks $((c1 - c0)))"
ui_keys q
