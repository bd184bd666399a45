#!/usr/bin/env bash
# `smtop jobs --json DIR` for jobs of PyTorch profiler traces only
# (traces_jobs.sh): a trace per profiling cycle minutes apart is a job
# training, not a stale one; staleness is judged against the cadence of
# each rank's traces; one cycle seen says its age ("trace 7 m ago");
# training_job_end.ts says Completed; the faults view holds the stalled
# job alone.
: "${SMTOP:?}" "${SMTOP_SRC:?}"
source "$(dirname "$0")/it_lib.sh"
set -o pipefail
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
. "$SMTOP_SRC/tests/integration/traces_jobs.sh"
traces_jobs "$T/jobs" || exit 1
"$SMTOP" jobs --json "$T/jobs" >"$T/all.json" 2>"$T/err" || { echo "FAIL: jobs --json: $(cat "$T/err")"; exit 1; }
"$SMTOP" jobs --json --faults "$T/jobs" >"$T/faults.json" || { echo "FAIL: --faults"; exit 1; }
python3 - "$T/all.json" "$T/faults.json" <<'PY'
import json, sys
got = {j["name"]: (j["status"], j["secondary_status"]) for j in json.load(open(sys.argv[1]))["jobs"]}
want = {"cadence": ("InProgress", "Training"), "copied": ("InProgress", "Training"), "stalled": ("InProgress", "Stale"),
        "once": ("InProgress", "trace 7 m ago"), "ended": ("Completed", "end marker"),
        "ended_po": ("Completed", "end marker"), "old": (None, "trace 3 h ago")}
bad = {n: (got.get(n), w) for n, w in want.items() if got.get(n) != w}
if bad or len(got) != len(want):
    sys.exit(f"FAIL: (got, want): {bad or got}")
faults = [j["name"] for j in json.load(open(sys.argv[2]))["jobs"]]
if faults != ["stalled"]:
    sys.exit(f"FAIL: the faults view holds {faults}, want ['stalled']")
print("ok: " + ", ".join(f"{n}: {s or '-'} / {t}" for n, (s, t) in sorted(got.items())))
PY
