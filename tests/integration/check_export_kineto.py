#!/usr/bin/env python3
"""Checks the PyTorch profiler (Kineto) part of `smtop export --perfetto`
against the trace files themselves, read with Python's json module.

usage: check_export_kineto.py OUT.json TRACE... [--near-counters]

OUT.json must be Perfetto's JSON trace format (traceEvents of ph
X/i/s/f/t/M/C, integer pid/tid, numeric ts in µs). Each TRACE (plain or
.gz) is placed on the job clock (baseTimeNanoseconds + ts·1000 ns, found
before or after traceEvents) in the process named "rank N" (distributedInfo)
that carries a process_labels record; the process must hold exactly the
trace's X/i/s/f/t events with an integer or string pid/tid (same ph, ts and
dur to the ns, same name once control characters read '?', same thread:
"GPU <pid> stream <tid>" where the trace runs GPU work, else "thread <tid>",
"pid <pid> thread <tid>" under a string pid), with
ac2g flows reaching GPU streams, flow ids apart between traces. --near-counters: every Kineto event lies within the system
counters' span (±10 min): the same clock. Prints one line per problem,
exits 1 if any."""
import collections
import decimal
import gzip
import json
import sys
import unicodedata

problems = []


def bad(msg):
    problems.append(msg)
    if len(problems) <= 20:
        print("FAIL:", msg)


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt", encoding="utf-8") as f:
        return json.load(f, parse_float=decimal.Decimal)


def ns(v):
    """µs (a JSON number) to whole ns, half away from zero."""
    d = decimal.Decimal(v) * 1000
    return int(d.to_integral_value(rounding=decimal.ROUND_HALF_UP))


def safe(name):
    return "".join("?" if unicodedata.category(c) in ("Cc", "Cf") else c for c in name)


def is_id(v):
    """A pid/tid the export keeps: an integer or a string (SPEC §1b)."""
    return isinstance(v, (int, str)) and not isinstance(v, bool)


def label(v):
    """A pid/tid as its thread's name shows it; an empty string as ""."""
    return (safe(v) or '""') if isinstance(v, str) else str(v)


def expected(trace):
    """(rank, Counter of event keys, kernels' (device, stream), CPU ops' threads)."""
    base = int(trace.get("baseTimeNanoseconds", 0))
    rank = trace.get("distributedInfo", {}).get("rank")
    want = collections.Counter()
    gpu_cats = ("kernel", "gpu_memcpy", "gpu_memset", "gpu_user_annotation", "memcpy", "memset")
    gpu = {(e.get("pid"), e.get("tid")) for e in trace["traceEvents"]
           if str(e.get("cat", "")).lower() in gpu_cats}
    cpu = set()
    for e in trace["traceEvents"]:
        ph = e.get("ph")
        if ph not in ("X", "i", "I", "s", "f", "t"):
            continue
        if not is_id(e.get("pid")) or not is_id(e.get("tid")):
            continue
        if not isinstance(e.get("ts"), (int, decimal.Decimal)):
            continue
        if ph in "sft" and not isinstance(e.get("id"), int):
            continue
        dur = e.get("dur", 0) if ph == "X" else 0
        dur = ns(dur) if isinstance(dur, (int, decimal.Decimal)) and dur >= 0 else 0
        pid, tid = label(e["pid"]), label(e["tid"])
        thread = (f"GPU {pid} stream {tid}" if (e["pid"], e["tid"]) in gpu
                  else f"pid {pid} thread {tid}" if isinstance(e["pid"], str)
                  else f"thread {tid}")
        key = ("i" if ph == "I" else ph, base + ns(e["ts"]), dur,
               safe(e.get("name", "")) or "(unnamed)", thread)
        want[key] += 1
        if e.get("cat") in ("cpu_op", "Operator"):
            cpu.add(thread)
    return rank, want, gpu, cpu


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    near = "--near-counters" in sys.argv
    out = load(args[0])
    evs = out["traceEvents"]
    procs, labels, threads = {}, {}, {}
    for e in evs:
        if e.get("ph") not in ("X", "i", "s", "f", "t", "M", "C"):
            bad(f"ph {e.get('ph')!r} not in Perfetto's set: {e}")
        if not isinstance(e.get("pid"), int) or ("tid" in e and not isinstance(e["tid"], int)):
            bad(f"pid/tid not integers: {e}")
        if not isinstance(e.get("ts"), (int, decimal.Decimal)):
            bad(f"ts not a number: {e}")
        if e.get("ph") == "M":
            a = e["args"]
            if e["name"] == "process_name":
                procs[e["pid"]] = a["name"]
            elif e["name"] == "process_labels":
                labels[e["pid"]] = a["labels"]
            elif e["name"] == "thread_name":
                threads[(e["pid"], e["tid"])] = a["name"]
    kin_pids = set(labels)
    got = collections.defaultdict(collections.Counter)
    flow_ids = collections.defaultdict(set)
    ac2g_gpu = collections.Counter()
    for e in evs:
        if e["pid"] not in kin_pids or e["ph"] == "M":
            continue
        dur = ns(e["dur"]) if e["ph"] == "X" else 0
        tname = threads.get((e["pid"], e["tid"]), "")
        got[e["pid"]][(e["ph"], ns(e["ts"]), dur, e["name"], tname)] += 1
        if e["ph"] in "sft":
            flow_ids[e["pid"]].add(e["id"])
            if e.get("cat") == "ac2g" and e["ph"] == "f" and tname.startswith("GPU "):
                ac2g_gpu[e["pid"]] += 1
    by_rank = collections.defaultdict(collections.Counter)
    gpus, cpus = collections.defaultdict(set), collections.defaultdict(set)
    for path in args[1:]:
        rank, want, gpu, cpu = expected(load(path))
        by_rank[rank] += want
        gpus[rank] |= gpu
        cpus[rank] |= cpu
    for rank, want in by_rank.items():
        name = f"rank {rank}"
        pids = [p for p in kin_pids if procs.get(p) == name]
        if len(pids) != 1:
            bad(f"{len(pids)} processes named {name!r} with a node label (want 1): {procs}")
            continue
        pid = pids[0]
        if got[pid] != want:
            missing, extra = want - got[pid], got[pid] - want
            bad(f"{name}: {sum(want.values())} events in the traces, {sum(got[pid].values())} "
                f"exported; missing {list(missing.items())[:3]}, extra {list(extra.items())[:3]}")
        tnames = {n for (p, _), n in threads.items() if p == pid}
        for dev, stream in gpus[rank]:
            if f"GPU {label(dev)} stream {label(stream)}" not in tnames:
                bad(f"{name}: no thread 'GPU {label(dev)} stream {label(stream)}' in {sorted(tnames)}")
        if gpus[rank] and not ac2g_gpu[pid]:
            bad(f"{name}: no ac2g flow reaches a GPU stream")
        for thread in cpus[rank]:
            if thread not in tnames:
                bad(f"{name}: no thread '{thread}'")
        print(f"{name} on {labels[pid]}: {sum(want.values())} events, "
              f"{len(tnames)} threads, {len(flow_ids[pid])} flow ids, "
              f"{ac2g_gpu[pid]} ac2g flows into GPU streams")
    pids = list(flow_ids)
    for i, a in enumerate(pids):
        for b in pids[i + 1:]:
            if flow_ids[a] & flow_ids[b]:
                bad(f"flow ids shared between processes {procs[a]} and {procs[b]}")
    if near:
        cts = [e["ts"] for e in evs if e["ph"] == "C"]
        kts = [e["ts"] for e in evs if e["pid"] in kin_pids and e["ph"] != "M"]
        if not cts or not kts:
            bad("no counters or no Kineto events to compare clocks")
        elif min(kts) < min(cts) - 600_000_000 or max(kts) > max(cts) + 600_000_000:
            bad(f"Kineto events [{min(kts)}, {max(kts)}] off the counters' "
                f"[{min(cts)}, {max(cts)}]")
    if not by_rank:
        bad("no traces given")
    sys.exit(1 if problems else 0)


main()
