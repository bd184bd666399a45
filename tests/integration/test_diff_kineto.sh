#!/usr/bin/env bash
# `smtop diff` on PyTorch profiler (Kineto) jobs: steps, each rank's GPU
# time breakdown and the kernels added, removed, slower and faster (HTA's
# TraceDiff categories). Two synthetic jobs (the second host-bound: its
# GPUs idle more), a job against itself (no kernel row), and the HTA
# samples trace_diff_control vs trace_diff_test, whose kernel sets are
# recomputed here from the trace files with Python's json module. Issue
# 33: per rank (matched by rank, else the one rank a side) the kernel
# types and the mean step's split too; no row under the noise floor
# (0 -> 0, under 0.1 ms / 0.1 points, under 1 %), the rows left out
# counted; each job's own node names; kernel names whole, as in the trace.
source "$(dirname "$0")/it_lib.sh"
SRC=${SMTOP_SRC:-.}
SAMPLES=${SMTOP_SAMPLES:-}
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
schema() { "$SRC/tests/tools/schema_ok.sh" "$1" || fail "schema: $1"; }

"$SMTOP" synth --out "$T/a" --kineto --nodes 1 --gpus 2 --minutes 2 >/dev/null 2>&1 || fail "synth a"
"$SMTOP" synth --out "$T/b" --kineto --host-bound --nodes 1 --gpus 2 --minutes 2 \
    >/dev/null 2>&1 || fail "synth b"

"$SMTOP" diff --json "$T/a" "$T/a" >"$T/self.json" 2>"$T/err" || fail "self diff: $(cat "$T/err")"
schema "$T/self.json"
python3 - "$T/self.json" <<'PY' || fail "self diff"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["kernels"] == [], d["kernels"][:2]
assert d["gpu"] and all(r["change_pct"] in (0, None) for r in d["gpu"]), d["gpu"]
assert {r["metric"] for r in d["gpu"]} >= {"idle", "compute"}, d["gpu"]
assert d["steps"] and d["changed"] == 0, d["changed"]
PY

"$SMTOP" diff --json "$T/a" "$T/b" >"$T/ab.json" 2>"$T/err" || fail "a vs b: $(cat "$T/err")"
schema "$T/ab.json"
python3 - "$T/ab.json" <<'PY' || fail "a vs b"
import json, sys
d = json.load(open(sys.argv[1]))
idle = [r for r in d["gpu"] if r["metric"] == "idle"]
assert idle and all(r["target_pct"] > r["base_pct"] + 20 for r in idle), idle
# the TRAIN step rows (a mean moved by under 1 % is left out as noise)
steps = [r for r in d["steps"] if r["phase"] == "Step:ModeKeys.TRAIN"]
assert steps, d["steps"][:3]
assert d["gpu_kernel_types"] and d["gpu_steps"], "no per-rank kernel types or step split"
for r in d["kernels"]:
    assert r["kind"] in ("added", "removed", "slower", "faster"), r
    if r["kind"] == "slower":
        assert r["target_mean_us"] > r["base_mean_us"] * 1.05, r
    if r["kind"] == "faster":
        assert r["target_mean_us"] < r["base_mean_us"] * 0.95, r
print("synth: idle", [(r["base_pct"], r["target_pct"]) for r in idle],
      "kernels", {k: sum(r["kind"] == k for r in d["kernels"]) for k in ("added", "removed", "slower", "faster")})
PY
"$SMTOP" diff "$T/a" "$T/b" >"$T/ab.txt" 2>&1 || fail "a vs b text"
grep -q "GPU time by rank" "$T/ab.txt" || fail "text lacks the GPU section: $(head -c 600 "$T/ab.txt")"

if [ -n "$SAMPLES" ] && [ -d "$SAMPLES/kineto/trace_diff_control" ]; then
    S=$SAMPLES/kineto
    "$SMTOP" diff --json "$S/trace_diff_control" "$S/trace_diff_test" >"$T/hta.json" 2>"$T/err" ||
        fail "samples: $(cat "$T/err")"
    schema "$T/hta.json"
    python3 - "$T/hta.json" "$S/trace_diff_control"/*.json* "$S/trace_diff_test"/*.json* <<'PY' || fail "samples"
import collections, gzip, json, sys
d = json.load(open(sys.argv[1]))
def kernels(path):
    op = gzip.open if path.endswith(".gz") else open
    ev = json.load(op(path, "rt"))["traceEvents"]
    c, s = collections.Counter(), collections.Counter()
    for e in ev:
        if e.get("ph") == "X" and str(e.get("cat", "")).lower() in ("kernel", "gpu_memcpy", "gpu_memset"):
            c[e["name"]] += 1
    return c
a, b = kernels(sys.argv[2]), kernels(sys.argv[3])
kinds = collections.Counter(r["kind"] for r in d["kernels"])
want_added, want_removed = len(set(b) - set(a)), len(set(a) - set(b))
assert kinds["added"] == want_added and kinds["removed"] == want_removed, (kinds, want_added, want_removed)
assert kinds["slower"] and kinds["faster"], kinds
for r in d["kernels"]:
    if r["kind"] in ("slower", "faster"):
        assert abs(r["change_pct"] - (r["target_mean_us"] / r["base_mean_us"] - 1) * 100) < 0.01, r
steps = [r for r in d["steps"] if r["phase"] == "Step:ModeKeys.TRAIN"]
assert len(steps) == 4, d["steps"][:2]
assert [r["metric"] for r in d["gpu"]] == ["idle", "compute", "non_compute", "comm_comp_overlap"], d["gpu"]
assert d["gpu_kernel_types"] and d["gpu_steps"], (d["gpu_kernel_types"], d["gpu_steps"])
assert {r["category"] for r in d["gpu_steps"]} >= {"compute", "idle"}, d["gpu_steps"]
for r in d["gpu"] + d["gpu_kernel_types"] + d["gpu_steps"]:
    assert (r["process"], r["node"], r["target_process"], r["target_node"]) == \
        ("rank 3", "control", "rank 1", "test"), r
assert all((r["node"], r["target_node"]) == ("control", "test") for r in steps), steps
floor = {"us": 100.0, "pct": 0.1, "s": 0.0001}
for sec in ("steps", "utilization", "breakdown", "python", "gpu", "gpu_kernel_types", "gpu_steps"):
    for r in d[sec]:
        unit = next(k[5:] for k in r if k.startswith("base_"))
        vb, vt = r["base_" + unit], r["target_" + unit]
        assert vb == vt != 0 or (abs(vt - vb) >= floor[unit] and (vb == 0 or abs(vt - vb) / abs(vb) >= 0.01)), (sec, r)
assert d["noise_rows"] > 0, d["noise_rows"]
names = set(a) | set(b)
assert all(r["name"] in names for r in d["kernels"]), [r["name"] for r in d["kernels"] if r["name"] not in names][:2]
assert max(len(r["name"]) for r in d["kernels"]) > 60
print("samples:", dict(kinds), "step mean", [(r["base_us"], r["target_us"]) for r in steps if r["stat"] == "mean_us"])
PY
else
    echo "note: ../shared/samples not found: the trace_diff part is skipped"
fi

[ "$fails" = 0 ] && echo "PASS" || echo "$fails failure(s)"
it_done
