"""The figures `smtop jobs --json` lists for a job against what
`smtop report --json` of the same job says (one place computes each:
model/view/jobsum.h): the rules that fired, the step p50, idle
GPU-hours and GPU/CPU/MEM % (a job's own, from its files; not
CloudWatch's, which the list reads itself) and, for a folder's job (not
an API one: its times are the API's), the data's time range.

usage: jobs_vs_report.py JOBS_JSON NAME REPORT_JSON [--api]
Exits non-zero with a FAIL line naming the figure that differs."""
import json
import sys


def close(a, b, tol):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= tol * max(1.0, abs(b))


def main():
    jobs, name, rep = sys.argv[1], sys.argv[2], sys.argv[3]
    api = "--api" in sys.argv[4:]
    row = next((j for j in json.load(open(jobs))["jobs"] if j["name"] == name), None)
    if row is None:
        sys.exit(f"FAIL: {name!r} not in {jobs}")
    r = json.load(open(rep))
    s = r["summary"]
    fired = sum(1 for x in r["rules"] if x["status"] == "triggered")
    p50 = s["step_p50_us"] / 1e3 if s["step_p50_us"] is not None else None
    want = {"alerts": s["alerts"], "step_p50_ms": p50}
    # an API job whose files hold no system metrics: the list's idle
    # GPU-hours are CloudWatch's own per-host figures, not the model's
    if row["idle_gpu_source"] != "cloudwatch":
        want["idle_gpu_hours"] = s["idle_gpu_hours"]
    # the list's GPU/CPU/MEM % are the job's own (Debugger's files) or
    # none: then the report's, which reads the files whole where the list
    # reads them live (a live read once lost each node's newest CPU total)
    if row["metrics_source"] in ("debugger", None):
        for k in ("gpu_pct", "cpu_pct", "mem_pct"):
            want[k] = s[k]
    if s["alerts"] != fired:
        sys.exit(f"FAIL: {name!r}: report summary alerts {s['alerts']}, rules[] triggered {fired}")
    if not api:
        tr = r["time_range"]
        want["training_start_s"] = tr["start_us"] / 1e6 if tr["start_us"] else None
        want["training_end_s"] = tr["end_us"] / 1e6 if tr["end_us"] else None
    for k, b in want.items():
        if not close(row[k], b, 1e-9):
            sys.exit(f"FAIL: {name!r} {k}: jobs --json {row[k]}, report --json {b}")


main()
