#!/usr/bin/env python3
"""Python-stats fixtures and the pstats reference for smtop's tests.

  pystats_fixture.py cprofile DIR       real cProfile dumps + crafted marshal
                                        dicts (versions 2, 3, 4) laid out as
                                        DIR/framework/pytorch/cprofile/...
                                        and one in the older layout
                                        DIR/framework/tensorflow/cProfile/...
  pystats_fixture.py pyinstrument DIR   hand-made python_stats.json trees,
                                        one of them a failed session
  pystats_fixture.py bench DIR N FUNCS  N cProfile files of ~FUNCS functions
  pystats_fixture.py timed DIR NODE:START_US:END_US:FUNC...
                                        one real cProfile dump per window, in
                                        a stats directory named for its
                                        times, whose hottest function is FUNC
  pystats_fixture.py check DIR SORT TOP REPORT.json [SORT TOP REPORT.json]...
                                        compares smtop's report with pstats
                                        (Stats.add over the same files, sorted
                                        by SORT then file, line, name); every
                                        number equal, floats to 1e-9 relative

Only the machine's python3 writes the real dumps; the crafted ones cover
the marshal versions older Pythons use (2-4 is all Python >= 3.7 writes).
"""
import cProfile
import glob
import json
import marshal
import math
import os
import pstats
import sys

US0 = 1591748100000000


def stats_dir(kind, i):
    """Names as smdebug writes them: times are time.time() * 1e6 printed by
    Python, so they carry a fraction (the float itself, not a format)."""
    t0 = US0 + i * 60_000_000 + 0.8
    t1 = US0 + i * 60_000_000 + 5_000_000 + 0.2
    if kind == "pre":
        return f"prestepzero-*-start-{t0}_train-0-stepstart-{t1}"
    if kind == "post":
        return f"train-30-stepend-{t0}_posthookclose-*-end-{t1}"
    if kind == "legacy":
        return f"{float(int(t0))}_{float(int(t1))}_4487-algo-2_{i}"
    return f"train-{i}-stepstart-{t0}_train-{i + 2}-stepend-{t1}"


def legacy_path(root, sdir):
    """The older layout: framework/<fw>/cProfile/<start>_<end>_<pid>-<node>_<step>/,
    capital P and no node folder."""
    d = os.path.join(root, "framework", "tensorflow", "cProfile", sdir)
    os.makedirs(d, exist_ok=True)
    return os.path.join(d, "python_stats")


def out_path(root, prof, node, sdir, name):
    d = os.path.join(root, "framework", "pytorch" if prof == "cprofile" else "tensorflow",
                     prof, node, sdir)
    os.makedirs(d, exist_ok=True)
    return os.path.join(d, name)


def workload(seed):
    def fib(n):
        return n if n < 2 else fib(n - 1) + fib(n - 2)

    class Model:
        def forward(self, x):
            return sorted(x, key=lambda v: (v * seed) % 7)

    def gen(n):
        yield from range(n)

    m = Model()
    for _ in range(3 + seed):
        fib(10 + seed)
        m.forward(list(gen(50)))
        "".join(str(v) for v in range(30))


def real_dump(path, seed):
    p = cProfile.Profile()
    p.enable()
    workload(seed)
    p.disable()
    p.dump_stats(path)


def crafted(version, path):
    """Edge cases marshal'd with an explicit version: recursion (pcalls <
    ncalls), unicode names, huge counts, int times, shared keys."""
    rec = ("model/λ_layers.py", 12, "récurse")
    top = ("train.py", 1, "<module>")
    big = ("数据/loader.py", 300, "fetch_🚀")
    builtin = ("~", 0, "<built-in method builtins.len>")
    d = {
        top: (1, 1, 0.000125, 9.5 + version, {}),
        rec: (3, 3000 + version, 1.25 / 3, 7.75, {top: (3, 3, 0.5, 7.75), rec: (0, 2997 + version, 0.75, 6.0)}),
        big: (2**61 + version, 2**61 + version, 2.0, 2.5, {top: (2**61 + version, 2**61 + version, 2.0, 2.5)}),
        builtin: (40, 40, 3, 3, {rec: (40, 40, 3, 3)}),
        ("same.py", 5, "tie_b"): (1, 1, 0.5, 0.5, {top: (1, 1, 0.5, 0.5)}),
        ("same.py", 5, "tie_a"): (1, 1, 0.5, 0.5, {top: (1, 1, 0.5, 0.5)}),
    }
    with open(path, "wb") as f:
        marshal.dump(d, f, version)


def make_cprofile(root):
    real_dump(out_path(root, "cprofile", "algo-1", stats_dir("train", 9), "python_stats"), 1)
    real_dump(out_path(root, "cprofile", "algo-1", stats_dir("train", 20), "python_stats"), 2)
    real_dump(out_path(root, "cprofile", "algo-2", stats_dir("pre", 1), "python_stats"), 3)
    real_dump(out_path(root, "cprofile", "algo-2", stats_dir("legacy", 5), "python_stats"), 0)
    # the older layout, its node in the name, step -1 before step 0
    t = US0 - 60_000_000
    real_dump(legacy_path(root, f"{float(t)}_{float(t + 2_000_000)}_151-algo-6_-1"), 4)
    for i, v in enumerate((2, 3, 4)):
        crafted(v, out_path(root, "cprofile", f"algo-{3 + i}", stats_dir("post", 40 + i),
                            "python_stats"))


def frame(fn, path, line, t, children=()):
    return {"function": fn, "file_path_short": path, "file_path": "/opt/" + path,
            "line_no": line, "time": t, "is_application_code": True,
            "children": list(children)}


def make_pyinstrument(root):
    tree = frame("<module>", "train.py", 1, 10.0, [
        frame("step", "train.py", 20, 6.0, [
            frame("forward", "model.py", 5, 4.0, [frame("relu", "nn.py", 9, 1.5)]),
            frame("step", "train.py", 20, 1.0),          # recursion: not counted twice
        ]),
        frame("load", "data/读.py", 3, 3.5, [frame("relu", "nn.py", 9, 0.5)]),
    ])
    doc = {"start_time": 1.0, "duration": 10.0, "sample_count": 1000, "root_frame": tree}
    with open(out_path(root, "pyinstrument", "algo-1", stats_dir("train", 9),
                       "python_stats.json"), "w") as f:
        json.dump(doc, f)
    with open(out_path(root, "pyinstrument", "algo-1", stats_dir("train", 20),
                       "python_stats.json"), "w") as f:
        json.dump({"root_frame": None}, f)


def make_bench(root, n, funcs):
    """A generated module of `funcs` functions calling each other, profiled
    n times with different entry points."""
    src = ["def f0(d):\n    return d\n"]
    for i in range(1, funcs):
        a, b = (i * 7919 + 13) % i, (i * 104729 + 7) % i
        src.append(f"def f{i}(d):\n    if d <= 0:\n        return 1\n"
                   f"    return f{a}(d - 1) + f{b}(d - 2)\n")
    ns = {}
    exec(compile("".join(src), "bench_module.py", "exec"), ns)
    for k in range(n):
        p = cProfile.Profile()
        p.enable()
        for i in range(1, funcs):
            ns[f"f{i}"](2 + (i + k) % 3)
        p.disable()
        p.dump_stats(out_path(root, "cprofile", f"algo-{1 + k % 4}", stats_dir("train", k),
                              "python_stats"))


def make_timed(root, specs):
    """Windows at given times, each with its own hot function (a busy loop
    named FUNC in train.py), so a test can tell which windows were merged."""
    for i, spec in enumerate(specs):
        node, t0, t1, fn = spec.split(":")
        ns = {}
        exec(compile(f"def {fn}(n):\n    return sum(i * i for i in range(n))\n",
                     "train.py", "exec"), ns)
        p = cProfile.Profile()
        p.enable()
        for _ in range(20):
            ns[fn](20000)
        p.disable()
        sdir = f"train-{i}-stepstart-{t0}.5_train-{i + 2}-stepend-{t1}.5"
        p.dump_stats(out_path(root, "cprofile", node, sdir, "python_stats"))


def name_us(t):
    """A name's time as smtop keeps it: whole µs, the fraction dropped."""
    return int(t.split(".")[0])


def window_order(root):
    """The store's merge order: (start_us, node, key)."""
    keyed = []
    for path in glob.glob(os.path.join(root, "framework/*/cprofile/*/*/python_stats")):
        parts = path.split(os.sep)
        sdir, node = parts[-2], parts[-3]
        start = name_us(sdir.split("_")[0]) if sdir[0].isdigit() else \
            name_us(sdir.split("_")[0].split("-")[-1])
        keyed.append((start, node, os.path.relpath(path, root), path))
    for path in glob.glob(os.path.join(root, "framework/*/cProfile/*/python_stats")):
        sdir = path.split(os.sep)[-2]
        node = sdir.split("_", 2)[2].rsplit("_", 1)[0].split("-", 1)[1]
        keyed.append((name_us(sdir.split("_")[0]), node, os.path.relpath(path, root), path))
    return [k[3] for k in sorted(keyed)]


def close(a, b):
    return a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b))


def check(root, sort, top, report):
    rep = json.load(open(report))["python"]
    files = window_order(root)
    st = pstats.Stats(files[0])
    for f in files[1:]:
        st.add(f)
    if sort in ("tpercall", "cpercall"):
        def key(fn):
            cc, nc, tt, ct, _ = st.stats[fn]
            v = (tt / nc if nc else 0) if sort == "tpercall" else (ct / cc if cc else 0)
            return (-v, fn[0], fn[1], fn[2])
        order = sorted(st.stats, key=key)
    else:
        st.sort_stats(sort, "filename", "line", "name")
        order = st.fcn_list
    errors = []
    def expect(what, got, want):
        ok = close(got, want) if isinstance(want, float) else got == want
        if not ok:
            errors.append(f"{what}: smtop {got!r}, pstats {want!r}")
    expect("profiler", rep["profiler"], "cprofile")
    expect("windows", len(rep["windows"]), len(files))
    expect("functions", rep["functions"], len(st.stats))
    expect("total_calls", rep["total_calls"], st.total_calls)
    expect("primitive_calls", rep["primitive_calls"], st.prim_calls)
    expect("total_tt_s", rep["total_tt_s"], float(st.total_tt))
    expect("top length", len(rep["top"]), min(top, len(order)))
    for i, (got, fn) in enumerate(zip(rep["top"], order)):
        cc, nc, tt, ct, _ = st.stats[fn]
        want = {"function": pstats.func_std_string(fn), "file": fn[0], "line": fn[1],
                "name": fn[2], "ncalls": nc, "pcalls": cc, "tottime_s": float(tt),
                "cumtime_s": float(ct)}
        for k, v in want.items():
            expect(f"top[{i}].{k}", got[k], v)
    for e in errors[:20]:
        print("MISMATCH", e)
    print(f"compared {len(rep['top'])} functions of {len(files)} files sorted by {sort}: "
          f"{len(errors)} mismatches")
    return 1 if errors else 0


def main(argv):
    cmd = argv[1]
    if cmd == "cprofile":
        make_cprofile(argv[2])
    elif cmd == "pyinstrument":
        make_pyinstrument(argv[2])
    elif cmd == "bench":
        make_bench(argv[2], int(argv[3]), int(argv[4]))
    elif cmd == "timed":
        make_timed(argv[2], argv[3:])
    elif cmd == "check":
        rest = argv[3:]
        return max(check(argv[2], rest[i], int(rest[i + 1]), rest[i + 2])
                   for i in range(0, len(rest), 3))
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
