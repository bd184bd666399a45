#!/usr/bin/env python3
"""Checks that PyTorch profiler (Kineto) traces hold what `smtop synth
--kineto` claims, with Python's own json module (as HTA and TensorBoard
load them).

usage: check_kineto_trace.py DIR FORM WORLD [--python] [--host-bound] [--gpus N]

Every *.pt.trace.json[.gz] under DIR must parse and have: the top-level
keys of FORM in order (modern: base before traceEvents, 2024: after it,
legacy: none, integer ts); distributedInfo {backend, rank, world_size}
when WORLD > 1 (ranks 0..WORLD-1 each present); ProfilerStep#N
annotations; every kernel/memcpy/memset tied to one launch call by
`correlation` with an ac2g flow pair; NCCL kernels with their collective
args when WORLD > 1 (not in legacy); [memory] instants with Total
Allocated/Reserved; python_function events only with --python; GPU busy
share of the steps high by default and low with --host-bound.
Prints one line per problem and exits 1 if any."""
import gzip
import json
import os
import re
import sys

problems = []


def bad(msg):
    problems.append(msg)
    print("FAIL:", msg)


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        text = f.read()
    return text, json.loads(text)


def union_len(iv):
    total, end = 0, None
    for s, e in sorted(iv):
        if end is None or s > end:
            total += e - s
            end = e
        elif e > end:
            total += e - end
            end = e
    return total


busy_all = []


def check_file(path, form, world, want_py, host_bound, gpus, seen_ranks):
    text, d = load(path)
    name = os.path.basename(path)
    m = re.match(r"^algo-(\d+)_(\d+)\.(\d+)\.pt\.trace\.json(\.gz)?$", name)
    if not m:
        bad(f"{name}: not <worker>.<time>.pt.trace.json[.gz]")
        return
    digits = len(m.group(3))
    if form == "legacy" and digits != 13:
        bad(f"{name}: legacy names carry epoch ms (13 digits), not {digits}")
    if form != "legacy" and digits != 19:
        bad(f"{name}: names carry epoch ns (19 digits), not {digits}")
    keys = list(d.keys())
    ti = keys.index("traceEvents")
    if keys[0] != "schemaVersion" or "deviceProperties" not in keys[:ti]:
        bad(f"{name}: key order {keys}")
    if form == "modern" and not ("baseTimeNanoseconds" in keys[:ti]):
        bad(f"{name}: modern form wants baseTimeNanoseconds before traceEvents: {keys}")
    if form == "2024" and not ("baseTimeNanoseconds" in keys[ti:]):
        bad(f"{name}: 2024 form wants baseTimeNanoseconds after traceEvents: {keys}")
    if form == "legacy" and "baseTimeNanoseconds" in keys:
        bad(f"{name}: legacy form has no baseTimeNanoseconds")
    if len(d["deviceProperties"]) != gpus or any(
            "totalGlobalMem" not in p for p in d["deviceProperties"]):
        bad(f"{name}: deviceProperties: {len(d['deviceProperties'])} GPUs, want {gpus}")
    di = d.get("distributedInfo")
    if world > 1:
        if not di or set(["backend", "rank", "world_size"]) - set(di):
            bad(f"{name}: distributedInfo missing or incomplete: {di}")
        else:
            seen_ranks.add(di["rank"])
            if di["world_size"] != world:
                bad(f"{name}: world_size {di['world_size']}, want {world}")
    elif di:
        bad(f"{name}: distributedInfo in a one-process job")
    ev = d["traceEvents"]
    if ev[-1].get("name") != "Record Window End":
        bad(f"{name}: last event is not Record Window End")
    legacy = form == "legacy"
    if form != "legacy" and not re.search(r'"ts": \d+\.\d{3}', text):
        bad(f"{name}: ts without 3 decimals")
    xs = [e for e in ev if e.get("ph") == "X"]
    if legacy and any(isinstance(e["ts"], float) for e in xs):
        bad(f"{name}: legacy ts must be integers")
    cat = {k: v for k, v in zip(
        ["cpu", "rt", "kernel", "memcpy", "memset"],
        (["Operator", "Runtime", "Kernel", "Memcpy", "Memset"] if legacy else
         ["cpu_op", "cuda_runtime", "kernel", "gpu_memcpy", "gpu_memset"]))}
    steps = [e for e in xs if e["name"].startswith("ProfilerStep#")]
    if not steps:
        bad(f"{name}: no ProfilerStep#N")
    if not any(e["cat"] == cat["cpu"] for e in xs):
        bad(f"{name}: no {cat['cpu']} events")
    gpu_ev = [e for e in xs if e["cat"] in (cat["kernel"], cat["memcpy"], cat["memset"])]
    launches = {e["args"]["correlation"]: e for e in xs
                if e["cat"] == cat["rt"] and "correlation" in e.get("args", {})
                and e["name"] != "cudaStreamSynchronize"}
    flows = {}
    for e in ev:
        if e.get("ph") in ("s", "f"):
            flows.setdefault(e["id"], set()).add(e["ph"])
    if gpus == 0 and gpu_ev:
        bad(f"{name}: GPU events in a CPU-only trace")
    if gpus and not gpu_ev:
        bad(f"{name}: no GPU events")
    for g in gpu_ev:
        c = g["args"]["correlation"]
        if c not in launches:
            bad(f"{name}: {g['name'][:40]} correlation {c} has no launch call")
            break
        if flows.get(c) != {"s", "f"}:
            bad(f"{name}: correlation {c} lacks an s/f flow pair")
            break
        if g["ts"] < launches[c]["ts"]:
            bad(f"{name}: GPU activity {c} starts before its launch")
            break
        if g["cat"] != cat["kernel"] and "bytes" not in g["args"]:
            bad(f"{name}: memcpy/memset without bytes")
            break
    nccl = [g for g in gpu_ev if g["name"].startswith("nccl")]
    if world > 1 and gpus:
        if not nccl:
            bad(f"{name}: no NCCL kernels with {world} ranks")
        elif not legacy:
            a = nccl[0]["args"]
            need = ["Collective name", "In msg nelems", "Group size", "dtype",
                    "Process Group Ranks"]
            if any(k not in a for k in need) or not isinstance(a["Process Group Ranks"], str):
                bad(f"{name}: NCCL args incomplete: {sorted(a)}")
    mem = [e for e in ev if e.get("name") == "[memory]"]
    if gpus and (not mem or any("Total Allocated" not in e["args"] or
                                "Total Reserved" not in e["args"] for e in mem)):
        bad(f"{name}: no [memory] instants with Total Allocated/Reserved")
    py = [e for e in xs if e["cat"] == "python_function"]
    if bool(py) != want_py:
        bad(f"{name}: python_function events {'missing' if want_py else 'present'}")
    if gpus:
        s0 = min(e["ts"] for e in steps)
        s1 = max(e["ts"] + e["dur"] for e in steps)
        busy_all.append(union_len([(g["ts"], g["ts"] + g["dur"]) for g in gpu_ev]) / (s1 - s0))
    return len(steps)


def main():
    a = sys.argv[1:]
    if len(a) < 3:
        print(__doc__)
        return 2
    root, form, world = a[0], a[1], int(a[2])
    gpus = int(a[a.index("--gpus") + 1]) if "--gpus" in a else 1
    files = []
    for dp, _, fs in os.walk(root):
        files += [os.path.join(dp, f) for f in fs
                  if f.endswith(".pt.trace.json") or f.endswith(".pt.trace.json.gz")]
    if not files:
        bad(f"no traces under {root}")
    ranks = set()
    nsteps = 0
    for p in sorted(files):
        nsteps += check_file(p, form, world, "--python" in a, "--host-bound" in a, gpus,
                             ranks) or 0
    if busy_all:
        # a cycle that caught a data stall (--outlier-rate) is mostly idle
        # either way: the median cycle says which side the job is on
        med = sorted(busy_all)[len(busy_all) // 2]
        print(f"GPU busy in steps: median {med:.0%}, min {min(busy_all):.0%}, "
              f"max {max(busy_all):.0%}")
        if "--host-bound" in a and med > 0.35:
            bad(f"host-bound: median GPU busy {med:.0%}, want mostly idle")
        if "--host-bound" not in a and med < 0.6:
            bad(f"GPU-bound: median GPU busy {med:.0%}, want mostly busy")
    if world > 1 and ranks != set(range(world)):
        bad(f"ranks seen {sorted(ranks)}, want 0..{world - 1}")
    print(f"{len(files)} traces, {nsteps} steps, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
