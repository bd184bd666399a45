#!/usr/bin/env python3
"""verdict_check.py REPORT.json PERFETTO.json [SIGMA]: recomputes, from
`report --json` (its idle GPU-hours, gpu rows, steps, straggler and rules)
and from the step events of `export --perfetto`, the findings the job's
verdict must give, and checks the verdict that report --json holds against
them: each expected finding is there with its numbers, none more, worst
first, "no problem found" only when nothing is expected. Prints the
verdict line; exits 1 with the differences.

What it recomputes (model/view/verdict.h, gpucause.h):
- idle GPU (system metrics): idle GPU-hours over GPU-hours, from 10 %, in
  its own words ("GPU < 10 % in N % of samples");
- the PyTorch profiler's idle share (idle / span summed over GPU ranks)
  over the most steps a rank kept, and its cause, the first the data
  shows: gloo (GlooWithCUDA), the DataLoader's share of the TRAIN steps
  (steps[], at Dataloader.min_data_pct or more), launches
  (KernelLaunchOverhead), the host (GPUIdleHostBound, or a cpu_bound
  critical path), else a bigger batch; comm not overlapped (bounded by
  the ranks' own figures), short kernels, memory, gloo, ranks sharing a
  GPU, matmuls without Tensor Cores, each unless the idle finding told it;
- that every finding has its cause, fix and evidence, and that the line
  carries one idle percentage at most;
- the straggler, when the Straggler rule fired;
- step-time outliers by StepOutlier's definition (slower than mean +
  SIGMA stddev; mean, stddev and p50 from report --json, the durations and
  step numbers from the export, the newest retained ones): when the rule
  fired, or when they cost >= 5 % of the step time over the p50;
- every other rule that fired, with its counts.
"""
import json
import re
import sys

SEV = {"high": 3, "medium": 2, "low": 1}
LOST_PCT, HEAVY_PCT, IDLE_PCT = 5.0, 25.0, 10.0
NODE_RECENT, PROC_RECENT = 4096, 1024   # phase_stats retained steps (node, writer)
errors = []


def check(cond, msg):
    if not cond:
        errors.append(msg)


def rnd(x):
    """C's %.0f for the non-negative values printed here (ties to even are
    too rare among measured figures to matter; both neighbours accepted)."""
    return {int(x + 0.5), int(x)} if abs(x - int(x) - 0.5) < 1e-9 else {int(x + 0.5)}


def sev_of(pct):
    return "high" if pct >= 50 else "medium" if pct >= 25 else "low"


def step_units(pf):
    """{(node, writer or None, phase): [(start, dur, step)]} from the export:
    smdebug steps on threads named "[WRITER ]Step:ModeKeys.X" of a node's
    process; Kineto's ProfilerStep#N on a rank's process (its node in
    process_labels)."""
    ev = pf["traceEvents"] if isinstance(pf, dict) else pf
    pname, plabel, tname = {}, {}, {}
    for e in ev:
        if e.get("ph") != "M":
            continue
        a = e.get("args", {})
        if e.get("name") == "process_name":
            pname[e["pid"]] = a.get("name")
        elif e.get("name") == "process_labels":
            plabel[e["pid"]] = a.get("labels")
        elif e.get("name") == "thread_name":
            tname[(e["pid"], e["tid"])] = a.get("name", "")
    units = {}
    for e in ev:
        if e.get("ph") != "X":
            continue
        name, pid = e.get("name", ""), e["pid"]
        step = (e.get("args") or {}).get("step", -1)
        if name.startswith("Step:ModeKeys."):
            t = tname.get((pid, e.get("tid")), "")
            writer = t[: -len(name) - 1] if t.endswith(" " + name) else None
            key = (pname[pid], writer, name)
        elif name.startswith("ProfilerStep#") and pid in plabel:
            key = (plabel[pid], pname[pid], "Step:ModeKeys.TRAIN")
        else:
            continue
        units.setdefault(key, []).append((e["ts"], e["dur"], step))
    return units


def expect_outliers(rep, pf, sigma, rules):
    """The outlier_steps finding expected: None, or (severity, checks)."""
    units = step_units(pf)
    stats = {(s["node"], s["process"], s["phase"]): s for s in rep["steps"] if s["kind"] == "step"}
    writers = {}
    for (node, writer, _) in units:
        writers.setdefault(node, set()).add(writer)
    best = None
    names = set()
    for key, evs in units.items():
        node, writer, phase = key
        # A node with one writer is judged on that writer's steps (its
        # row in steps[] names the process); without one, on the node's.
        st = stats.get(key) or stats.get((node, None, phase))
        if st is None:
            continue
        names.add((node, writer))
        cap = PROC_RECENT if st["process"] is not None else NODE_RECENT
        evs = sorted(evs)[-cap:]
        thr = st["mean_us"] + sigma * st["stddev_us"]
        out = [e for e in evs if e[1] > thr + 1e-6]
        if not out:
            continue
        lost = sum(d - st["p50_us"] for _, d, _ in out) / sum(d for _, d, _ in evs) * 100
        slow = max(out, key=lambda e: e[1])
        cand = (lost, node, writer, phase, slow, st, len(writers[node]))
        if best is None or lost > best[0] + 1e-9:
            best = cand
    fired = rules["StepOutlier"]["status"] == "triggered"
    if not fired and (best is None or best[0] < LOST_PCT - 1e-9):
        return None
    return fired, best, len(names)


def dur_us(num, unit):
    return float(num) * {"us": 1, "ms": 1e3, "s": 1e6, "min": 60e6, "h": 3600e6, "d": 86400e6}[unit]


def check_outliers(v, exp, rules):
    got = [f for f in v["findings"] if f["source"] == "outlier_steps"]
    if exp is None:
        check(not got, f"an outlier_steps finding nobody expects: {got}")
        return 0
    fired, best, nunits = exp
    check(len(got) == 1, f"expected one outlier_steps finding, got {got}")
    if not got:
        return 1
    f = got[0]
    if fired:
        r = rules["StepOutlier"]
        pct = 100.0 * r["violations"] / r["datapoints"]
        head = f"{min(rnd(pct))} % outlier steps" if pct >= 0.5 else f"{r['violations']} outlier steps"
        check(f["text"].startswith(head) or any(f["text"].startswith(f"{p} % outlier") for p in rnd(pct)),
              f"'{f['text']}' does not start with '{head}'")
        check(f["severity"] == r["severity"], f"severity {f['severity']} is not the rule's {r['severity']}")
    else:
        check(f["severity"] == ("medium" if best[0] >= HEAVY_PCT else "low"),
              f"severity {f['severity']} for {best[0]:.1f} % lost")
        m = re.search(r"\((\d+) % of (\w+) time\)$", f["text"])
        check(m and int(m.group(1)) in rnd(best[0]) and m.group(2) == best[3].split(".")[-1],
              f"'{f['text']}': expected ({best[0]:.1f} % of {best[3]} time)")
    lost, node, writer, phase, slow, st, nwriters = best
    m = re.search(r"step (\d+) took ([0-9.]+) (us|ms|s|min|h|d), ([0-9.]+)\u00d7 the p50", f["text"])
    check(m is not None, f"'{f['text']}' names no slow step")
    if m:
        check(int(m.group(1)) == slow[2], f"slow step {m.group(1)}, the export's slowest outlier is {slow[2]}")
        took = dur_us(m.group(2), m.group(3))
        check(abs(took - slow[1]) <= 0.006 * slow[1] + 1, f"took {took} us, the export says {slow[1]}")
        ratio = slow[1] / st["p50_us"]
        check(abs(float(m.group(4)) - ratio) <= 0.051 * max(1, ratio / 10), f"ratio {m.group(4)}, expected {ratio:.2f}")
    if nunits > 1:
        who = node if nwriters < 2 or writer is None else None
        if who:
            check(f" {who} step" in f" {f['text']}" or f": {who} step" in f["text"], f"'{f['text']}' does not name {who}")
        else:
            check(re.search(r"(rank \d+ of \S+|\S+) step", f["text"]), f"'{f['text']}' names no writer")
    return 1


def loader_share(rep):
    """The PyTorch profiler's DataLoader time against the TRAIN steps, on
    the node where it is the largest share: (pct, main thread), or None."""
    best = None
    for node in {s["node"] for s in rep["steps"] if s["process"] is None}:
        rows = [s for s in rep["steps"] if s["node"] == node and s["process"] is None]
        ld = [s for s in rows if s["phase"].startswith("enumerate(DataLoader)")]
        st = [s for s in rows if s["phase"] == "Step:ModeKeys.TRAIN"]
        if not ld or not st or not st[0]["count"]:
            continue
        pct = 100.0 * sum(s["mean_us"] * s["count"] for s in ld) / (st[0]["mean_us"] * st[0]["count"])
        main = any("_SingleProcessDataLoaderIter" in s["phase"] for s in ld)
        if best is None or pct > best[0]:
            best = (pct, main)
    return best


# HTA's runtime launch mask, CUDA and HIP (smtop's gpu_name_flags GPU_CF_LAUNCH)
LAUNCH_CALLS = {"cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
                "cudaMemcpyAsync", "cudaMemsetAsync",
                "runFunction - job_prep_and_submit_for_execution", "hipLaunchKernel",
                "hipExtModuleLaunchKernel", "hipMemsetAsync", "hipMemcpyAsync",
                "hipMemcpyWithStream"}


def is_launch(e):
    """A critical-path event that is a launch call (gpucause.c's is_launch)."""
    return e["kind"] == "cuda_runtime" and e["name"] in LAUNCH_CALLS


def launch_path(rep):
    """The share (%) of the steps' critical path, summed over the ranks, in
    launch delays and launch calls, and one rank's largest host event's
    share of its path (gpucause.c's GPUCAUSE_LAUNCH_PCT and
    GPUCAUSE_HOST_OP_PCT tests)."""
    path = launch = host_op = 0.0
    for g in rep["gpu"]:
        cp = g["critical_path"]
        path += cp["path_us"]
        launch += (cp["bound_pct"]["gpu_kernel_launch_overhead"] or 0) / 100 * cp["path_us"]
        launch += sum(e["us"] for e in cp["top_events"] if is_launch(e))
        if cp["path_us"] > 0:
            host_op = max([host_op] + [100 * e["us"] / cp["path_us"] for e in cp["top_events"]
                                       if e["kind"] != "kernel" and not is_launch(e)])
    return (100 * launch / path if path > 0 else 0), host_op


def expect_cause(rep, rules, fired):
    """The idle finding's (rule, why prefix), the first cause the data
    shows (gpucause.c's CAUSES)."""
    comm = sum(c["pct_of_idle"] or 0 for g in rep["gpu"] for c in g["idle_causes"]
               if c["kind"] == "comm_host")
    if "GlooWithCUDA" in fired or comm >= 20:
        return ("GlooWithCUDA", "gloo all-reduce on the host")
    ld = loader_share(rep)
    if ld and ld[0] >= rules["Dataloader"]["parameters"]["min_data_pct"]:
        return ("Dataloader", "DataLoader on the main thread" if ld[1] else "waiting for DataLoader")
    launch, host_op = launch_path(rep)
    if ("KernelLaunchOverhead" in fired or launch >= 30) and not (launch < 30 and host_op >= 50):
        return ("KernelLaunchOverhead", "kernel launches")
    cpu = [g["critical_path"]["bound_pct"]["cpu_bound"] for g in rep["gpu"]]
    if "GPUIdleHostBound" in fired:
        return ("GPUIdleHostBound", "host")
    if any(c is not None and c >= 50 for c in cpu):
        return (None, "host")
    return (None, "")


def main():
    rep = json.load(open(sys.argv[1]))
    pf = json.load(open(sys.argv[2]))
    sigma = float(sys.argv[3]) if len(sys.argv) > 3 else 3.0
    v = rep["verdict"]
    rules = {r["name"]: r for r in rep["rules"]}
    fired = {n for n, r in rules.items() if r["status"] == "triggered"}
    texts = [f["text"] for f in v["findings"]]
    expected = 0

    # Every finding carries its cause, fix and where to look.
    for f in v["findings"]:
        check(f["cause"] and f["fix"] and f["evidence"], f"finding without its advice: {f}")
    # One idle percentage on the line at most ("GPU < 10 % in N % of
    # samples" is the system metrics' own words, not an idle figure).
    idles = set(re.findall(r"idle (\d+) %", v["line"]))
    check(len(idles) <= 1, f"two idle figures on one line: '{v['line']}'")

    # Idle GPU from the system metrics.
    hours = rep.get("idle_gpu_hours") or []
    total = sum(h["gpu_hours"] for h in hours)
    idle = 100.0 * sum(h["idle_gpu_hours"] for h in hours) / total if total > 0 else 0
    sys_idle = [f for f in v["findings"] if f["source"] == "idle_gpu"]
    if idle >= IDLE_PCT:
        expected += 1
        check(len(sys_idle) == 1 and any(sys_idle[0]["text"] == f"GPU < 10 % in {p} % of samples"
                                         for p in rnd(idle)),
              f"expected 'GPU < 10 % in {idle:.1f} % of samples', got {sys_idle}")
        check(not sys_idle or sys_idle[0]["severity"] == sev_of(idle), f"idle severity {sys_idle}")
    else:
        check(not sys_idle, f"idle GPU {idle:.1f} % < {IDLE_PCT} %, yet {sys_idle}")

    # The PyTorch profiler's findings.
    rows = [g for g in rep.get("gpu", []) if g.get("idle_pct") is not None]
    kin = [f for f in v["findings"] if f["source"] == "kineto"]
    told = set()
    if rows:
        kidle = 100.0 * sum(g["idle_us"] for g in rows) / sum(g["span_us"] for g in rows)
        steps = max(g["steps"] for g in rep["gpu"])
        idle_f = [f for f in kin if f["text"].startswith("GPU idle ")]
        cause = expect_cause(rep, rules, fired)
        if kidle >= IDLE_PCT and (cause[1] or kidle >= 50):
            expected += 1
            span = sum(g["span_us"] for g in rows) / 1e6
            want = [f"GPU idle {b} % of {steps} traced step{'s' if steps != 1 else ''}"
                    if steps else f"GPU idle {b} % of {span:.1f} s traced" for b in rnd(kidle)]
            check(len(idle_f) == 1 and idle_f[0]["text"] in want, f"expected {want}, got {idle_f}")
            if idle_f:
                f = idle_f[0]
                check(f["rule"] == cause[0] and (f["why"] or "").startswith(cause[1]),
                      f"idle finding's cause {f['rule']}/{f['why']}, expected {cause}")
                told.add(f["rule"])
        else:
            check(not idle_f, f"unexpected idle finding {idle_f}")
        texts_k = [f["text"] for f in kin]
        if "CommNotOverlapped" in fired and "CommNotOverlapped" not in told:
            expected += 1
            ov = [100 - g["comm_comp_overlap_pct"] for g in rows if g["comm_comp_overlap_pct"] is not None]
            m = [re.match(r"comm not overlapped (\d+) %$", t) for t in texts_k]
            m = [x for x in m if x]
            check(m and min(ov) - 0.5 <= int(m[0].group(1)) <= max(ov) + 0.5,
                  f"comm not overlapped: {texts_k}, ranks' figures {ov}")
        if "KernelLaunchOverhead" in fired and "KernelLaunchOverhead" not in told:
            expected += 1
            launches = sum(g["launch"]["count"] for g in rep["gpu"])
            short = 100.0 * sum(g["launch"]["short_kernels"] for g in rep["gpu"]) / launches
            check(any(t == f"launch-bound: {p} % short kernels" for t in texts_k for p in rnd(short)),
                  f"expected launch-bound {short:.1f} % among {texts_k}")
        for name in ("GPUMemoryNearCapacity", "GlooWithCUDA", "RanksShareGPU", "TensorCoresUnused"):
            if name in fired and name not in told:
                expected += 1
                check(any(f["rule"] == name for f in kin), f"{name} fired, no finding tells it: {kin}")
    else:
        check(not kin, f"Kineto findings without GPU rows: {kin}")

    # The straggler.
    st = [f for f in v["findings"] if f["source"] == "straggler"]
    if "Straggler" in fired:
        expected += 1
        s = rep["straggler"]
        check(len(st) == 1 and any(st[0]["text"].endswith(f"+{p} %") for p in rnd(s["deviation_pct"])),
              f"straggler {s} told as {st}")
    else:
        check(not st, f"straggler finding without the rule: {st}")

    # Step-time outliers.
    expected += check_outliers(v, expect_outliers(rep, pf, sigma, rules), rules)

    # Every other rule that fired, with its counts.
    loader = loader_share(rep)
    words = {"LowGPUUtilization": "low GPU utilization", "CPUBottleneck": "CPU bottleneck",
             "IOBottleneck": "I/O bottleneck", "BatchSize": "batch size too small",
             "GPUMemoryIncrease": "GPU memory growing", "LoadBalancing": "GPUs unevenly loaded",
             "Dataloader": "of the step" if loader else "data-loader workers",
             "MaxInitializationTime": "slow start"}
    for name, w in words.items():
        if name not in fired or name in told or (name == "LowGPUUtilization" and (sys_idle or kin)):
            continue
        expected += 1
        r = rules[name]
        hit = [t for t in texts if w in t]
        check(len(hit) == 1, f"{name} fired: no finding with '{w}' in {texts}")
        if hit and name not in ("MaxInitializationTime",) and not (name == "Dataloader" and loader):
            nums = re.findall(r"\d+", hit[0])
            pct = 100.0 * r["violations"] / r["datapoints"]
            check(str(r["violations"]) in nums and str(r["datapoints"]) in nums
                  or any(str(p) in nums for p in rnd(pct)),
                  f"'{hit[0]}' lacks {r['violations']}/{r['datapoints']}")

    sev = [SEV[f["severity"]] for f in v["findings"]]
    check(sev == sorted(sev, reverse=True), f"findings not worst first: {v['findings']}")
    check(len(v["findings"]) == expected, f"{len(v['findings'])} findings, {expected} expected: {texts}")
    if expected == 0:
        check(v["line"].startswith("no problem found ("), f"nothing expected, line '{v['line']}'")
        # ...and what the rules that could not check lacked.
        nd = [r for r in rep["rules"] if r["status"] == "no_data" and r["severity"] != "info"]
        lack = []
        if nd:
            if not any(n["metrics"] for n in rep["nodes"]):
                lack.append("no system metrics")
            elif not any(n["gpus"] for n in rep["nodes"]) and not rows:
                lack.append("no GPU metrics")
            if not rep["steps"]:
                lack.append("no training steps")
            if rep.get("gpu") and not rows:
                lack.append("no GPU events in the traces")
            short = sum(r["details"]["message"].startswith("job too short: ") for r in nd)
            if short:
                lack.append(f"job too short for {short} rule{'s' if short > 1 else ''}")
        ok = sum(r["status"] == "ok" for r in rep["rules"])
        want = f"no problem found ({ok} rule{'s' if ok != 1 else ''} ok" + \
            (("; " + ", ".join(lack)) if lack else ", some lack data" if nd else "") + ")"
        check(v["line"] == want, f"line '{v['line']}', expected '{want}'")
    print(v["line"])
    for e in errors:
        print("FAIL:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
