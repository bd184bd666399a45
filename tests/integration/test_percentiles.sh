#!/usr/bin/env bash
# Whole-series percentiles past the exact range, against numpy's definition
# computed here from the raw files: utilization (bounded 0..100) within 0.1
# point, other metrics and step times within 1 % relative; the JSON states
# each bound, the text report marks approximate figures with "~".
set -o pipefail
source "$(dirname "$0")/it_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
tmp=$T
# 1 node x 30 min at 500 ms: 3600 samples a series, past the 1024 exact ones
"$SMTOP" synth --out "$tmp/job" --nodes 1 --gpus 2 --cpus 4 --minutes 30 --seed 5 >/dev/null || fail_now synth
# and a GPU pinned at 100 % the whole time
python3 - "$tmp/job" <<'PY'
import glob, json, sys
for f in glob.glob(sys.argv[1] + "/system/incremental/*/*.json"):
    out = []
    for l in open(f):
        e = json.loads(l)
        if e["Type"] == "gpu" and e.get("Name") == "gpu1" and e["Dimension"] == "GPUUtilization":
            e["Value"] = 100.0
        out.append(json.dumps(e))
    open(f, "w").write("\n".join(out) + "\n")
PY
"$SMTOP" report --json "$tmp/job" >"$tmp/r.json" || fail_now "report"
"$SMTOP_SRC/tests/tools/schema_ok.sh" "$tmp/r.json" || fail_now "schema"
"$SMTOP" report "$tmp/job" >"$tmp/r.txt" || fail_now "text report"
python3 - "$tmp/job" "$tmp/r.json" <<'PY' || fail_now "percentiles off"
import glob, json, math, sys
def pct(xs, p):   # numpy.percentile, linear
    xs = sorted(xs); r = p / 100 * (len(xs) - 1); lo = math.floor(r); hi = math.ceil(r)
    return xs[lo] + (r - lo) * (xs[hi] - xs[lo])
vals = {}
for f in glob.glob(sys.argv[1] + "/system/incremental/*/*.json"):
    for l in open(f):
        e = json.loads(l)
        vals.setdefault((e["Type"], e["Dimension"], e.get("Name", "")), []).append(e["Value"])
rep = json.load(open(sys.argv[2]))
worst = {"bounded": 0, "other": 0}
checked = 0
for m in rep["nodes"][0]["metrics"]:
    xs = vals.get((m["type"], m["dimension"], m["name"]))
    if not xs or len(xs) <= 1024:
        continue
    assert not m["exact_percentiles"], m
    bounded = m["dimension"].endswith(("Utilization", "Percent"))
    assert (m["unit"] == "pct") == bounded, m
    b = m["percentile_error"]
    assert (b["abs_" + m["unit"]], b["rel"]) == ((0.05, 0.0) if bounded else (0.0, 0.01)), m
    for p in (50, 95, 99):
        want, got = pct(xs, p), m[f"p{p}_" + m["unit"]]
        err = abs(got - want)
        if bounded:
            assert err <= 0.1, (m["dimension"], m["name"], p, got, want)
            worst["bounded"] = max(worst["bounded"], err)
        else:
            assert err <= 0.01 * abs(want) + 1e-9, (m["dimension"], m["name"], p, got, want)
            worst["other"] = max(worst["other"], err / abs(want) if want else 0)
    checked += 1
pinned = [m for m in rep["nodes"][0]["metrics"]
          if m["name"] == "gpu1" and m["dimension"] == "GPUUtilization"][0]
assert pinned["p95_pct"] == 100.0 and pinned["p99_pct"] == 100.0 and pinned["p50_pct"] == 100.0, pinned
assert checked >= 8, checked
print(f"{checked} series: worst utilization error {worst['bounded']:.3f} points, "
      f"worst other {100 * worst['other']:.3f} %")
PY
grep -Eq '^  gpu +GPUUtilization +gpu1 +% +[0-9]+ +100\.00 +100\.00 +~100\.00 +~100\.00 +100\.00$' "$tmp/r.txt" ||
    fail_now "text report: pinned GPU not ~100.00: $(grep gpu1 "$tmp/r.txt")"
grep -q "^~ past 1024 samples: utilization within 0.05 points" "$tmp/r.txt" || fail_now "no ~ legend"

# Step times past the exact range: two ranks on a node, 15 min of 120 ms
# steps, so each writer's row holds ~7,000 TRAIN steps (past the 4,096 a
# writer keeps exactly); within 1 % relative of numpy's percentile of the
# durations in the files, the bound stated, "~" in the text.
"$SMTOP" synth --out "$tmp/ranks" --nodes 1 --ranks 2 --minutes 15 --seed 5 >/dev/null ||
    fail_now "synth ranks"
"$SMTOP" report --json "$tmp/ranks" >"$tmp/rk.json" || fail_now "report ranks"
"$SMTOP" report "$tmp/ranks" >"$tmp/rk.txt" || fail_now "text report ranks"
python3 "$SMTOP_SRC/tests/tools/ref_report.py" "$tmp/ranks" >"$tmp/rk.ref" || fail_now "ref_report"
python3 - "$tmp/rk.json" "$tmp/rk.ref" <<'PY2' || fail_now "step percentiles off"
import json, sys
rep, ref = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))["process_steps"]
checked, worst = 0, 0.0
for s in rep["steps"]:
    want = ref.get("%s|%s" % (s["process"], s["phase"])) if s["process"] else None
    if not want or want["count"] <= 4096:
        continue
    assert s["count"] == want["count"], (s, want)
    assert not s["exact_percentiles"], s
    assert s["percentile_error"] == {"abs_us": 0.0, "rel": 0.01}, s
    for p in ("p50_us", "p95_us", "p99_us"):
        err = abs(s[p] - want[p]) / want[p]
        assert err <= 0.01, (s["process"], s["phase"], p, s[p], want[p])
        worst = max(worst, err)
    checked += 1
assert checked >= 2, checked          # both ranks' TRAIN rows at least
print(f"{checked} step rows past the exact range: worst error {100 * worst:.3f} %")
PY2
grep -Eq '^algo-1 +[0-9]+-algo-1 +Step:ModeKeys.TRAIN +[0-9]+ +[0-9.]+ ms +~[0-9.]+ ms +~[0-9.]+ ms +~[0-9.]+ ms' "$tmp/rk.txt" ||
    fail_now "text report: a rank's TRAIN row not marked ~: $(grep TRAIN "$tmp/rk.txt")"
grep -q "^~ step times past" "$tmp/rk.txt" || fail_now "no ~ legend under the steps"
echo "OK"
