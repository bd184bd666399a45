#!/usr/bin/env python3
"""Compares `smtop report --json` (argv[1]) with ref_report.py output
(argv[2]); exits 1 listing every mismatch. Optional argv[3..]: expected
"node|phase=count" step counts that must be present."""
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
        if not close(got[f], want[f]):
            bad.append("%s %s: smtop %r, python %r" % (key, f, got[f], want[f]))
for node, want in ref["cpu_total"].items():
    got = got_metrics.get(node + "|cpu|CPUUtilization|total")
    if got is None or got["count"] != want["count"] or not close(got["mean"], want["mean"]):
        bad.append("cpu total of %s: smtop %r, python %r" % (node, got, want))
got_steps = {s["node"] + "|" + s["phase"]: s for s in smtop["steps"]}
for key, want in ref["steps"].items():
    got = got_steps.get(key)
    if got is None:
        bad.append("missing steps " + key)
        continue
    for f, v in want.items():
        if not close(got[f], v):
            bad.append("%s %s: smtop %r, python %r" % (key, f, got[f], v))
for spec in sys.argv[3:]:
    key, count = spec.rsplit("=", 1)
    if got_steps.get(key, {}).get("count") != int(count):
        bad.append("expected %s steps for %s, got %r" % (count, key, got_steps.get(key)))
for b in bad:
    print("MISMATCH", b)
n_checked = len(ref["metrics"]) + len(ref["steps"]) + len(ref["cpu_total"])
print("compared %d series/phases: %d mismatches" % (n_checked, len(bad)))
sys.exit(1 if bad else 0)
