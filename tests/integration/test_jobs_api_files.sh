#!/usr/bin/env bash
# `smtop jobs --json` from the local API (tests/aws) with the profiler
# output of its jobs on s3rver (tests/s3): a job whose ProfilerConfig path
# holds Debugger system metrics and smdebug events gets its GPU/CPU/memory
# % and idle GPU-hours from them (equal to jobs_figures.py on the same
# files) and is no longer asked of CloudWatch; a job with PyTorch profiler
# traces only (beside profiler-output) gets its step p50 from them and
# keeps CloudWatch's figures; both have the step p50, alerts and idle
# GPU-hours of `smtop report --job NAME`; a job with a path but no data keeps CloudWatch's;
# an ended job's output.tar.gz is asked for twice at most, one over 256 MiB
# is not read;
# S3 requests are bounded; a bucket that cannot be read is said once, names
# the bucket, and the list still comes out with CloudWatch's figures.
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
J="$SMTOP jobs --json --endpoint-url $RIG_ENDPOINT"
$J >"$T/first.json" 2>/dev/null || fail "jobs --json"
# A (Debugger metrics and smdebug), B (traces only), C (a path, no data)
. "$SMTOP_SRC/tests/integration/jobs_api_files_lib.sh"
jaf_jobs "$T/first.json" "$T/data" || exit 1
# an ended job without a profiler path whose output.tar.gz is past the
# list's 256 MiB (sparse: nothing of it is meant to be read)
BIG=$(python3 -c '
import json, sys
for j in json.load(open(sys.argv[1]))["jobs"]:
    if not j["profiler_output"] and [p["place"] for p in j["trace_sources"]] == ["output"]:
        print(j["name"]); break' "$T/first.json")
[ -n "$BIG" ] || { echo "FAIL: the fixture has no ended job with only an output.tar.gz"; exit 1; }
mkdir -p "$T/big" && truncate -s 257M "$T/big/output.tar.gz"
rig_upload smtop-jobs "output/$BIG/output" "$T/big" >/dev/null || fail "upload the big archive"
rm -rf "$T/big"
rig_reset
aws_reset
$J >"$T/all.json" 2>"$T/err" || fail "jobs --json: $(cat "$T/err")"
[ -s "$T/err" ] && fail "warnings: $(cat "$T/err")"
reqs=$(rig_stat requests)
rig_stats_json >"$T/s3.json"   # before the reports below ask again
python3 - "$T/all.json" "$T/data" "$SMTOP_SRC/tests/integration/jobs_figures.py" "$A" "$B" "$C" <<'PY' || fails=$((fails + 1))
import json, subprocess, sys
d = {j["name"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
root, ref, a, b, c = sys.argv[2:7]
want = json.loads(subprocess.check_output([sys.executable, ref, f"{root}/{a}"]))
ja, jb, jc = d[a], d[b], d[c]
for k in ["gpu_pct", "cpu_pct", "mem_pct", "idle_gpu_hours"]:
    x, y = ja[k], want[k]
    if (x is None) != (y is None) or (y is not None and abs(x - y) > 1e-9 * max(1, abs(y))):
        sys.exit(f"FAIL: {a} {k}: smtop {x}, files {y}")
if ja["metrics_source"] != "debugger" or ja["idle_gpu_source"] != "debugger" or ja["metrics_raw"] \
        or ja["step_source"] != "smdebug":
    sys.exit(f"FAIL: {a}: sources {ja['metrics_source']} {ja['idle_gpu_source']} {ja['step_source']}")
if jb["step_source"] != "kineto" or jb["metrics_source"] not in ("cloudwatch", None):
    sys.exit(f"FAIL: {b}: {jb['step_source']} {jb['metrics_source']}")
if jc["step_p50_ms"] is not None or jc["metrics_source"] == "debugger":
    sys.exit(f"FAIL: {c} has no data, yet {jc['step_p50_ms']} {jc['metrics_source']}")
print(f"{a}: gpu {ja['gpu_pct']:.1f} % p50 {ja['step_p50_ms']:.1f} ms idle {ja['idle_gpu_hours']:.4f} GPU-h (debugger); "
      f"{b}: p50 {jb['step_p50_ms']:.1f} ms (kineto)")
PY
# the step p50, the rules that fired and idle GPU-hours of the two with
# data are `smtop report --job NAME`'s (the job's folder, traces beside)
for n in "$A" "$B"; do
  "$SMTOP" report --json --endpoint-url "$RIG_ENDPOINT" --job "$n" >"$T/rep.json" 2>"$T/err" ||
    fail "report --job $n: $(cat "$T/err")"
  python3 "$SMTOP_SRC/tests/integration/jobs_vs_report.py" "$T/all.json" "$n" "$T/rep.json" --api ||
    fails=$((fails + 1))
done
# an ended job's output.tar.gz is one of its places (JOB DATA PLACES):
# the list reads it as the report does (--json: the first 100 rows), a
# request for the archive (none is there), twice at most, and names it in
# trace_sources[]
arch=$(python3 -c '
import json, sys
print(sum(any(p["place"] == "output" for p in j["trace_sources"])
          for j in json.load(open(sys.argv[1]))["jobs"][:100]))' "$T/all.json")
tars=$(python3 -c '
import json, sys
print(sum(v for k, v in json.load(open(sys.argv[1]))["lists_by"].items() if k.endswith("/output.tar.gz")))' "$T/s3.json")
echo "S3: $reqs requests for the data of the jobs ($tars for $arch archives)"
[ "$arch" -gt 0 ] || fail "no listed job names an output.tar.gz: the archives are not checked"
# the big one is never read (no GET: the list's bound, not the report's
# 2 GiB), its place found as the report finds one past its bound
python3 - "$T/all.json" "$T/s3.json" "$BIG" <<'PY' || fails=$((fails + 1))
import json, sys
rows = {j["name"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
s3 = json.load(open(sys.argv[2]))
big = sys.argv[3]
out = [p for p in rows[big]["trace_sources"] if p["place"] == "output"]
key = f"smtop-jobs/output/{big}/output/output.tar.gz"
# the rig counts GETs by bucket only: its bytes say whether a piece of
# the archive (a read is SOURCE_TAR_CHUNK, 8 MiB) came
mib = s3["bytes"] / (1 << 20)
print(f"{big}: output.tar.gz of 257 MiB: {out[0]['status'] if out else None}, "
      f"{s3['lists_by'].get(key, 0)} listings; the list read {mib:.1f} MiB in all")
if not out or out[0]["status"] != "empty" or out[0]["objects"]:
    sys.exit(f"FAIL: {big}'s archive past the bound: {out}")
if mib >= 8 or s3["lists_by"].get(key, 0) < 1:
    sys.exit(f"FAIL: {big}'s archive past the bound was read ({mib:.1f} MiB came), "
             f"or never listed ({s3['lists_by'].get(key, 0)} listings)")
PY
[ "$tars" -le $((2 * arch)) ] || fail "$tars requests for $arch archives: each is asked for twice at most"
# 10 jobs with a path: each opened as `smtop report` opens it (its
# folder's listings, about 20 each) and the files of the two with data
[ "$reqs" -le $((320 + tars)) ] || fail "$reqs S3 requests"

# a bucket that cannot be read: said once, naming it; CloudWatch's figures stay
"$SMTOP" jobs --json --endpoint-url http://127.0.0.1:1 >"$T/dead.json" 2>"$T/err" ||
  fail "jobs --json with S3 unreachable: exit $?"
grep -q "s3://smtop-jobs/" "$T/err" || fail "the unreadable bucket is not named: $(cat "$T/err")"
[ "$(grep -c 'cannot be read' "$T/err")" -eq 1 ] || fail "said more than once: $(cat "$T/err")"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["jobs"]
sys.exit(0 if any(j["metrics_source"] == "cloudwatch" for j in d) else "FAIL: no CloudWatch figures left")' "$T/dead.json" ||
  fails=$((fails + 1))
[ $fails -eq 0 ] && echo "jobs API + S3 profiler data: ok"
it_done
