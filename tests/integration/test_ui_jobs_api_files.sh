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
# its printed precision, idle GPU-hours by 0.1) must be rejected.
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
ui_start 200 60 "${AWSENV[@]}" XDG_CACHE_HOME="$XDG_CACHE_HOME" "$SMTOP" jobs "${E[@]}"
ui_wait 'smtop jobs - SageMaker us-east-1 - [0-9]+ jobs' 30
for n in "${ROWS[@]}"; do ui_wait "^$n " 30; done
t1=$SECONDS
end=$((SECONDS + 60)) first=""
while :; do
    ui_screen >"$UI_WORK/screen"
    out=$(python3 "$PY" check "$UI_WORK/screen" "$UI_WORK/jobs.json" "$UI_WORK/rep" "${ROWS[@]}") &&
        break
    ((SECONDS < end)) || { cat "$UI_WORK/screen"; ui_fail "after $((SECONDS - t1)) s:"$'\n'"$out"; }
    [ -n "$first" ] || first=$out
    sleep 1
done
# while the rows fill (each job's files read in turn) they may differ:
# the first difference seen is said, not failed
[ -n "$first" ] && echo "note: before the rows filled:"$'\n'"$first"
echo "ok: the screen agrees after $((SECONDS - t1)) s:"
echo "$out"
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
for v in $WRONG; do
    d="$UI_WORK/wrong/$v"
    python3 "$PY" check "$UI_WORK/screen" "$d/jobs.json" "$d/rep" "${ROWS[@]}" >"$d/out" &&
        ui_fail "the screen passes against $v made wrong: $(cat "$d/out")"
    grep -q '^FAIL: .* screen ' "$d/out" ||
        ui_fail "$v made wrong is rejected for another reason: $(cat "$d/out")"
done
echo "ok: each of 9 wrong expectations rejected ($((SECONDS - t0)) s in all)"
