"""The figures `smtop jobs` shows for a job folder, computed here from the
files with the definitions --help states, independently of smtop's C:

  gpu/cpu/mem %  mean of every GPUUtilization / CPUUtilization /
                 MemoryUsedPercent sample in the newest 5 whole minutes
                 (the newest sample's minute and the 4 before it);
  idle GPU-hours every GPU sample below 10 % counts its series' interval
                 (median of its first 15 gaps, snapped to SageMaker's
                 100 ms .. 60 s);
  step p50       median Step:ModeKeys.TRAIN duration of the steps that end
                 within 5 minutes of the newest step's end; without them,
                 the newest PyTorch profiler trace's ProfilerStep#N, its
                 highest step left out.

usage: jobs_figures.py JOB_DIR  -> prints a JSON object of the figures."""
import gzip
import json
import math
import os
import re
import statistics
import sys

WINDOW_US = 300_000_000
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
    series = {}
    for s in samples:
        dim = s["Dimension"]
        if dim == "GPUUtilization" and s["Type"] == "gpu":
            g = series.setdefault((s["NodeId"], s.get("Name", "")), {"last": None, "gaps": [], "idle": 0})
            t = ts(s)
            if g["last"] is not None and t > g["last"] and len(g["gaps"]) < 15:
                g["gaps"].append(t - g["last"])
            g["last"] = t if g["last"] is None else max(g["last"], t)
            g["idle"] += s["Value"] < 10.0
        elif not (dim == "CPUUtilization" and s["Type"] == "cpu") and dim != "MemoryUsedPercent":
            continue
        if newest - 5 < ts(s) // 60_000_000 <= newest:
            figs[dim].append(s["Value"])
    mean = lambda v: sum(v) / len(v) if v else None
    idle = None
    if series:
        idle = sum(g["idle"] * (snap(sorted(g["gaps"])[len(g["gaps"]) // 2]) if g["gaps"] else 0)
                   for g in series.values()) / 3600e6
    return (mean(figs["GPUUtilization"]), mean(figs["CPUUtilization"]),
            mean(figs["MemoryUsedPercent"]), idle)


def smdebug_steps(po):
    steps = []
    for f in files(po, "framework/pevents"):
        base, names = 0, {}
        for line in open(f):
            line = line.strip().rstrip(",")
            if line in ("[", "]", ""):
                continue
            e = json.loads(line)
            if e.get("ph") == "M" and e.get("name") == "process_name":
                if "start_time_since_epoch_in_micros" in e["args"]:
                    base = e["args"]["start_time_since_epoch_in_micros"]
                else:
                    names[e["pid"]] = e["args"].get("name")
            elif e.get("ph") == "X" and names.get(e["pid"]) == "Step:ModeKeys.TRAIN":
                steps.append((base + e["ts"] + e["dur"], e["dur"]))
    if not steps:
        return None
    newest = max(end for end, _ in steps)
    return statistics.median([d for end, d in steps if end > newest - WINDOW_US]) / 1000


def kineto_steps(job):
    best = None
    for d, _, fs in os.walk(job):
        rel = os.path.relpath(d, job)
        if rel.split(os.sep)[0] == "debug-output" or "/system" in "/" + rel.replace(os.sep, "/"):
            continue
        for f in fs:
            m = re.match(r"^.+\.(\d{13}|\d{19})\.pt\.trace\.json(\.gz)?$", f)
            if m:
                t = int(m.group(1)) * (1000 if len(m.group(1)) == 19 else 1000000)
                key = os.path.join(d, f)
                if best is None or (t, key.encode()) >= (best[0], best[1].encode()):
                    best = (t, key)
    if not best:
        return None
    op = gzip.open if best[1].endswith(".gz") else open
    ev = json.load(op(best[1], "rt"))["traceEvents"]
    st = [(int(e["name"][13:]), e["dur"]) for e in ev
          if e.get("ph") == "X" and e.get("cat") == "user_annotation" and
          re.fullmatch(r"ProfilerStep#\d+", e.get("name", ""))]
    if st:
        top = max(n for n, _ in st)
        st = [x for x in st if x[0] != top] if len(st) > 1 else []
    return statistics.median([d for _, d in st]) / 1000 if st else None


def main():
    job = sys.argv[1]
    po = os.path.join(job, "profiler-output")
    gpu, cpu, mem, idle = system(po) if os.path.isdir(po) else (None,) * 4
    p50, src = (smdebug_steps(po), "smdebug") if os.path.isdir(po) else (None, None)
    if p50 is None:
        p50, src = kineto_steps(job), "kineto"
    print(json.dumps({"gpu_pct": gpu, "cpu_pct": cpu, "mem_pct": mem, "idle_gpu_hours": idle,
                      "step_p50_ms": p50, "step_source": src if p50 is not None else None}))


main()
