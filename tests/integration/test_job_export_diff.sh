#!/usr/bin/env bash
# `smtop export --job NAME` and `smtop diff --job NAME` against the local
# botocore-checked SageMaker/CloudWatch API (tests/aws) with the jobs'
# profiler output on s3rver (tests/s3), resolved by report's own code
# (cmd_job):
# - export --job writes the same trace as export of the job's S3 URL,
#   with one DescribeTrainingJob; a job without profiler output, or one
#   the API does not know, is exit 1 saying so; --job with a SOURCE is 2;
# - diff --job A --job B is the same JSON as diff of their S3 URLs, and
#   a path and --job mix in the order given; a job without profiler
#   output diffs on CloudWatch's per-host metrics.
set -o pipefail
: "${SMTOP:?}" "${SMTOP_SRC:?}"
source "$(dirname "$0")/it_lib.sh"
. "$SMTOP_SRC/tests/aws/rig.sh"
. "$SMTOP_SRC/tests/s3/rig.sh"
aws_require
rig_require
it_on_exit 'aws_stop; rig_stop'

aws_start "$T" 30 || exit 1
aws_env
rig_start "$T/rig" || exit 1
rig_env
export XDG_CACHE_HOME="$T/cache"
E=(--endpoint-url "$RIG_ENDPOINT")
"$SMTOP" jobs --json "${E[@]}" >"$T/list.json" 2>/dev/null || fail "jobs --json"
# two ended plain-named jobs with a profiler path, one without any
mapfile -t P < <(python3 -c '
import json, sys
jobs = [j for j in json.load(open(sys.argv[1]))["jobs"]
        if j["name"].isprintable() and j["training_start_s"] and j["status"] in ("Completed", "Stopped")]
print("\n".join([j["name"] for j in jobs if j["profiler_output"]][:2] +
                [j["name"] for j in jobs if not j["profiler_output"]][:1]))' "$T/list.json")
[ "${#P[@]}" -eq 3 ] || { echo "FAIL: the fixture has no 2 ended jobs with a profiler path and 1 without"; exit 1; }
A=${P[0]} B=${P[1]} C=${P[2]}
url() { python3 -c 'import json,sys; print(next(j["profiler_output"] for j in json.load(open(sys.argv[1]))["jobs"] if j["name"] == sys.argv[2]))' "$T/list.json" "$1"; }
UA=$(url "$A") UB=$(url "$B")
"$SMTOP" synth --out "$T/data/$A/profiler-output" --nodes 2 --minutes 2 --seed 3 >/dev/null || fail "synth A"
"$SMTOP" synth --out "$T/data/$B/profiler-output" --nodes 2 --minutes 2 --seed 4 >/dev/null || fail "synth B"
bucket=${UA#s3://}; bucket=${bucket%%/*}
prefix=${UA#s3://$bucket/}; prefix=${prefix%/$A/profiler-output/}
rig_upload "$bucket" "$prefix" "$T/data" >/dev/null || fail "upload"

# --- export
aws_reset
"$SMTOP" export --perfetto "$T/job.json" --job "$A" "${E[@]}" 2>"$T/err" || fail "export --job $A: $(cat "$T/err")"
[ "$(aws_calls DescribeTrainingJob)" -eq 1 ] || fail "export --job: $(aws_calls DescribeTrainingJob) describes"
"$SMTOP" export --perfetto "$T/url.json" "$UA" "${E[@]}" 2>/dev/null || fail "export $UA"
[ -s "$T/job.json" ] && cmp -s "$T/job.json" "$T/url.json" ||
  fail "export --job $A differs from export $UA ($(wc -c <"$T/job.json") vs $(wc -c <"$T/url.json") bytes)"
"$SMTOP" export --perfetto "$T/c.json" --job "$C" "${E[@]}" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q "no profiler output" "$T/err" && [ ! -e "$T/c.json" ] ||
  fail "export --job of a job without profiler output: exit $rc, $(cat "$T/err")"
"$SMTOP" export --perfetto "$T/x.json" --job no-such-job-1 "${E[@]}" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q "not found" "$T/err" || fail "export --job of an unknown job: exit $rc, $(cat "$T/err")"
"$SMTOP" export --perfetto "$T/x.json" --job "$A" "$T/data/$A" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q -- "--job NAME takes no SOURCE" "$T/err" || fail "export --job with a SOURCE: exit $rc"
[ $fails -eq 0 ] && echo "ok: export --job $A: $(wc -c <"$T/job.json") bytes, as from $UA"

# --- diff
aws_reset
"$SMTOP" diff --json --job "$A" --job "$B" "${E[@]}" >"$T/djob.json" 2>"$T/err" || fail "diff --job --job: $(cat "$T/err")"
[ "$(aws_calls DescribeTrainingJob)" -eq 2 ] || fail "diff --job --job: $(aws_calls DescribeTrainingJob) describes"
"$SMTOP" diff --json "$UA" "$UB" "${E[@]}" >"$T/durl.json" 2>/dev/null || fail "diff of the URLs"
"$SMTOP" diff --json "$T/data/$A/profiler-output" --job "$B" "${E[@]}" >"$T/dmix.json" 2>"$T/err" ||
  fail "diff PATH --job: $(cat "$T/err")"
python3 - "$T/djob.json" "$T/durl.json" "$T/dmix.json" <<'PY' || fails=$((fails + 1))
import json, sys
job, url, mix = (json.load(open(p)) for p in sys.argv[1:4])
if job != url:
    sys.exit("FAIL: diff --job A --job B differs from diff of their URLs: " +
             ", ".join(k for k in set(job) | set(url) if job.get(k) != url.get(k)))
mix["base"] = url["base"]   # the base's name: its path, not its URL
if mix != url:
    sys.exit("FAIL: diff PATH --job B differs: " + ", ".join(k for k in set(mix) | set(url) if mix.get(k) != url.get(k)))
PY
"$SMTOP" diff --job "$C" --job "$A" "${E[@]}" >"$T/dcw.txt" 2>"$T/err" || fail "diff --job of a CloudWatch-only job: $(cat "$T/err")"
# the base's utilization is CloudWatch's (its files are none at all)
grep -q "^base: *$C (no profiler output" "$T/dcw.txt" && grep -Eq '^  algo-1 +cpu_total +[0-9.]+ -> ' "$T/dcw.txt" ||
  fail "diff --job $C: no CloudWatch utilization: $(cat "$T/dcw.txt")"
[ "$(aws_rejects)" -eq 0 ] || fail "the API server refused $(aws_rejects) requests"
"$SMTOP" diff --job "$A" "${E[@]}" >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 2 ] || fail "diff with one --job only: exit $rc"
"$SMTOP" diff --job no-such-job-1 --job "$A" "${E[@]}" >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q "not found" "$T/err" || fail "diff --job of an unknown job: exit $rc, $(cat "$T/err")"
[ $fails -eq 0 ] && echo "ok: diff --job $A --job $B as of their URLs; $C on CloudWatch"
it_done
