#!/bin/bash
# The dashboard opened directly on an s3:// job (no `smtop jobs`), with
# API access (tests/aws: the botocore-checked SageMaker API; tests/s3: the
# bucket): the header shows the API's status for the job the path names
# (.../JOB/profiler-output):
# - a running job: its secondary status (Training, Downloading, Starting);
# - a stopped one: "Stopped N ago"; a failed one: "Failed: REASON",
#   sanitized;
# - a job the API does not know: the files' freshness, as without the API;
# - calls: an ended job is described once, whatever the dashboard does
#   after; a running one at most once a minute; the job's Debugger metrics
#   are its source: no GetMetricData;
# - an ended job whose profiler path holds nothing: its system charts come
#   from CloudWatch (the System border says so), read once.
source "$(dirname "$0")/ui_api_lib.sh"
ui_api_start --s3
# a running, a stopped and a failed job with a profiler config
read -r RUN STOP FAIL EMPTY < <(python3 - "$UI_WORK/list.json" <<'EOF'
import json, sys
jobs = [j for j in json.load(open(sys.argv[1]))["jobs"] if j["profiler_output"]]
pick = lambda st: next(j["name"] for j in jobs if j["status"] == st and "\x1b" not in j["name"])
print(pick("InProgress"), pick("Stopped"), pick("Failed"), pick("Completed"))
EOF
)
[ -n "$FAIL" ] || ui_fail "the fixture lacks a running, a stopped or a failed profiled job"
ui_api_upload "$RUN" "$STOP" "$FAIL" nosuch-job-7
aws_envline
# dash JOB PATTERN: the dashboard of s3://.../JOB/profiler-output shows
# PATTERN at the header's right end
dash() {
  aws_reset
  ui_start 160 40 "${AWSENV[@]}" XDG_CACHE_HOME="$XDG_CACHE_HOME" "$SMTOP" \
    --endpoint-url "$RIG_ENDPOINT" "s3://smtop-jobs/profiler/$1/profiler-output"
  ui_wait "$2" 20
}

dash "$STOP" ' Stopped [0-9]+ [smhd] ago *$'
ui_wait 'algo-2  4 cpu  1 gpu'       # the files' nodes
ui_screen | grep -q 'CloudWatch' && ui_fail "CloudWatch named for a job with Debugger metrics"
sleep 5
[ "$(aws_calls DescribeTrainingJob)" -eq 1 ] ||
  ui_fail "a stopped job was described $(aws_calls DescribeTrainingJob) times in 5 s"
[ "$(aws_calls GetMetricData)" -eq 0 ] || ui_fail "CloudWatch asked for a job with Debugger metrics"
ui_quit
echo "ok: $STOP: Stopped N ago, 1 describe, no GetMetricData"

dash "$RUN" ' (Training|Downloading|Starting) *$'
ui_wait 'algo-2  4 cpu  1 gpu'
sleep 5
[ "$(aws_calls DescribeTrainingJob)" -eq 1 ] ||
  ui_fail "a running job was described $(aws_calls DescribeTrainingJob) times in 5 s"
ui_quit
echo "ok: $RUN: its secondary status, 1 describe in 5 s"

dash "$FAIL" ' Failed: [A-Za-z]+'
ui_screen_esc | grep -q $'\x07' && ui_fail "a BEL of the failure reason reached the terminal"
ui_quit
echo "ok: $FAIL: Failed: reason"

dash nosuch-job-7 "$UI_FOLLOW"
[ "$(aws_calls DescribeTrainingJob)" -eq 1 ] || ui_fail "the unknown job was not asked for"
# its one refusal is the API's "not found", not a bad request
curl -s "$AWS_URL/__stats" | python3 -c 'import json,sys; r=json.load(sys.stdin)["rejects"]; sys.exit(not (len(r) == 1 and "not found" in r[0]))' ||
  ui_fail "rejects: $(curl -s "$AWS_URL/__stats")"
ui_quit
echo "ok: a job the API does not know: the files' freshness"

dash "$EMPTY" ' Completed [0-9]+ [smhd] ago *$'
ui_wait 'System - CloudWatch · 1 min' 20
ui_wait 'algo-1  CloudWatch · 1 min host means'
sleep 3
[ "$(aws_calls GetMetricData)" -eq 1 ] || ui_fail "$(aws_calls GetMetricData) GetMetricData calls for an ended job"
ui_quit
echo "ok: $EMPTY (its profiler path empty): CloudWatch's metrics, one call"
