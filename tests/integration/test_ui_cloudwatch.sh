#!/bin/bash
# A CloudWatch-only job's dashboard, in tmux, against the local
# botocore-checked SageMaker/CloudWatch API (tests/aws):
# - `smtop jobs`, `/` to an ended job without profiler output (an
#   idle-GPU ml.p3.16xlarge: 8 GPUs, 64 vCPUs), Enter opens its dashboard;
# - the System pane's border says `CloudWatch · 1 min`, each host is a
#   node (algo-N) of CloudWatch host means, and the last values are the
#   API's own last points normalised by the type's GPUs and vCPUs (asked
#   here with botocore, not copied from smtop): GPU 3.0 % (CloudWatch's
#   24 for 8 GPUs), CPU and memory as computed; the Heatmap says the same
#   source;
# - the rules run on it: the verdict names LowGPUUtilization;
# - the header shows the API's status (Completed N ago), Esc returns to the
#   list with the cursor on the job;
# - calls: the ended job's metrics are fetched once and never again while
#   the dashboard sits, and it is described by the list only.
source "$(dirname "$0")/ui_api_lib.sh"
ui_api_start

# The job, and what CloudWatch says of its first host at its last minute.
read -r JOB TYPE HOSTS GPU CPU MEM < <(/usr/bin/python3 - "$UI_WORK/list.json" "$AWS_URL" <<'EOF'
import json, sys, datetime as dt
import botocore.session
jobs = json.load(open(sys.argv[1]))["jobs"]
known = {"ml.p3.16xlarge": (8, 64), "ml.p4d.24xlarge": (8, 96), "ml.p5.48xlarge": (8, 192)}
j = next(j for j in jobs if j["status"] in ("Completed", "Stopped") and not j["profiler_output"]
         and j["instance_type"] in known and j["gpu_pct"] is not None and j["gpu_pct"] < 5)
gpus, vcpus = known[j["instance_type"]]
cw = botocore.session.get_session().create_client(
    "cloudwatch", region_name="us-east-1", endpoint_url=sys.argv[2],
    aws_access_key_id="AKIDSMTOPTEST", aws_secret_access_key="smtop+test/secret=key")
t1 = dt.datetime.fromtimestamp(j["training_end_s"] + 60, dt.timezone.utc)
t0 = dt.datetime.fromtimestamp(j["training_start_s"], dt.timezone.utc)
q = [{"Id": "m%d" % k, "MetricStat": {"Metric": {"Namespace": "/aws/sagemaker/TrainingJobs",
      "MetricName": m, "Dimensions": [{"Name": "Host", "Value": j["name"] + "/algo-1"}]},
      "Period": 60, "Stat": "Average"}} for k, m in enumerate(
      ["GPUUtilization", "CPUUtilization", "MemoryUtilization"])]
r = cw.get_metric_data(MetricDataQueries=q, StartTime=t0, EndTime=t1)["MetricDataResults"]
last = {x["Id"]: x["Values"][x["Timestamps"].index(max(x["Timestamps"]))] for x in r}
pct = lambda v: "%.1f%%" % v if v < 99.95 else "%.0f%%" % v
print(j["name"], j["instance_type"][3:], j["instance_count"], pct(last["m0"] / gpus), pct(last["m1"] / vcpus), pct(last["m2"]))
EOF
)
[ -n "$JOB" ] || ui_fail "no ended CloudWatch-only GPU job in the fixture"
echo "job $JOB: $TYPE x $HOSTS, CloudWatch's last minute of algo-1: gpu $GPU cpu $CPU mem $MEM"
# --- report --json --job: the same figures, the source marked
"$SMTOP" report --json --job "$JOB" >"$UI_WORK/report.json" || ui_fail "report --json --job $JOB"
/usr/bin/python3 - "$UI_WORK/report.json" "$HOSTS" "$TYPE" <<'EOF' || ui_fail "report --json --job"
import json, sys
r = json.load(open(sys.argv[1]))
hosts, itype = int(sys.argv[2]), sys.argv[3]
assert r["system_source"] == {"name": "CloudWatch", "interval_s": 60}, r.get("system_source")
assert [n["id"] for n in r["nodes"]] == ["algo-%d" % h for h in range(1, hosts + 1)], r["nodes"]
low = [x for x in r["rules"] if x["name"] == "LowGPUUtilization"][0]
assert low["status"] == "triggered", low
gpus = {"p3.16xlarge": 8, "p4d.24xlarge": 8, "p5.48xlarge": 8}[itype]
assert sum(n["gpus"] for n in r["idle_gpu_hours"]) == gpus * hosts, r["idle_gpu_hours"]
print("report: system_source", r["system_source"], "idle", r["idle_gpu_hours"])
EOF
if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
  /usr/bin/python3 "$SMTOP_SRC/tests/tools/validate_report.py" "$SMTOP_SRC/tui/report/report.schema.json" \
    --kind report "$UI_WORK/report.json" || ui_fail "report --json --job does not pass the schema"
fi
"$SMTOP" report --job "$JOB" | grep -q '^system: *CloudWatch, one host mean every 60 s' ||
  ui_fail "the text report does not name CloudWatch"
"$SMTOP" report --job no-such-job-1 >/dev/null 2>"$UI_WORK/err"
[ $? -eq 1 ] && grep -q 'not found' "$UI_WORK/err" || ui_fail "--job of an unknown job: $(cat "$UI_WORK/err")"
echo "ok: report --json --job $JOB: CloudWatch, $HOSTS node(s), LowGPUUtilization, schema"

aws_reset
aws_envline

# --interval 60: the list refreshes nothing while the dashboard is counted
ui_start 160 48 "${AWSENV[@]}" XDG_CACHE_HOME="$XDG_CACHE_HOME" "$SMTOP" jobs --interval 60
ui_wait '27 jobs'
ui_keys / "^$JOB" Enter
ui_wait "^$JOB .* ${TYPE//./\\.} x$HOSTS "     # described: Enter knows it has no profiler output
# the list's own first figures (one call per job on screen) must be in
# before the dashboard's are counted
prev=-1
for _ in $(seq 1 50); do
  cur=$(aws_calls GetMetricData)
  [ "$cur" -eq "$prev" ] && break
  prev=$cur
  sleep 0.5
done
aws_reset
ui_keys g Enter
ui_wait "smtop \| $JOB \(no profiler output\)" 20
ui_wait 'System - CloudWatch · 1 min' 20
ui_wait 'algo-1  CloudWatch · 1 min host means' 20
ui_wait 'Heatmap - CloudWatch · 1 min'
ui_wait " Completed [0-9]+ [smhd] ago *$"
screen=$(ui_screen)
# the selected node's charts, from its header to the next node's
block=$(sed -n '/algo-1  CloudWatch/,/algo-2  CloudWatch\|^[^│]*└/p' <<<"$screen")
grep -E "│ +gpu +.* $GPU *│" <<<"$block" >/dev/null || ui_fail "GPU of algo-1 is not $GPU"
grep -E "│ +gmem +" <<<"$block" >/dev/null || ui_fail "no GPU memory chart"
grep -E "│ +cpu +.* $CPU *│" <<<"$block" >/dev/null || ui_fail "CPU of algo-1 is not $CPU"
grep -E "│ +mem +.* $MEM *│" <<<"$block" >/dev/null || ui_fail "memory of algo-1 is not $MEM"
grep -E "│ +disk +" <<<"$block" >/dev/null || ui_fail "no disk chart"
for h in $(seq 2 "$HOSTS"); do
  grep -q "algo-$h  CloudWatch" <<<"$screen" || ui_fail "host algo-$h not shown"
done
ui_wait 'LowGPUUtilization' 20
echo "ok: $JOB's System pane from CloudWatch: $HOSTS host(s), gpu $GPU cpu $CPU mem $MEM, LowGPUUtilization"

# ended: fetched once (one call: 5 metrics x its hosts), never again while
# the dashboard sits; the list's row was described: no describe either
n=$(aws_calls GetMetricData)
[ "$n" -eq 1 ] || ui_fail "$n GetMetricData calls for an ended job's dashboard"
sleep 5
[ "$(aws_calls GetMetricData)" -eq 1 ] || ui_fail "an ended job's metrics were fetched again"
[ "$(aws_calls DescribeTrainingJob)" -eq 0 ] || ui_fail "the dashboard described a job the list had described"
[ "$(aws_rejects)" -eq 0 ] || ui_fail "the API refused $(aws_rejects) requests"

ui_keys Escape
ui_wait 'smtop jobs - SageMaker'
ui_wait "^$JOB "
ui_quit
echo "ok: 1 GetMetricData call for an ended job, none after in 5 s; Esc back to the list"

# --- `smtop --job NAME`: a running CloudWatch-only job, straight from its
# name: described once, its metrics read once (again only a minute later)
RJOB=$(/usr/bin/python3 -c '
import json, sys
jobs = json.load(open(sys.argv[1]))["jobs"]
print(next(j["name"] for j in jobs if j["status"] == "InProgress" and not j["profiler_output"]
           and j["secondary_status"] in ("Training", "Downloading") and j["gpu_pct"] is not None
           and j["gpu_pct"] <= 100))' "$UI_WORK/list.json")
[ -n "$RJOB" ] || ui_fail "no running CloudWatch-only job in the fixture"
aws_reset
ui_start 160 48 "${AWSENV[@]}" XDG_CACHE_HOME="$XDG_CACHE_HOME" "$SMTOP" --job "$RJOB"
ui_wait "smtop \| $RJOB \(no profiler output\)"
ui_wait 'System - CloudWatch · 1 min' 20
ui_wait 'algo-1  CloudWatch · 1 min host means'
ui_wait ' (Training|Downloading) *$'
ui_wait ' gpu  .*%│'
sleep 5
[ "$(aws_calls DescribeTrainingJob)" -eq 1 ] || ui_fail "$(aws_calls DescribeTrainingJob) describes of a running job in 5 s"
[ "$(aws_calls GetMetricData)" -eq 1 ] || ui_fail "$(aws_calls GetMetricData) GetMetricData calls in 5 s"
ui_quit
echo "ok: smtop --job $RJOB (running): CloudWatch, its secondary status, 1 describe and 1 GetMetricData in 5 s"

# --- CloudWatch refuses (AccessDenied): the status line names the
# permission, and the call is not repeated before a minute has passed
aws_reset
aws_fault '{"kind":"denied","op":"GetMetricData","count":100}'
ui_start 160 48 "${AWSENV[@]}" XDG_CACHE_HOME="$XDG_CACHE_HOME" "$SMTOP" --job "$JOB"
ui_wait 'cloudwatch:GetMetricData' 20
sleep 4
[ "$(aws_calls GetMetricData)" -le 1 ] || ui_fail "a refused GetMetricData was tried $(aws_calls GetMetricData) times in 4 s"
ui_quit
echo "ok: AccessDenied on GetMetricData: named in the status line, not retried within the minute"
