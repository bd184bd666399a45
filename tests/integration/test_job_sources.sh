#!/usr/bin/env bash
# Issue 36: a training job named to the API is read from every place its
# description gives (job_sources_lib.sh sets up the jobs): `report --json
# --job` of each has its traces (gpu ranks), names each place and what it
# found (trace_sources[]), reads exactly what `report --json` of a local
# job folder of the same layout reads (gpu[], nodes, steps), and makes one
# listing per trace place (never one of a whole bucket, nor of the
# TensorBoard path itself once its job folder held the data); a place
# denied, or in another region, is named with the permission or region it
# needs while the rest is read; export --job and diff --job read the same
# places; `jobs --json` gives each row the report's STEP p50 and alerts
# (step_source kineto) and the same trace_sources[], each trace place
# listed once. Prints the S3 requests of each report (one pass: the first read),
# and of each later refresh (tests/tools/job_passes: one listing a trace
# place, nothing read again, the archive never listed again).
set -o pipefail
: "${SMTOP:?}" "${SMTOP_SRC:?}"
source "$(dirname "$0")/it_lib.sh"
. "$SMTOP_SRC/tests/aws/rig.sh"
. "$SMTOP_SRC/tests/s3/rig.sh"
. "$SMTOP_SRC/tests/integration/job_sources_lib.sh"
aws_require
rig_require
it_on_exit 'aws_stop; rig_stop'
export XDG_CACHE_HOME="$T/cache"
js_start "$T" || { echo "FAIL: setup"; exit 1; }

printf '%-12s %5s %5s %6s  %s\n' job ranks reqs lists "listings per prefix"
for j in $JS_JOBS; do
    rig_recount >/dev/null
    "$SMTOP" report --json --job "$j" "${E[@]}" >"$T/$j.json" 2>"$T/$j.err" ||
        fail "report --json --job $j: exit $?: $(cat "$T/$j.err")"
    rig_stats_json >"$T/$j.s3"
    "$SMTOP" report --json "$JS_DATA/$j" >"$T/$j.local.json" 2>/dev/null ||
        fail "report --json of the local folder of $j"
    python3 - "$j" "$T/$j.json" "$T/$j.local.json" "$T/$j.s3" <<'PY' || fails=$((fails + 1))
import json, sys
job, api, loc, s3 = sys.argv[1], *(json.load(open(p)) for p in sys.argv[2:5])
bad = []
places = {p["place"]: p for p in api.get("trace_sources", [])}
want = {"tb-only-1": {"tensorboard": "read"}, "ckpt-only-1": {"checkpoint": "read"},
        "dbg-tb-1": {"profiler": "read", "tensorboard": "read"}, "ended-out-1": {"output": "read"},
        "denied-1": {"tensorboard": "read", "checkpoint": "unreadable"},
        "region-1": {"checkpoint": "read", "tensorboard": "unreadable"},
        "tbfb-1": {"tensorboard": "read"}}[job]
got = {k: v["status"] for k, v in places.items()}
if got != want:
    bad.append(f"trace_sources {got}, want {want}")
if len(api["gpu"]) != 2:
    bad.append(f"{len(api['gpu'])} GPU ranks, want 2")
# the same as the local job folder of that layout, the system metrics but
# CloudWatch's (a job without Debugger's gets the API's per-host means)
for k in ("gpu", "steps") + (("nodes",) if "system_source" not in api else ()):
    if api[k] != loc[k]:
        bad.append(f"{k} differs from the local folder's")
err = {k: v["error"] or "" for k, v in places.items()}
if job == "denied-1" and not ("AccessDenied" in err["checkpoint"] and "s3:ListBucket" in err["checkpoint"]):
    bad.append("the denied place does not name s3:ListBucket: " + err["checkpoint"])
if job == "region-1" and "eu-west-1" not in err["tensorboard"]:
    bad.append("the other region's place does not name eu-west-1: " + err["tensorboard"])
if job in ("denied-1", "region-1"):
    un = [u["key"] for u in api["warnings"]["unread"]]
    if not any(k in ("checkpoints/", "tensorboard-output/") for k in un):
        bad.append(f"the unreadable place is not in the warnings: {un}")
lists = s3["lists_by"]
for p in api.get("trace_sources", []):
    if p["place"] in ("tensorboard", "checkpoint") and p["status"] != "unreadable":
        mine = {k: v for k, v in lists.items() if k.startswith(p["url"][5:])}
        n = sum(mine.values())
        # the TensorBoard fallback: its job folder (empty) and the path itself, once each
        limit = 2 if job == "tbfb-1" else 1
        if n > limit:
            bad.append(f"{p['url']}: {n} listings in one pass {mine}")
for k in lists:
    if k.endswith("/") and k.count("/") == 1:
        bad.append(f"a whole bucket was listed: {k}")
if job != "tbfb-1" and any(k in ("tb-bucket/tb/", "tb-other/x/") for k in lists):
    bad.append(f"a TensorBoard path itself was listed though its job folder held the data: {lists}")
print(f"{job:12s} {len(api['gpu']):5d} {s3['requests']:5d} {s3['list']:6d}  " +
      ", ".join(f"{k}: {v}" for k, v in sorted(lists.items())))
for b in bad:
    print(f"FAIL: {job}: {b}")
sys.exit(1 if bad else 0)
PY
done

# jobs --json: each row read from its places as the report read them: the
# same step p50 (step_source kineto), alerts and trace_sources[] (every
# field); each trace place listed once, never a whole bucket
rig_recount >/dev/null
"$SMTOP" jobs --json "${E[@]}" >"$T/jobs.json" 2>"$T/jobs.err" ||
    fail "jobs --json: exit $?: $(cat "$T/jobs.err")"
rig_stats_json >"$T/jobs.s3"
python3 - "$T" "$SMTOP_SRC/tui/report/jobs.schema.json" $JS_JOBS <<'PY' || fails=$((fails + 1))
import json, sys
T, schema, jobs = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3:]
d, s3 = json.load(open(f"{T}/jobs.json")), json.load(open(f"{T}/jobs.s3"))
rows = {r["name"]: r for r in d["jobs"]}
bad = []
print("| job | STEP ms (report) | step_source | ALRT (report) | GPU % (source) | trace_sources |")
print("|---|---|---|---|---|---|")
for job in jobs:
    r, rep = rows.get(job), json.load(open(f"{T}/{job}.json"))
    if not r:
        bad.append(f"{job}: not in jobs --json")
        continue
    s = rep["summary"]
    p50 = s["step_p50_us"] / 1e3 if s["step_p50_us"] is not None else None
    if r["step_source"] != "kineto" or p50 is None or r["step_p50_ms"] is None or \
            abs(r["step_p50_ms"] - p50) > 1e-6 * p50:
        bad.append(f"{job}: STEP {r['step_p50_ms']} from {r['step_source']}, "
                   f"the report's {p50} (kineto)")
    if r["alerts"] != s["alerts"]:
        bad.append(f"{job}: ALRT {r['alerts']}, the report's {s['alerts']}")
    if r["trace_sources"] != rep["trace_sources"]:
        bad.append(f"{job}: trace_sources {r['trace_sources']}, the report's {rep['trace_sources']}")
    # Debugger's system metrics are dbg-tb-1's own: the row's GPU % is theirs
    if job == "dbg-tb-1" and (r["metrics_source"] != "debugger" or r["gpu_pct"] is None):
        bad.append(f"{job}: GPU {r['gpu_pct']} from {r['metrics_source']}, want Debugger's")
    print(f"| {job} | {r['step_p50_ms']} ({p50}) | {r['step_source']} | {r['alerts']} "
          f"({s['alerts']}) | {r['gpu_pct']} ({r['metrics_source']}) | " +
          ", ".join(f"{p['place']}: {p['status']} {p['objects']}" for p in r["trace_sources"]) + " |")
lists = s3["lists_by"]
for k in lists:
    if k.endswith("/") and k.count("/") == 1:
        bad.append(f"jobs --json listed a whole bucket: {k}")
for pre in ("tb-bucket/tb/tb-only-1/tensorboard-output/", "ckpt-bucket/ckpt/ckpt-only-1/",
            "tb-other/x/dbg-tb-1/tensorboard-output/", "locked-bucket/ck/", "tb-fb/tbfb-1-logs/"):
    if lists.get(pre, 0) != 1:
        bad.append(f"jobs --json listed {pre} {lists.get(pre, 0)} times, want once")
print(f"jobs --json: {s3['requests']} S3 requests ({s3['list']} lists, {s3['get_object']} GETs)")
try:
    import jsonschema
    jsonschema.Draft202012Validator(schema).validate(d)
except ImportError:
    print("(jsonschema not installed: the schema is not checked here)")
except jsonschema.ValidationError as e:
    bad.append(f"jobs --json does not validate: {e.message}")
for b in bad:
    print(f"FAIL: jobs --json: {b}")
sys.exit(1 if bad else 0)
PY

# S3 requests of each refresh: a dashboard's passes without the screen
# (tests/tools/job_passes.c), the rig's counters read and zeroed after each
PASSES=${SMTOP_BUILD:-$SMTOP_SRC/build}/tests/job_passes
[ -x "$PASSES" ] || { echo "FAIL: job_passes not built: $PASSES"; exit 1; }
echo
echo "| job | first pass: requests (lists, GETs) | each later pass: requests | listings a later pass, by prefix |"
echo "|---|---|---|---|"
for j in $JS_JOBS; do
    rig_recount >/dev/null
    : >"$T/$j.passes"
    "$PASSES" "$j" "$RIG_ENDPOINT" 4 "curl -s -X POST http://127.0.0.1:$RIG_CTL/recount >>$T/$j.passes; echo >>$T/$j.passes" \
        >"$T/$j.out" 2>"$T/$j.perr" || fail "job_passes $j: $(cat "$T/$j.perr")"
    python3 - "$j" "$T/$j.passes" "$T/$j.out" <<'PY' || fails=$((fails + 1))
import json, sys
job, passes = sys.argv[1], [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
out = open(sys.argv[3]).read().split()
bad = []
if len(passes) != 4:
    sys.exit(f"FAIL: {job}: {len(passes)} passes counted")
if "ranks=2" not in out:
    bad.append(f"the passes read no 2 ranks: {' '.join(out)}")
first, later = passes[0], passes[1:]
places = {"tb-only-1": ["tb-bucket/tb/tb-only-1/tensorboard-output/"],
          "ckpt-only-1": ["ckpt-bucket/ckpt/ckpt-only-1/"],
          "dbg-tb-1": ["tb-other/x/dbg-tb-1/tensorboard-output/"],
          "ended-out-1": [],
          "denied-1": ["tb-bucket/tb/denied-1/tensorboard-output/", "locked-bucket/ck/"],
          "region-1": ["ckpt-bucket/ckpt/region-1/", "eu-bucket/tb/region-1/tensorboard-output/"],
          "tbfb-1": ["tb-fb/tbfb-1-logs/"]}[job]
for n, p in enumerate(later, 2):
    lists = p["lists_by"]
    for pre in places:   # each trace place: one listing a refresh
        if lists.get(pre, 0) != 1:
            bad.append(f"pass {n}: {lists.get(pre, 0)} listings of {pre}")
    for k, v in lists.items():
        if k.count("/") == 1 and k.endswith("/"):
            bad.append(f"pass {n}: a whole bucket listed: {k}")
        if k not in places and not k.startswith("smtop-jobs/profiler/"):
            bad.append(f"pass {n}: {k} listed {v} times")
    if p["get_object"]:
        bad.append(f"pass {n}: {p['get_object']} objects read again though nothing changed")
per = ", ".join(f"{k}: {v}" for k, v in sorted(later[-1]["lists_by"].items())) or "none"
print(f"| {job} | {first['requests']} ({first['list']}, {first['get_object']}) | "
      f"{'/'.join(str(p['requests']) for p in later)} | {per} |")
for b in bad:
    print(f"FAIL: {job}: {b}")
sys.exit(1 if bad else 0)
PY
done

# the text report names the places and what they hold
"$SMTOP" report --job denied-1 "${E[@]}" >"$T/denied.txt" 2>/dev/null
grep -q '^places: *s3://locked-bucket/ck/ (checkpoint sync): 403 AccessDenied' "$T/denied.txt" &&
    grep -Eq '^ +s3://tb-bucket/tb/denied-1/tensorboard-output/ \(TensorBoard sync\): [0-9]+ objects' \
        "$T/denied.txt" || fail "the text report's places: $(head -4 "$T/denied.txt")"

# export --job: the traces of every place, as of the local folder
"$SMTOP" export --perfetto "$T/e.json" --job tb-only-1 "${E[@]}" 2>"$T/err" ||
    fail "export --job tb-only-1: $(cat "$T/err")"
"$SMTOP" export --perfetto "$T/e.local.json" "$JS_DATA/tb-only-1" 2>/dev/null
cmp -s "$T/e.json" "$T/e.local.json" || fail "export --job tb-only-1 differs from the local folder's"
grep -q 'PyTorch profiler traces' "$T/err" || fail "export --job tb-only-1 read no trace: $(cat "$T/err")"
# diff --job: the same job both sides, read from its places: no change
"$SMTOP" diff --json --job ended-out-1 --job ended-out-1 "${E[@]}" >"$T/d.json" 2>"$T/err" ||
    fail "diff --job ended-out-1: $(cat "$T/err")"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if "output.tar.gz" in d["base"] and d["gpu"] else "FAIL: diff --job: no GPU rows from output.tar.gz")' \
    "$T/d.json" || fails=$((fails + 1))

[ "$(aws_rejects)" -eq 0 ] || fail "the API refused $(aws_rejects) requests"
[ $fails -eq 0 ] && echo "ok: every job read from its places; denied and other-region places named"
it_done
