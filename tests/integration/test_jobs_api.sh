#!/usr/bin/env bash
# `smtop jobs --json` against the local botocore-checked API
# (tests/aws/server.py): the list validates against jobs.schema.json (and
# the schema rejects drift), every request passes botocore's signature and
# model checks, calls are bounded (one ListTrainingJobs page per 100 jobs,
# one describe per job), --since/--status/--name/--sort/--faults/--filter
# select what they say, filtered pages that come back short or empty are
# paged past, throttling is retried, AccessDenied names the permission,
# and control characters never reach the output raw.
set -o pipefail
: "${SMTOP:?}" "${SMTOP_SRC:?}"
source "$(dirname "$0")/it_lib.sh"
. "$SMTOP_SRC/tests/aws/rig.sh"
aws_require
python3 -c 'import jsonschema' 2>/dev/null ||
  { echo "SKIPPED: python3-jsonschema not installed (scripts/install-deps.sh --test)"; exit 77; }
it_on_exit 'aws_stop'
SCHEMA="$SMTOP_SRC/tui/report/jobs.schema.json"
validate() {  # validate FILE: against the schema
  python3 - "$SCHEMA" "$1" <<'PY'
import json, sys, jsonschema
s = json.load(open(sys.argv[1])); jsonschema.Draft202012Validator.check_schema(s)
errs = list(jsonschema.Draft202012Validator(s).iter_errors(json.load(open(sys.argv[2]))))
for e in errs[:5]: print("  ", list(e.absolute_path), e.message[:200])
sys.exit(1 if errs else 0)
PY
}
q() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

aws_start "$T" 1000 || exit 1
aws_env

# --- 1,000 jobs over 8 days: the default 7 days, all described ---------------
"$SMTOP" jobs --json >"$T/all.json" 2>"$T/err" || fail "jobs --json: $(cat "$T/err")"
validate "$T/all.json" || fail "the list does not validate"
n=$(q "$T/all.json" "len(d['jobs'])")
[ "$n" -ge 850 ] && [ "$n" -le 900 ] || fail "7 days of 1,000 jobs over 8 days: got $n"
[ "$(aws_calls ListTrainingJobs)" -eq $(((n + 99) / 100)) ] ||
  fail "ListTrainingJobs calls $(aws_calls ListTrainingJobs) for $n jobs"
[ "$(aws_calls DescribeTrainingJob)" -eq "$n" ] || fail "describes $(aws_calls DescribeTrainingJob) for $n jobs"
[ "$(aws_rejects)" -eq 0 ] || fail "the server refused $(aws_rejects) requests"
[ "$(q "$T/all.json" "sorted((j['created_s'] for j in d['jobs']), reverse=True) == [j['created_s'] for j in d['jobs']]")" = True ] ||
  fail "not newest first"
grep -q $'\x1b' "$T/all.json" && fail "a raw ESC in the JSON"
[ "$(q "$T/all.json" "sum(1 for j in d['jobs'] if j['instance_groups'] == 2 and j['instance_count'] == 3)")" -gt 0 ] ||
  fail "no heterogeneous cluster with its hosts counted"
[ "$(q "$T/all.json" "sum(1 for j in d['jobs'] if j['instance_type'] == 'ml.zz9.plural')")" -gt 0 ] ||
  fail "the unknown instance type was lost"
[ "$(q "$T/all.json" "sum(1 for j in d['jobs'] if j['profiler_output'] and j['profiler_output'].endswith('/' + j['name'] + '/profiler-output/'))")" -gt 0 ] ||
  fail "no profiler_output URL"

# --- CloudWatch's figures: the newest 100 jobs, per-host sums normalised ---
# one call for the figures and one for the idle time, per job of the newest 100
[ "$(aws_calls GetMetricData)" -le 200 ] || fail "$(aws_calls GetMetricData) GetMetricData calls for --json"
python3 - "$T/all.json" <<'PY' || fails=$((fails + 1))
import json, sys
jobs = json.load(open(sys.argv[1]))["jobs"][:100]
cw = [j for j in jobs if j["metrics_source"] == "cloudwatch"]
if len(cw) < 60:   # jobs still starting have no window yet
    sys.exit(f"FAIL: only {len(cw)} of the newest 100 jobs have CloudWatch figures")
for j in cw:
    raw = j["instance_type"] not in ("ml.p4d.24xlarge", "ml.g5.12xlarge", "ml.p3.16xlarge",
                                     "ml.g5.xlarge", "ml.m5.2xlarge", "ml.p5.48xlarge") or j["instance_groups"] > 1
    if j["metrics_raw"] != raw:
        sys.exit(f"FAIL: {j['name']} {j['instance_type']}: metrics_raw {j['metrics_raw']}")
    if not raw and not (j["cpu_pct"] is not None and 0 <= j["cpu_pct"] <= 100 and
                        (j["gpu_pct"] is None or 0 <= j["gpu_pct"] <= 100)):
        sys.exit(f"FAIL: {j['name']}: not normalised: gpu {j['gpu_pct']} cpu {j['cpu_pct']}")
    if j["instance_type"] == "ml.m5.2xlarge" and j["gpu_pct"] is not None:
        sys.exit(f"FAIL: a CPU instance has a GPU figure")
if not any(j["gpu_pct"] is not None and j["gpu_pct"] < 5 for j in cw):
    sys.exit("FAIL: no idle job among the CloudWatch figures")
if not any(j["metrics_raw"] and j["cpu_pct"] > 100 for j in cw):
    sys.exit("FAIL: no raw (unnormalised) figure for the unknown type")
# idle GPU-hours: the fixture's idle jobs run at 3 % a GPU, the others above
# 50 %, so an ended idle job idled its whole training time on every GPU
GPUS = {"ml.p4d.24xlarge": 8, "ml.g5.12xlarge": 4, "ml.p3.16xlarge": 8, "ml.g5.xlarge": 1,
        "ml.p5.48xlarge": 8}
idle_ended = 0
for j in cw:
    g = GPUS.get(j["instance_type"]) if j["instance_groups"] <= 1 else None
    if not g:
        if j["idle_gpu_hours"] is not None:
            sys.exit(f"FAIL: {j['name']} {j['instance_type']}: idle GPU-hours without known GPUs")
        continue
    if j["idle_gpu_hours"] is None or j["idle_gpu_source"] != "cloudwatch":
        sys.exit(f"FAIL: {j['name']}: no idle GPU-hours from CloudWatch")
    if j["gpu_pct"] is not None and j["gpu_pct"] >= 50 and j["idle_gpu_hours"] != 0:
        sys.exit(f"FAIL: {j['name']}: busy GPUs, yet {j['idle_gpu_hours']} idle GPU-hours")
    if j["gpu_pct"] is not None and j["gpu_pct"] < 5:
        # the whole training time, less CloudWatch's 2-minute lag and a
        # period (7 days in 1,440 points: 7 minutes) while running
        whole = j["training_s"] * g * j["instance_count"] / 3600
        slack = (60 if j["status"] != "InProgress" else 900) * g * j["instance_count"] / 3600
        if abs(j["idle_gpu_hours"] - whole) > slack + 1e-9:
            sys.exit(f"FAIL: {j['name']}: {j['idle_gpu_hours']} idle GPU-hours, idle all its {whole}")
        idle_ended += 1
if idle_ended < 3:
    sys.exit("FAIL: too few idle jobs to check idle GPU-hours on")
PY

# --- filtered pages come back short or empty: keep paging -------------------
failed=$(q "$T/all.json" "sum(1 for j in d['jobs'] if j['status'] == 'Failed')")
aws_reset
"$SMTOP" jobs --json --status Failed >"$T/failed.json" 2>"$T/err" || fail "--status Failed: $(cat "$T/err")"
[ "$(q "$T/failed.json" "len(d['jobs'])")" -eq "$failed" ] ||
  fail "--status Failed: $(q "$T/failed.json" "len(d['jobs'])") jobs, $failed in the full list"
[ "$(q "$T/failed.json" "set(j['status'] for j in d['jobs'])")" = "{'Failed'}" ] || fail "--status let others through"
[ "$(aws_calls ListTrainingJobs)" -ge 9 ] || fail "paging stopped at a short page ($(aws_calls ListTrainingJobs) calls)"
"$SMTOP" jobs --json --name bert --since 2d >"$T/bert.json" 2>"$T/err" || fail "--name: $(cat "$T/err")"
[ "$(q "$T/bert.json" "len(d['jobs']) > 0 and all('bert' in j['name'] for j in d['jobs'])")" = True ] || fail "--name bert"
"$SMTOP" jobs --json --since 12h --filter '^whisper|^vit' --sort name- >"$T/f.json" || fail "--filter"
[ "$(q "$T/f.json" "[j['name'] for j in d['jobs']] == sorted((j['name'] for j in d['jobs']), reverse=True) and all(j['name'].startswith(('whisper','vit')) for j in d['jobs'])")" = True ] ||
  fail "--filter ^whisper|^vit --sort name-"
"$SMTOP" jobs --json --since 2d --faults >"$T/faults.json" || fail "--faults"
[ "$(q "$T/faults.json" "all(j['status'] == 'Failed' or j['alerts'] > 0 or (j['idle_gpu_hours'] or 0) >= 1 or j['status'] == 'InProgress' for j in d['jobs']) and len(d['jobs']) > 0")" = True ] ||
  fail "--faults kept a healthy job"

# --- faults -----------------------------------------------------------------
aws_reset
aws_fault '{"kind":"throttle","op":"ListTrainingJobs","count":2}'
"$SMTOP" jobs --json --limit 5 --since 1d >"$T/thr.json" 2>"$T/err" || fail "throttled twice: $(cat "$T/err")"
[ "$(aws_calls ListTrainingJobs)" -eq 3 ] || fail "throttled twice, then answered: $(aws_calls ListTrainingJobs) calls"
[ "$(q "$T/thr.json" "len(d['jobs'])")" -eq 5 ] || fail "--limit 5"
aws_fault '{"kind":"denied","op":"ListTrainingJobs","count":1}'
"$SMTOP" jobs --json >"$T/den.json" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] || fail "AccessDenied: exit $rc"
grep -q 'sagemaker:ListTrainingJobs' "$T/err" || fail "AccessDenied does not name the permission: $(cat "$T/err")"
grep -q 'smtop jobs s3://' "$T/err" || fail "AccessDenied does not offer the S3/disk source"
AWS_SECRET_ACCESS_KEY=wrong "$SMTOP" jobs --json >/dev/null 2>"$T/err" && fail "a wrong secret was accepted"
grep -q 'InvalidSignatureException' "$T/err" || fail "wrong secret: $(cat "$T/err")"
"$SMTOP" jobs --json --status Running >/dev/null 2>&1; [ $? -eq 2 ] || fail "--status Running is not a usage error"
"$SMTOP" jobs --json --sort nope >/dev/null 2>&1; [ $? -eq 2 ] || fail "--sort nope is not a usage error"

# --- the schema rejects drift -----------------------------------------------
python3 - "$T/all.json" "$T/drift" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
a = json.loads(json.dumps(d)); a["jobs"][0]["extra"] = 1
b = json.loads(json.dumps(d)); del b["jobs"][0]["gpu_pct"]
c = json.loads(json.dumps(d)); c["jobs"][0]["alerts"] = "2"
for i, x in enumerate((a, b, c)): json.dump(x, open(f"{sys.argv[2]}{i}.json", "w"))
PY
for i in 0 1 2; do validate "$T/drift$i.json" >/dev/null && fail "the schema accepted drift $i"; done

[ $fails -eq 0 ] && echo "jobs --json: $n jobs, $(aws_calls DescribeTrainingJob) describes"
it_done
