#!/usr/bin/env bash
# Ranks: a node trained by several processes has one trace writer per rank
# (R-algo-N). On a synthetic 2-node job with 4 ranks each and a slow rank 2
# on algo-1, `smtop report --json` keeps every writer under its node — its
# own step rows ("process": "2-algo-1") beside the node's pooled rows
# ("process": null) — and every number agrees with an independent Python
# reading of the trace files (tests/tools/ref_report.py); the Straggler rule
# names the slow rank and StepOutlier judges each rank on its own steps;
# the text report shows each rank's rows; export gives each rank its own
# lanes with the same step counts.
set -eo pipefail
source "$(dirname "$0")/it_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
tmp=$T
tools="$SMTOP_SRC/tests/tools"

job="$tmp/job"
"$SMTOP" synth --out "$job" --nodes 2 --ranks 4 --slow-rank 2 --minutes 3 --seed 3 \
    >/dev/null || die synth
"$SMTOP" report --json "$job" > "$tmp/r.json" || die "report --json"
"$SMTOP_SRC/tests/tools/schema_ok.sh" "$tmp/r.json" || die "schema"
python3 "$tools/ref_report.py" "$job" > "$tmp/ref.json"
python3 "$tools/compare_report.py" "$tmp/r.json" "$tmp/ref.json" || die "report vs python"

python3 - "$tmp/r.json" <<'PY' || die "report content"
import json, statistics, sys
r = json.load(open(sys.argv[1]))
TR = "Step:ModeKeys.TRAIN"
rows = [s for s in r["steps"] if s["phase"] == TR]
for node in ("algo-1", "algo-2"):
    pooled = [s for s in rows if s["node"] == node and s["process"] is None]
    ranks = [s for s in rows if s["node"] == node and s["process"] is not None]
    assert len(pooled) == 1, pooled
    assert [s["process"] for s in ranks] == ["%d-%s" % (k, node) for k in range(4)], ranks
    # the node pools its ranks: counts add up, min/max are theirs
    assert pooled[0]["count"] == sum(s["count"] for s in ranks), (pooled, ranks)
    assert pooled[0]["max_us"] == max(s["max_us"] for s in ranks)
    assert pooled[0]["min_us"] == min(s["min_us"] for s in ranks)
p50 = {s["process"]: s["p50_us"] for s in rows if s["process"]}
others = [v for k, v in p50.items() if k != "2-algo-1"]
assert p50["2-algo-1"] > 1.2 * statistics.median(others), p50   # the slow rank stays visible
rules = {x["name"]: x for x in r["rules"]}
st = rules["Straggler"]
assert st["status"] == "triggered", st
assert st["details"]["node"] == "2-algo-1", st["details"]
assert st["violations"] == 1, st
# StepOutlier looks at each rank's own steps (phases past 100 steps): its
# datapoints are the ranks' retained steps (a rank among several keeps its
# newest 1,024: model/steps/phase_stats.h), not the nodes' pooled ones.
so = rules["StepOutlier"]
assert so["datapoints"] == sum(min(s["count"], 1024) for s in r["steps"]
                               if s["process"] and s["kind"] == "step" and s["count"] > 100), so
assert all(e["node"] in p50 for e in so["details"]["examples"]), so["details"]
print("ranks report ok:", {k: round(v / 1000, 1) for k, v in sorted(p50.items())})
PY

# Text: a node's pooled rows say "all 4", then each rank's rows follow.
"$SMTOP" report "$job" > "$tmp/r.txt" || die "report text"
grep -Eq '^algo-1 +all 4 +Step:ModeKeys.TRAIN ' "$tmp/r.txt" || die "no pooled row: $(cat "$tmp/r.txt")"
for k in 0 1 2 3; do
    grep -Eq "^algo-2 +$k-algo-2 +Step:ModeKeys.TRAIN " "$tmp/r.txt" || die "no row for $k-algo-2"
done
grep -Eq 'Straggler +triggered .*2-algo-1' "$tmp/r.txt" || die "text report misses the straggler"

# Export: one lane per rank and phase, with the report's step counts.
"$SMTOP" export --perfetto "$tmp/x.json" "$job" 2>/dev/null || die export
python3 - "$tmp/x.json" "$tmp/r.json" <<'PY' || die "export lanes"
import collections, json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
r = json.load(open(sys.argv[2]))
threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev
           if e["ph"] == "M" and e["name"] == "thread_name"}
n = collections.Counter(threads[(e["pid"], e["tid"])] for e in ev if e["ph"] == "X")
for s in r["steps"]:
    if s["process"] and s["kind"] == "step":   # lanes are named by phase, report rows by label
        lane = s["process"] + " " + s["phase"]
        assert n[lane] == s["count"], (lane, n[lane], s["count"])
assert not any(t == "Step:ModeKeys.TRAIN" for t in threads.values()), "ranks share a lane"
print("export lanes ok:", len(threads), "threads")
PY
echo "ranks ok"
