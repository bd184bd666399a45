#!/bin/bash
# One truth on every surface (issue 33) on the job list screen for the
# SageMaker API jobs whose figures come from their own files in S3 (the
# job set of it_jobs_api_files, jobs_api_files_lib.sh: A with Debugger
# metrics and smdebug events, B with PyTorch profiler traces only, C with
# a path and no data), against the local API (tests/aws) and s3rver
# (tests/s3): `smtop jobs` in tmux at 200x60, and for every row whose
# figures come from its files, its GPU%/CPU%/MEM%, STEP, ALRT and
# IDLE-GPU-H cells, as printed, equal what the screen's format makes of
# `smtop jobs --json`'s figures and of `smtop report --json --job NAME`'s
# summary (ui_jobs_files.py). The rows fill as the list reads each job's
# files, so the screen is read again until it agrees or a deadline
# passes; then both values are printed. The same screen against a list
# and a report made wrong on purpose (one figure moved by one unit of
# its printed precision, idle GPU-hours by 0.1) must be rejected. Then
# the list again at 80x24, where it drops columns: the cells it keeps
# (GPU%, ALRT) must agree and reject the wrong expectations too; and a
# minute of that live list's S3 listings is counted (below).
source "$(dirname "$0")/ui_api_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
PY="$SMTOP_SRC/tests/integration/ui_jobs_files.py"
t0=$SECONDS
ui_api_start --s3
. "$SMTOP_SRC/tests/integration/jobs_api_files_lib.sh"
jaf_jobs "$UI_WORK/list.json" "$UI_WORK/data" || exit 1
E=(--endpoint-url "$RIG_ENDPOINT")
"$SMTOP" jobs --json "${E[@]}" >"$UI_WORK/jobs.json" 2>"$UI_WORK/err" ||
    ui_fail "jobs --json: $(cat "$UI_WORK/err")"
mapfile -t ROWS < <(python3 "$PY" rows "$UI_WORK/jobs.json")
# the rows must be the ones the job set is about: a check of nothing proves nothing
printf '%s\n' "${ROWS[@]}" | grep -qx -- "$A" && printf '%s\n' "${ROWS[@]}" | grep -qx -- "$B" ||
    ui_fail "the rows with figures from their files are '${ROWS[*]}', not $A and $B"
python3 - "$UI_WORK/jobs.json" "$A" <<'EOF' || ui_fail "$A's utilization is not its files'"
import json, sys
r = next(j for j in json.load(open(sys.argv[1]))["jobs"] if j["name"] == sys.argv[2])
sys.exit(0 if r["metrics_source"] == "debugger" and r["idle_gpu_source"] == "debugger" else 1)
EOF
mkdir -p "$UI_WORK/rep"
for n in "${ROWS[@]}"; do
    "$SMTOP" report --json "${E[@]}" --job "$n" >"$UI_WORK/rep/$n.json" 2>"$UI_WORK/err" ||
        ui_fail "report --job $n: $(cat "$UI_WORK/err")"
done
echo "setup: ${ROWS[*]} ($((SECONDS - t0)) s)"

aws_envline
# agree MODE: reads the screen until every row's cells agree (MODE check:
# every column there; narrow: the ones the width keeps), 60 s at most;
# the last agreeing screen is left in $UI_WORK/screen
agree() {
    local mode=$1 t1=$SECONDS end=$((SECONDS + 60)) first="" out
    while :; do
        ui_screen >"$UI_WORK/screen"
        out=$(python3 "$PY" "$mode" "$UI_WORK/screen" "$UI_WORK/jobs.json" "$UI_WORK/rep" \
              "${ROWS[@]}") && break
        ((SECONDS < end)) || { cat "$UI_WORK/screen"; ui_fail "after $((SECONDS - t1)) s:"$'\n'"$out"; }
        [ -n "$first" ] || first=$out
        sleep 1
    done
    # while the rows fill (each job's files read in turn) they may differ:
    # the first difference seen is said, not failed
    [ -n "$first" ] && echo "note: before the rows filled:"$'\n'"$first"
    echo "ok ($mode): the screen agrees after $((SECONDS - t1)) s:"
    echo "$out"
}
ui_start 200 60 "${AWSENV[@]}" XDG_CACHE_HOME="$XDG_CACHE_HOME" "$SMTOP" jobs "${E[@]}"
ui_wait 'smtop jobs - SageMaker us-east-1 - [0-9]+ jobs' 30
for n in "${ROWS[@]}"; do ui_wait "^$n " 30; done
agree check
cp "$UI_WORK/screen" "$UI_WORK/screen-wide"
ui_quit

# 80x24: the rows keep their figures in the columns the width keeps. Then
# the S3 listings of a live list (issue 36: a refresh lists each folder of
# a job's places once, and never walks a bucket): over 65 s, which hold
# one of the list's reads of a running job's files (job_probe.c: once a
# minute), A (running) begins at most one listing of each folder a read,
# and B (ended, read once) is not listed again. A listing that skips a
# sub-folder listed on its own goes on past it with start-after: one
# listing of several requests (the rig's walks_by against lists_by). The
# filter keeps both rows on 24 lines.
filt=""
for n in "${ROWS[@]}"; do filt+="${filt:+|}^$n\$"; done
ui_start 80 24 "${AWSENV[@]}" XDG_CACHE_HOME="$XDG_CACHE_HOME" "$SMTOP" jobs "${E[@]}" \
    --interval 2 --filter "$filt"
for n in "${ROWS[@]}"; do ui_wait "^$n " 30; done
agree narrow
cp "$UI_WORK/screen" "$UI_WORK/screen-narrow"
rig_recount >/dev/null
t2=$SECONDS
sleep 65
stats=$(rig_recount)
took=$((SECONDS - t2))
ui_screen | grep -q "^$A " || ui_fail "the list went away while it was counted"
cat >"$UI_WORK/lists.py" <<'EOF'
import json, sys
s, took, a, b = json.loads(sys.argv[1]), int(sys.argv[2]), sys.argv[4], sys.argv[5]
jobs = {j["name"]: j for j in json.load(open(sys.argv[3]))["jobs"]}
lists, walks = s.get("lists_by", {}), s.get("walks_by", {})
reads = took // 60 + 1        # job_probe.c's REPROBE_S, one more for the edges
said = ", ".join(f"{k[len('smtop-jobs/profiler/'):] or '/'} {walks.get(k, 0)} ({v})"
                 for k, v in sorted(lists.items())) or "none"
print(f"listings begun (requests) in {took} s, {a} {jobs[a]['status']}, "
      f"{b} {jobs[b]['status']}: {said}; {sum(lists.values())} requests")
fails = []
if jobs[a]["status"] != "InProgress" or jobs[b]["status"] == "InProgress":
    fails.append("the fixture's A is not running, or its B is")
of_a = {k: v for k, v in walks.items() if f"/{a}/" in k}
if not of_a:
    fails.append(f"{a} (running) was not listed again: the count proves nothing")
fails += [f"{k} listed {v} times in {reads} reads" for k, v in of_a.items() if v > reads]
fails += [f"{k}: {b} ended and was read already" for k in lists if f"/{b}/" in k]
fails += [f"{k}: a walk of a bucket" for k in lists if "/" not in k.rstrip("/")]
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
EOF
python3 "$UI_WORK/lists.py" "$stats" "$took" "$UI_WORK/jobs.json" "$A" "$B" || ui_fail "listings"
# the same count with one of A's folders begun once more than its reads
# allow must fail
wrong=$(python3 -c '
import json, sys
s = json.loads(sys.argv[1])
k = next(k for k in s["walks_by"] if "/" + sys.argv[2] + "/" in k)
s["walks_by"][k] = int(sys.argv[3]) // 60 + 2
print(json.dumps(s))' "$stats" "$A" "$took")
python3 "$UI_WORK/lists.py" "$wrong" "$took" "$UI_WORK/jobs.json" "$A" "$B" >/dev/null &&
    ui_fail "a folder listed twice in a read passes the count"
ui_quit

# the same screen against a list and a report made wrong on purpose: each
# must be rejected, as a disagreement on the screen
WRONG="json-gpu json-cpu json-mem json-step json-alerts rep-gpu rep-step rep-alerts rep-idle"
python3 - "$UI_WORK" "$A" "$B" $WRONG <<'EOF' || ui_fail "cannot make the wrong expectations"
import json, shutil, sys
w, a, b = sys.argv[1:4]
for v in sys.argv[4:]:
    d = f"{w}/wrong/{v}"
    shutil.copytree(f"{w}/rep", f"{d}/rep")
    shutil.copy(f"{w}/jobs.json", f"{d}/jobs.json")
    side, fig = v.split("-")
    name = b if fig == "step" else a
    if side == "json":
        p = f"{d}/jobs.json"
        doc = json.load(open(p))
        o = next(j for j in doc["jobs"] if j["name"] == name)
        key = {"gpu": "gpu_pct", "cpu": "cpu_pct", "mem": "mem_pct", "step": "step_p50_ms",
               "alerts": "alerts"}[fig]
    else:
        p = f"{d}/rep/{name}.json"
        doc = json.load(open(p))
        o = doc["summary"]
        key = {"gpu": "gpu_pct", "step": "step_p50_us", "alerts": "alerts",
               "idle": "idle_gpu_hours"}[fig]
    if fig == "step":
        o[key] *= 1.1      # STEP prints 3 significant digits
    elif fig == "idle":
        o[key] += 0.1      # printed at 0.1
    else:
        o[key] += 1        # "%.0f", a count
    json.dump(doc, open(p, "w"))
EOF
# rejects MODE SCREEN WRONG...: the screen must fail against each wrong
# expectation, as a disagreement on the screen
rejects() {
    local mode=$1 screen=$2 v d
    shift 2
    for v in "$@"; do
        d="$UI_WORK/wrong/$v"
        python3 "$PY" "$mode" "$screen" "$d/jobs.json" "$d/rep" "${ROWS[@]}" >"$d/out" &&
            ui_fail "the $mode screen passes against $v made wrong: $(cat "$d/out")"
        grep -q '^FAIL: .* screen ' "$d/out" ||
            ui_fail "$v made wrong is rejected ($mode) for another reason: $(cat "$d/out")"
    done
}
rejects check "$UI_WORK/screen-wide" $WRONG
# at 80x24 those of its columns the width keeps (GPU%, ALRT) must reject them too
rejects narrow "$UI_WORK/screen-narrow" json-gpu json-alerts rep-gpu rep-alerts
echo "ok: each of 9 wrong expectations rejected, 4 of them at 80x24 ($((SECONDS - t0)) s in all)"
