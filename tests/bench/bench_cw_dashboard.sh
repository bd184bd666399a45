#!/bin/bash
# bench_cw_dashboard.sh: a CloudWatch-only job's dashboard on the local
# botocore-checked API (tests/aws): the time from start to the first GPU
# chart (`smtop --job`, an ended and a running job, 5 runs each), then
# the idle CPU of a running job's dashboard over 60 s and the calls it
# made. SKIP_IDLE=1 skips the minute.
#   SMTOP=build/smtop SMTOP_SRC=$PWD tests/bench/bench_cw_dashboard.sh
source "$SMTOP_SRC/tests/integration/ui_lib.sh"
. "$SMTOP_SRC/tests/aws/rig.sh"
trap 'aws_stop; ui_cleanup' EXIT
aws_start "$UI_WORK/aws" 30 >/dev/null || exit 1
aws_env
aws_envline
for JOB in llama-ft-sweep-0013 whisper-sweep-0028; do
  for k in 1 2 3 4 5; do
    t0=$(date +%s%N)
    ui_start 160 48 "${AWSENV[@]}" "$SMTOP" --job "$JOB"
    ui_wait 'gpu  .*%│' 20
    echo "$JOB first chart ms: $((($(date +%s%N) - t0) / 1000000))"
    ui_keys q; ui_wait SMTOP_EXIT= 10
  done
done
[ -n "${SKIP_IDLE:-}" ] && exit 0
ui_start 160 48 "${AWSENV[@]}" "$SMTOP" --job whisper-sweep-0028
ui_wait 'gpu  .*%│' 20
sleep 2
pid=$(ui_smtop_pid)
a=$(awk '{print $14+$15}' /proc/$pid/stat); sleep 60; b=$(awk '{print $14+$15}' /proc/$pid/stat)
echo "idle CPU over 60 s: $((b - a)) ticks of $(getconf CLK_TCK)/s"
echo "calls in that minute+: $(curl -s $AWS_URL/__stats)" | head -c 300; echo
ui_keys q
