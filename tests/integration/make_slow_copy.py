#!/usr/bin/env python3
"""Slows a job down in place: every Step:* event's duration times FACTOR.

    make_slow_copy.py JOB_DIR [FACTOR]     (FACTOR default 1.5)

Used on a copy of a synthetic job so that `smtop diff` and the dashboard's
Diff pane have a known slowdown to show (TRAIN p50 +50 %, Forward and the
other phases unchanged)."""
import glob
import json
import sys


def slow_file(path, factor):
    out, steps = [], set()
    for line in open(path):
        s = line.rstrip("\n")
        body = s.rstrip(",")
        tail = s[len(body):]
        if body.strip() in ("[", "]", ""):
            out.append(s)
            continue
        e = json.loads(body)
        if (e.get("ph") == "M" and e.get("name") == "process_name"
                and str(e.get("args", {}).get("name", "")).startswith("Step:")):
            steps.add(e["pid"])
        if e.get("ph") == "X" and e.get("pid") in steps:
            e["dur"] = int(e["dur"] * factor)
        out.append(json.dumps(e) + tail)
    open(path, "w").write("\n".join(out) + "\n")


def main():
    factor = float(sys.argv[2]) if len(sys.argv) > 2 else 1.5
    for f in glob.glob(sys.argv[1] + "/framework/**/*.json*", recursive=True):
        slow_file(f, factor)


if __name__ == "__main__":
    main()
