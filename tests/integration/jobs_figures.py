"""The utilization figures `smtop jobs` shows for a job folder, computed
here from the files with the definitions jobs.schema.json states,
independently of smtop's C (its other figures, step p50, alerts, the
time range, are `smtop report --json`'s summary: the tests compare the
two surfaces):

  gpu/cpu/mem %  mean of every GPUUtilization / MemoryUsedPercent sample,
                 and of each node's CPU total (the mean over its cores at
                 each timestamp), in the newest 5 whole minutes (the
                 newest sample's minute and the 4 before it);
  idle GPU-hours every GPU sample below 10 % counts its series' interval
                 (median of its first 15 gaps, snapped to SageMaker's
                 100 ms .. 60 s).

usage: jobs_figures.py JOB_DIR  -> prints a JSON object of the figures."""
import json
import math
import os
import sys

ALLOWED = [100000, 200000, 500000, 1000000, 5000000, 60000000]


def files(root, sub):
    out = []
    base = os.path.join(root, sub)
    for d, _, fs in os.walk(base):
        for f in fs:
            out.append(os.path.relpath(os.path.join(d, f), base))
    return [os.path.join(base, f) for f in sorted(out, key=lambda s: s.encode())]


def snap(med):
    if med < ALLOWED[0] * 0.75:
        return med
    return min(ALLOWED, key=lambda a: abs(math.log(med / a)))


def system(po):
    samples = []
    for f in files(po, "system/incremental"):
        for line in open(f):
            line = line.strip()
            if line:
                samples.append(json.loads(line))
    if not samples:
        return None, None, None, None
    ts = lambda s: round(s["Timestamp"] * 1e6)
    newest = max(ts(s) for s in samples) // 60_000_000
    figs = {"GPUUtilization": [], "CPUUtilization": [], "MemoryUsedPercent": []}
    series, cpu = {}, {}
    for s in samples:
        dim = s["Dimension"]
        if dim == "GPUUtilization" and s["Type"] == "gpu":
            g = series.setdefault((s["NodeId"], s.get("Name", "")), {"last": None, "gaps": [], "idle": 0})
            t = ts(s)
            if g["last"] is not None and t > g["last"] and len(g["gaps"]) < 15:
                g["gaps"].append(t - g["last"])
            g["last"] = t if g["last"] is None else max(g["last"], t)
            g["idle"] += s["Value"] < 10.0
        elif dim == "CPUUtilization" and s["Type"] == "cpu":
            if newest - 5 < ts(s) // 60_000_000 <= newest:
                cpu.setdefault((s["NodeId"], ts(s)), []).append(s["Value"])
            continue
        elif dim != "MemoryUsedPercent":
            continue
        if newest - 5 < ts(s) // 60_000_000 <= newest:
            figs[dim].append(s["Value"])
    mean = lambda v: sum(v) / len(v) if v else None
    idle = None
    if series:
        idle = sum(g["idle"] * (snap(sorted(g["gaps"])[len(g["gaps"]) // 2]) if g["gaps"] else 0)
                   for g in series.values()) / 3600e6
    # a node's CPU: the mean over its cores at each timestamp (its total)
    figs["CPUUtilization"] = [mean(v) for v in cpu.values()]
    return (mean(figs["GPUUtilization"]), mean(figs["CPUUtilization"]),
            mean(figs["MemoryUsedPercent"]), idle)


def main():
    job = sys.argv[1]
    po = os.path.join(job, "profiler-output")
    gpu, cpu, mem, idle = system(po) if os.path.isdir(po) else (None,) * 4
    print(json.dumps({"gpu_pct": gpu, "cpu_pct": cpu, "mem_pct": mem, "idle_gpu_hours": idle}))


main()
