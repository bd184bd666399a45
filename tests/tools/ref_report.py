#!/usr/bin/env python3
"""An independent reading of a profiler-output tree in plain Python, used to
check `smtop report --json` against numbers nobody computed in C.

Prints JSON: {"metrics": {"node|type|dim|name": {count,min,max,mean,p50,p95}},
"cpu_total": {node: {count, mean}}, "steps": {"node|phase": {count, mean_us,
min_us, max_us, p50_us, p95_us, p99_us}}, "process_steps": {"writer|phase":
{...the same}}}. A trace file's writer is the part of its name between the
end time and the kind ("1-algo-1"); its node is the host in it. Percentiles
use linear interpolation between closest ranks (numpy's default)."""
import json
import os
import sys
from collections import defaultdict

from trace_names import node_of, split_trace_name


def pct(values, p):
    v = sorted(values)
    if not v:
        return None
    rank = p / 100.0 * (len(v) - 1)
    lo = int(rank)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (rank - lo)


def summary(values):
    return {"count": len(values), "min": min(values), "max": max(values),
            "mean": sum(values) / len(values), "p50": pct(values, 50),
            "p95": pct(values, 95), "p99": pct(values, 99)}


def writer_of(fname):
    parts = split_trace_name(fname)
    return parts[1] if parts else None


def read_system(root, metrics, cpu_groups):
    for dirpath, _, files in os.walk(os.path.join(root, "system")):
        for f in files:
            if not f.endswith(".json"):
                continue
            for line in open(os.path.join(dirpath, f), encoding="utf-8"):
                line = line.strip()
                if not line:
                    continue
                try:
                    r = json.loads(line)
                except ValueError:
                    continue
                key = "|".join([r["NodeId"], r["Type"], r["Dimension"], r.get("Name", "")])
                metrics[key].append(float(r["Value"]))
                if r["Type"] == "cpu" and r["Dimension"] == "CPUUtilization":
                    ts = round(float(r["Timestamp"]) * 1e6)
                    cpu_groups[(r["NodeId"], ts)].append(float(r["Value"]))


def read_traces(root, steps, psteps):
    for dirpath, _, files in os.walk(os.path.join(root, "framework")):
        for f in files:
            writer = writer_of(f)
            if not writer:
                continue
            node = node_of(writer)
            events = json.load(open(os.path.join(dirpath, f), encoding="utf-8"))
            names = {}
            for e in events:
                if e.get("ph") == "M" and e.get("name") == "process_name":
                    if "name" in e.get("args", {}):
                        names[e["pid"]] = e["args"]["name"]
            for e in events:
                phase = names.get(e.get("pid"), "")
                if e.get("ph") == "X" and phase.startswith("Step:"):
                    steps[node + "|" + phase].append(int(e["dur"]))
                    psteps[writer + "|" + phase].append(int(e["dur"]))


def main():
    root = sys.argv[1]
    metrics, cpu_groups, steps = defaultdict(list), defaultdict(list), defaultdict(list)
    psteps = defaultdict(list)
    read_system(root, metrics, cpu_groups)
    read_traces(root, steps, psteps)
    totals = defaultdict(list)
    for (node, _), vals in sorted(cpu_groups.items()):
        totals[node].append(sum(vals) / len(vals))
    out = {"metrics": {k: summary(v) for k, v in metrics.items()},
           "cpu_total": {n: {"count": len(v), "mean": sum(v) / len(v)} for n, v in totals.items()},
           "steps": {}, "process_steps": {}}
    for key, src in (("steps", steps), ("process_steps", psteps)):
        for k, v in src.items():
            s = summary(v)
            out[key][k] = {"count": s["count"], "mean_us": s["mean"], "min_us": s["min"],
                           "max_us": s["max"], "p50_us": s["p50"], "p95_us": s["p95"],
                           "p99_us": s["p99"]}
    json.dump(out, sys.stdout, indent=1)


main()
