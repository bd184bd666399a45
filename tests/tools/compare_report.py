#!/usr/bin/env python3
"""Compares `smtop report --json` (argv[1]) with ref_report.py output
(argv[2]); exits 1 listing every mismatch. Node-level step rows
("process": null) are compared with the reference's steps per node, and
process rows with its steps per writer. Optional argv[3..]: expected
"node|phase=count" (or "writer|phase=count") step counts that must be
present."""
import json
import math
import sys

smtop = json.load(open(sys.argv[1]))
ref = json.load(open(sys.argv[2]))
bad = []


def close(a, b, rel=1e-9):
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(float(a), float(b), rel_tol=rel, abs_tol=1e-9)


got_metrics = {}
for node in smtop["nodes"]:
    for m in node["metrics"]:
        got_metrics["|".join([node["id"], m["type"], m["dimension"], m["name"]])] = m
for key, want in ref["metrics"].items():
    got = got_metrics.get(key)
    if got is None:
        bad.append("missing metric " + key)
        continue
    for f in ("count", "min", "max", "mean", "p50", "p95"):
        g = got[f if f == "count" else f + "_" + got["unit"]]   # "p50_pct": schema 3
        if not close(g, want[f]):
            bad.append("%s %s: smtop %r, python %r" % (key, f, g, want[f]))
for node, want in ref["cpu_total"].items():
    got = got_metrics.get(node + "|cpu|CPUUtilization|total")
    if got is None or got["count"] != want["count"] or not close(got["mean_pct"], want["mean"]):
        bad.append("cpu total of %s: smtop %r, python %r" % (node, got, want))
got_steps = {s["node"] + "|" + s["phase"]: s for s in smtop["steps"] if s["process"] is None}
got_psteps = {s["process"] + "|" + s["phase"]: s for s in smtop["steps"]
              if s["process"] is not None}
for refkey, got_rows in (("steps", got_steps), ("process_steps", got_psteps)):
    for key, want in ref[refkey].items():
        got = got_rows.get(key)
        if got is None:
            bad.append("missing %s %s" % (refkey, key))
            continue
        # Past the exact range (4,096 durations a row) a row says so and
        # states its bound; hold its percentiles to that, at most 1 %.
        rel = 1e-9
        if not got.get("exact_percentiles", True):
            rel = got["percentile_error"]["rel"]
            if not 0 < rel <= 0.01:
                bad.append("%s: inexact percentiles with bound %r" % (key, rel))
        for f, v in want.items():
            if not close(got[f], v, rel if f in ("p50_us", "p95_us", "p99_us") else 1e-9):
                bad.append("%s %s: smtop %r, python %r" % (key, f, got[f], v))
for spec in sys.argv[3:]:
    key, count = spec.rsplit("=", 1)
    got = got_steps.get(key) or got_psteps.get(key) or {}
    if got.get("count") != int(count):
        bad.append("expected %s steps for %s, got %r" % (count, key, got or None))
for b in bad:
    print("MISMATCH", b)
n_checked = (len(ref["metrics"]) + len(ref["steps"]) + len(ref["process_steps"]) +
             len(ref["cpu_total"]))
print("compared %d series/phases: %d mismatches" % (n_checked, len(bad)))
sys.exit(1 if bad else 0)
