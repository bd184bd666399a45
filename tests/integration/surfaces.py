"""One job's figures read from each surface that shows them, compared
(issue 33's consistency harness, the command-line part): `smtop report`
(text), `smtop report --json` (summary, rules, warnings, time range) and
the job's row of `smtop jobs --json DIR`; for a pair of jobs, `smtop diff`
(text) against `smtop diff --json` (the counts the Diff pane shows too,
unit_pane_diff). Every figure is read from the output, none recomputed.

usage: surfaces.py job REPORT_TXT REPORT_JSON JOBS_JSON NAME
       surfaces.py diff DIFF_TXT DIFF_JSON
       surfaces.py selftest REPORT_TXT REPORT_JSON JOBS_JSON NAME
Prints one FAIL line per figure that two surfaces disagree on and exits 1;
selftest feeds the job check a copy of each figure mutated on one
surface and fails unless every copy is caught."""
import copy
import json
import re
import sys

SEV = ("high", "medium", "med", "low", "info")
NOW = ("gpu_pct", "cpu_pct", "mem_pct")
NOW_LINE = re.compile(r"^newest 5 min: GPU (-|[0-9.]+ %)  CPU (-|[0-9.]+ %)  MEM (-|[0-9.]+ %)$",
                      re.M)


def text_figures(txt):
    """The figures the report's text header and verdict section print."""
    f = {}
    m = re.search(r"^nodes:\s+(\d+)(?:; step p50 ([0-9.]+) (us|ms|s)\b)?", txt, re.M)
    if m:
        f["nodes"] = int(m.group(1))
        if m.group(2):
            f["step_p50_ms"] = float(m.group(2)) * {"us": 1e-3, "ms": 1, "s": 1e3}[m.group(3)]
    # the job list's GPU/CPU/MEM % (newest 5 minutes), as printed: "41.2"
    # or "-"; absent: the line is missing
    m = NOW_LINE.search(txt)
    if m:
        for k, v in zip(NOW, m.groups()):
            f[k] = v.removesuffix(" %")
    m = re.search(r"^traces:\s+(\d+) read", txt, re.M)
    f["traces_read"] = int(m.group(1)) if m else 0
    block = re.search(r"^rules fired:\n((?:  .*\n)*)", txt, re.M)
    f["alerts"] = len(re.findall(r"^  (?:%s)\s+\S" % "|".join(SEV), block.group(1), re.M)) if block else 0
    return f


def check_job(txt, rep, jobs, name):
    bad = []
    s = rep["summary"]
    t = text_figures(txt)
    fired = sum(1 for r in rep["rules"] if r["status"] == "triggered")

    def same(what, a, b, tol=0.0):
        if a is None or b is None:
            if (a is None) != (b is None):
                bad.append(f"{what}: {a!r} vs {b!r}")
        elif abs(a - b) > tol * max(1.0, abs(b)):
            bad.append(f"{what}: {a!r} vs {b!r}")

    same("alerts: report text vs summary", t["alerts"], s["alerts"])
    same("alerts: rules[] triggered vs summary", fired, s["alerts"])
    same("nodes: report text vs summary", t.get("nodes"), s["nodes"])
    p50 = s["step_p50_us"] / 1e3 if s["step_p50_us"] is not None else None
    # the text rounds to 3 significant figures
    same("step p50: report text vs summary", t.get("step_p50_ms"), p50, 0.006)
    for k in NOW:   # to the 0.1 printed, "-" for null
        want = "-" if s[k] is None else f"{s[k]:.1f}"
        if t.get(k, "(no line)") != want:
            bad.append(f"{k}: report text {t.get(k, '(no line)')} vs summary {s[k]!r} ({want})")
    same("traces read: report text vs warnings", t["traces_read"], rep["warnings"]["traces_read"])
    row = next((j for j in jobs["jobs"] if j["name"] == name), None)
    if row is None:
        return bad + [f"{name!r} not in the job list"]
    same("alerts: jobs --json vs report", row["alerts"], s["alerts"])
    same("step p50: jobs --json vs report", row["step_p50_ms"], p50, 1e-6)
    same("idle GPU-hours: jobs --json vs report", row["idle_gpu_hours"], s["idle_gpu_hours"], 1e-6)
    tr = rep["time_range"]
    if tr["start_us"]:
        same("start: jobs --json vs report", row["training_start_s"], tr["start_us"] / 1e6, 1e-9)
        same("span: jobs --json vs report", row["training_s"], (tr["end_us"] - tr["start_us"]) / 1e6, 1e-6)
    return bad


def check_diff(txt, d):
    bad = []
    m = re.search(r"^(\d+) values changed; (\d+) under the noise floor", txt, re.M)
    n = re.search(r"^No change: .*\((\d+) under the noise floor", txt, re.M)
    if m:
        got = (int(m.group(1)), int(m.group(2)))
    elif n:
        got = (0, int(n.group(1)))
    else:
        return ["diff text: no closing count line"]
    if got != (d["changed"], d["noise_rows"]):
        bad.append(f"changed, noise: diff text {got} vs --json {(d['changed'], d['noise_rows'])}")
    return bad


def mutants(txt, rep, jobs, name):
    """A copy of each figure, wrong on one surface."""
    row = next(j for j in jobs["jobs"] if j["name"] == name)
    for what, key in (("jobs alerts", "alerts"), ("jobs p50", "step_p50_ms"),
                      ("jobs span", "training_s")):
        if row[key] is None:
            continue
        j = copy.deepcopy(jobs)
        r = next(x for x in j["jobs"] if x["name"] == name)
        r[key] = r[key] + 1
        yield what, txt, rep, j
    r2 = copy.deepcopy(rep)
    r2["summary"]["alerts"] += 1
    yield "summary alerts", txt, r2, jobs
    r3 = copy.deepcopy(rep)
    r3["warnings"]["traces_read"] += 1
    yield "warnings traces_read", txt, r3, jobs
    for k in NOW:
        r4 = copy.deepcopy(rep)
        r4["summary"][k] = 50.0 if r4["summary"][k] is None else r4["summary"][k] + 1
        yield "summary " + k, txt, r4, jobs
    for i, k in enumerate(NOW):   # the text's figure one step of 0.1 off, or a number for "-"
        def bump(m, i=i):
            g = list(m.groups())
            g[i] = "50.0 %" if g[i] == "-" else f"{float(g[i][:-2]) + 0.1:.1f} %"
            return "newest 5 min: GPU %s  CPU %s  MEM %s" % tuple(g)
        yield "text " + k, NOW_LINE.sub(bump, txt, count=1), rep, jobs
    yield "text nodes", re.sub(r"^(nodes:\s+)(\d+)", lambda m: m.group(1) + str(int(m.group(2)) + 1),
                               txt, count=1, flags=re.M), rep, jobs


def main():
    mode = sys.argv[1]
    if mode == "diff":
        bad = check_diff(open(sys.argv[2]).read(), json.load(open(sys.argv[3])))
    else:
        txt, rep, jobs, name = (open(sys.argv[2]).read(), json.load(open(sys.argv[3])),
                                json.load(open(sys.argv[4])), sys.argv[5])
        bad = check_job(txt, rep, jobs, name)
        if mode == "selftest" and not bad:
            for what, t, r, j in mutants(txt, rep, jobs, name):
                if not check_job(t, r, j, name):
                    bad.append(f"selftest: a mutated {what} went unseen")
    for b in bad:
        print(f"FAIL: {sys.argv[-1] if mode != 'diff' else 'diff'}: {b}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
