"""The job list screen (`smtop jobs`, captured from tmux) against
`smtop jobs --json` and `smtop report --json` for every row whose figures
come from the job's own files (issue 33: one truth on every surface).

A row's cells are read under the header's titles: the columns from TRAIN
to INST-H are right-aligned, so each cell ends where its title ends and
begins past the one before it (the sort mark rides on the title, inside
its width). Each cell must print what the screen's format
(tui/jobs/jobs_cells.c, tui/text/fmt.c) makes of the list's JSON figure
and of the report's summary:

  GPU% CPU% MEM%  "%.0f" (metrics_source debugger: the job's files)
  STEP            fmt_duration of the step p50 (step_source smdebug or
                  kineto; the report's summary.step_p50_us)
  ALRT            the rules that fired, blank when none (summary.alerts)
  IDLE-GPU-H      "%.1f" below 100, else "%.0f" (idle_gpu_source debugger)

usage:
  ui_jobs_files.py rows JOBS_JSON
      the names of the rows whose figures come from their files, one a line
  ui_jobs_files.py check SCREEN JOBS_JSON REPORT_DIR NAME...
      REPORT_DIR/NAME.json is `smtop report --json --job NAME`; every NAME
      must be such a row. Prints each row's cells; exits 1 with a FAIL line
      for each cell that differs (screen, jobs --json and report --json
      values printed), or when a NAME is missing or nothing was compared.
  ui_jobs_files.py narrow SCREEN JOBS_JSON REPORT_DIR NAME...
      the same on a narrow screen, where the list drops columns: a column
      not on the screen is named as dropped, not failed; GPU% and ALRT
      must be there (at 80 columns the list keeps NAME, STATUS, TYPE, AGE,
      TRAIN, GPU% and ALRT: tui/jobs/jobs_cells.c's priorities)."""
import json
import math
import sys

COLS = ["TRAIN", "GPU%", "CPU%", "MEM%", "STEP", "ALRT", "IDLE-GPU-H", "INST-H"]


def missing(v):
    return v is None or (isinstance(v, float) and math.isnan(v))


def pct(v):
    return "-" if missing(v) else "%.0f" % v


def hours(v):
    return "-" if missing(v) else ("%.1f" % v if v < 100 else "%.0f" % v)


def alerts(n):
    return str(n) if n else ""


def sig3(v):
    return 2 if v < 9.995 else 1 if v < 99.95 else 0


def duration(us):
    """tui/text/fmt.c's fmt_duration."""
    if missing(us) or us < 0:
        return "-"
    if us == 0:
        return "0 s"
    if us < 999.5:
        return ("%.1f us" if us < 9.95 else "%.0f us") % us
    if us < 999.5e3:
        ms = us / 1e3
        return "%.*f ms" % (sig3(ms), ms)
    if us < 59.95e6:
        s = us / 1e6
        return ("%.2f s" if s < 9.995 else "%.1f s") % s
    x = us / 1e6
    sec = int(math.floor(x + 0.5)) if x >= 0 else -int(math.floor(-x + 0.5))   # llround
    if sec < 3600:
        return "%d m %02d s" % (sec // 60, sec % 60)
    if sec < 86400:
        return "%d h %02d m" % (sec // 3600, sec % 3600 // 60)
    return "%d d %d h" % (sec // 86400, sec % 86400 // 3600)


def file_rows(jobs):
    return [j for j in jobs if j["metrics_source"] == "debugger"
            or j["step_source"] in ("smdebug", "kineto")]


def spans(header):
    """{title: (start, end)} of the right-aligned columns in the header."""
    ends = {}
    for t in COLS:
        i = header.find(t)
        if i < 0:
            continue
        e = i + len(t)
        while e < len(header) and header[e] in "\u25b2\u25bc^v":
            e += 1
        ends[t] = e
    out = {}
    prev = None
    for t in COLS:
        if t in ends and prev is not None:
            out[t] = (ends[prev] + 1, ends[t])
        if t in ends:
            prev = t
    return out


def wanted(row, rep):
    """{column: (jobs --json text, report --json text, the two values)}."""
    s = rep["summary"]
    w = {}
    if row["metrics_source"] == "debugger":
        for col, k in (("GPU%", "gpu_pct"), ("CPU%", "cpu_pct"), ("MEM%", "mem_pct")):
            w[col] = (pct(row[k]), pct(s[k]), row[k], s[k])
    if row["step_source"] in ("smdebug", "kineto"):
        ms, us = row["step_p50_ms"], s["step_p50_us"]
        w["STEP"] = (duration(None if missing(ms) else ms * 1e3), duration(us), ms, us)
    w["ALRT"] = (alerts(row["alerts"]), alerts(s["alerts"]), row["alerts"], s["alerts"])
    if row["idle_gpu_source"] == "debugger":
        w["IDLE-GPU-H"] = (hours(row["idle_gpu_hours"]), hours(s["idle_gpu_hours"]),
                           row["idle_gpu_hours"], s["idle_gpu_hours"])
    return w


KEPT = ("GPU%", "ALRT")   # never dropped at 80 columns


def check(screen_path, jobs_path, rep_dir, names, narrow=False):
    lines = open(screen_path, encoding="utf-8").read().split("\n")
    jobs = {j["name"]: j for j in json.load(open(jobs_path))["jobs"]}
    header = next((l for l in lines if l.startswith("NAME") and "ALRT" in l), None)
    if header is None:
        return ["FAIL: no column header on the screen"]
    sp = spans(header)
    fails, said, compared = [], [], 0
    for name in names:
        row = jobs.get(name)
        if row is None or row not in file_rows(jobs.values()):
            fails.append(f"FAIL: {name}: not a row whose figures come from its files in jobs --json")
            continue
        line = next((l for l in lines if l.startswith(name + " ")), None)
        if line is None:
            fails.append(f"FAIL: {name}: no row on the screen")
            continue
        rep = json.load(open(f"{rep_dir}/{name}.json"))
        cells = []
        for col, (tj, tr, vj, vr) in wanted(row, rep).items():
            if col not in sp:
                if narrow and col not in KEPT:
                    cells.append(f"{col} dropped")
                else:
                    fails.append(f"FAIL: {name}: no {col} column on the screen")
                continue
            a, b = sp[col]
            got = line[a:b].strip()
            compared += 1
            if got != tj or got != tr:
                fails.append(f"FAIL: {name} {col}: screen {got!r}, jobs --json {tj!r} ({vj}), "
                              f"report --json {tr!r} ({vr})")
            cells.append(f"{col} {got or '(blank)'}")
        said.append(f"{name}: " + ", ".join(cells))
    if not compared:
        fails.append("FAIL: nothing compared")
    return fails or said


def main():
    if sys.argv[1] == "rows":
        for j in file_rows(json.load(open(sys.argv[2]))["jobs"]):
            print(j["name"])
        return 0
    out = check(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:], sys.argv[1] == "narrow")
    print("\n".join(out))
    return 1 if out[0].startswith("FAIL") else 0


sys.exit(main())
