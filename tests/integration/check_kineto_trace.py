#!/usr/bin/env python3
"""Checks that PyTorch profiler (Kineto) traces hold what `smtop synth
--kineto` claims, with Python's own json module (as HTA and TensorBoard
load them).

usage: check_kineto_trace.py DIR FORM WORLD [--python] [--host-bound] [--gpus N]
                             [--shape S]

Every *.pt.trace.json[.gz] under DIR must parse and have: the top-level
keys of FORM in order (modern: base before traceEvents, 2024: after it,
legacy: none, integer ts); distributedInfo {backend, rank, world_size}
when WORLD > 1 (ranks 0..WORLD-1 each present); ProfilerStep#N
annotations; every kernel/memcpy/memset tied to one launch call by
`correlation` with an ac2g flow pair; NCCL kernels with their collective
args when WORLD > 1 (not in legacy); [memory] instants with Total
Allocated/Reserved; python_function events only with --python; GPU busy
share of the steps high by default and low with --host-bound; each
cudaStreamSynchronize with its cuda_sync row (Stream Sync, same
correlation) and each step's GPU-side copy (gpu_user_annotation from its
first GPU row, same External id) except in the legacy form; cuBLASLt's
gemms launched by cuLaunchKernelEx (cuda_driver). --shape S checks what
makes the shape's cause (smtop synth --shape): gloo's all-reduce on its
own threads with pinned copies and both ranks on GPU 0, the main thread's
DataLoader with the dataset's frames, tiny kernels behind longer launches,
NCCL after the backward, reserved memory near the device's size.
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


def check_shape(name, d, shape, xs, steps, gpu_ev, launches):
    """The shape's cause, as the real writer shows it."""
    tids = {e["tid"] for e in steps}
    main_tid = next(iter(tids))
    span = sum(e["dur"] for e in steps)
    if shape == "gloo":
        di = d.get("distributedInfo") or {}
        if di.get("backend") != "gloo":
            bad(f"{name}: gloo shape with backend {di.get('backend')}")
        if any(g["pid"] != 0 for g in gpu_ev):
            bad(f"{name}: gloo shape: a GPU row off GPU 0")
        ar = [e for e in xs if e["name"] == "gloo:all_reduce" and e["cat"] == "user_annotation"]
        if len(ar) < 10 * len(steps) or len({e["tid"] for e in ar}) != 2 or \
                main_tid in {e["tid"] for e in ar}:
            bad(f"{name}: gloo:all_reduce: {len(ar)} on threads {sorted({e['tid'] for e in ar})}")
        names = {g["name"] for g in gpu_ev}
        if not {"Memcpy DtoH (Device -> Pinned)", "Memcpy HtoD (Pinned -> Device)"} <= names:
            bad(f"{name}: gloo shape without pinned gradient copies")
        cp = union_len([(g["ts"], g["ts"] + g["dur"]) for g in gpu_ev if "Pinned" in g["name"]])
        busy = union_len([(g["ts"], g["ts"] + g["dur"]) for g in gpu_ev])
        if not 0.25 <= cp / busy <= 0.6:
            bad(f"{name}: pinned copies {cp / busy:.0%} of the GPU's busy time, want 25-60 %")
    elif shape == "main-loader":
        if not re.match(r"^algo-\d+_main\.", name):
            bad(f"{name}: main-loader traces are named algo-N_main.*")
        ld = [e for e in xs if e["name"] ==
              "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"]
        if not ld or any(e["tid"] != main_tid for e in ld):
            bad(f"{name}: no _SingleProcessDataLoaderIter on the main thread")
        elif sum(e["dur"] for e in ld) < 0.4 * span:
            bad(f"{name}: data loading {sum(e['dur'] for e in ld) / span:.0%} of the steps")
        gi = [e for e in xs if e["name"] == "train.py(12): __getitem__"]
        if not gi or not all(any(l["ts"] <= g["ts"] and g["ts"] + g["dur"] <= l["ts"] + l["dur"]
                                 for l in ld) for g in gi):
            bad(f"{name}: __getitem__ frames missing or outside the DataLoader's __next__")
    elif shape == "launch-bound":
        ks = sorted(g["dur"] for g in gpu_ev if g["cat"] == "kernel")
        ls = sorted(launches[g["args"]["correlation"]]["dur"] for g in gpu_ev
                    if g["cat"] == "kernel")
        if len(ks) < 200 * len(steps) or ks[len(ks) // 2] >= ls[len(ls) // 2]:
            bad(f"{name}: launch-bound: {len(ks)} kernels, median {ks[len(ks) // 2]} us "
                f"against launches of {ls[len(ls) // 2]} us")
    elif shape == "nccl-exposed":
        nc = [g for g in gpu_ev if g["name"].startswith("nccl")]
        comp = [g for g in gpu_ev if g["cat"] == "kernel" and not g["name"].startswith("nccl")]
        both = union_len([(g["ts"], g["ts"] + g["dur"]) for g in nc]) + \
            union_len([(g["ts"], g["ts"] + g["dur"]) for g in comp]) - \
            union_len([(g["ts"], g["ts"] + g["dur"]) for g in nc + comp])
        comm = union_len([(g["ts"], g["ts"] + g["dur"]) for g in nc])
        if comm < 0.15 * span or both > 0.1 * comm:
            bad(f"{name}: NCCL {comm / span:.0%} of the steps, {both / max(comm, 1):.0%} "
                "overlapped: want exposed communication")
    elif shape == "memory-full":
        mem = [e for e in d["traceEvents"] if e.get("name") == "[memory]"]
        top = max(e["args"]["Total Reserved"] for e in mem)
        size = d["deviceProperties"][0]["totalGlobalMem"]
        if top < 0.9 * size:
            bad(f"{name}: reserved {top / size:.0%} of the device, want over 90 %")
        if not any("simt_sgemm" in g["name"] for g in gpu_ev):
            bad(f"{name}: memory-full shape without fp32 SIMT gemms")


def check_sync_and_copies(name, form, ev, xs, steps):
    """cudaStreamSynchronize's cuda_sync row and each step's GPU-side copy
    (not in the 2022 form)."""
    if form == "legacy":
        return
    rows = {e["args"]["correlation"] for e in xs if e["cat"] == "cuda_sync"}
    syncs = [e for e in xs if e["name"] == "cudaStreamSynchronize"]
    if not syncs or any(e["args"]["correlation"] not in rows for e in syncs):
        bad(f"{name}: cudaStreamSynchronize without its cuda_sync row")
    gsteps = {e["args"]["External id"]: e for e in xs if e["cat"] == "gpu_user_annotation"
              and e["name"].startswith("ProfilerStep#")}
    for s in steps:
        g = gsteps.get(s["args"]["External id"])
        if not g or g["name"] != s["name"] or g["ts"] < s["ts"]:
            bad(f"{name}: {s['name']} has no GPU-side copy starting after it")
            break
    gemm = [e for e in xs if e["cat"] == "kernel" and "xmma_gemm" in e["name"]]
    drv = {e["args"]["correlation"] for e in xs if e["cat"] == "cuda_driver"
           and e["name"] == "cuLaunchKernelEx"}
    if any(g["args"]["correlation"] not in drv for g in gemm):
        bad(f"{name}: a cuBLASLt gemm not launched by cuLaunchKernelEx")


def check_file(path, form, world, want_py, host_bound, gpus, seen_ranks, shape=None):
    text, d = load(path)
    name = os.path.basename(path)
    m = re.match(r"^algo-(\d+)_(\d+|main)\.(\d+)\.pt\.trace\.json(\.gz)?$", name)
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
    steps = [e for e in xs if e["name"].startswith("ProfilerStep#")
             and e["cat"] == ("Operator" if legacy else "user_annotation")]
    if not steps:
        bad(f"{name}: no ProfilerStep#N")
    if not any(e["cat"] == cat["cpu"] for e in xs):
        bad(f"{name}: no {cat['cpu']} events")
    gpu_ev = [e for e in xs if e["cat"] in (cat["kernel"], cat["memcpy"], cat["memset"])]
    launches = {e["args"]["correlation"]: e for e in xs
                if e["cat"] in (cat["rt"], "cuda_driver") and "correlation" in e.get("args", {})
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
    if world > 1 and gpus and shape != "gloo":
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
        check_sync_and_copies(name, form, ev, xs, steps)
    if shape:
        check_shape(name, d, shape, xs, steps, gpu_ev, launches)
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
    shape = a[a.index("--shape") + 1] if "--shape" in a else None
    idle = "--host-bound" in a or shape in ("gloo", "main-loader", "launch-bound")
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
                             ranks, shape) or 0
    if busy_all:
        # a cycle that caught a data stall (--outlier-rate) is mostly idle
        # either way: the median cycle says which side the job is on
        med = sorted(busy_all)[len(busy_all) // 2]
        print(f"GPU busy in steps: median {med:.0%}, min {min(busy_all):.0%}, "
              f"max {max(busy_all):.0%}")
        if idle and med > 0.35:
            bad(f"host-bound: median GPU busy {med:.0%}, want mostly idle")
        if not idle and med < 0.6:
            bad(f"GPU-bound: median GPU busy {med:.0%}, want mostly busy")
    if world > 1 and ranks != set(range(world)):
        bad(f"ranks seen {sorted(ranks)}, want 0..{world - 1}")
    print(f"{len(files)} traces, {nsteps} steps, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
