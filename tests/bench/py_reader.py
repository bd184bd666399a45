#!/usr/bin/env python3
"""Baseline for tests/bench/bench_report.sh: the plain Python way to read a
profiler-output tree, one json.loads per system line accumulating count and
sum per series, and json.load per closed trace file accumulating step
durations per phase. It does roughly what `smtop report` must do, with the
standard library only, so the two can be timed side by side."""
import collections
import json
import os
import sys


def read_system(path, series):
    with open(path, "rb") as f:
        for line in f:
            try:
                r = json.loads(line)
            except ValueError:
                continue
            key = (r.get("NodeId"), r.get("Type"), r.get("Dimension"), r.get("Name"))
            s = series[key]
            s[0] += 1
            s[1] += r["Value"]


def read_trace(path, steps):
    with open(path, "rb") as f:
        try:
            events = json.load(f)
        except ValueError:
            return
    names = {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "process_name":
            names[e.get("pid")] = e.get("args", {}).get("name")
        elif e.get("ph") == "X":
            s = steps[names.get(e.get("pid"))]
            s[0] += 1
            s[1] += e.get("dur", 0)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: py_reader.py PROFILER_OUTPUT_DIR")
    series = collections.defaultdict(lambda: [0, 0.0])
    steps = collections.defaultdict(lambda: [0, 0])
    for root, _, files in os.walk(sys.argv[1]):
        for name in files:
            path = os.path.join(root, name)
            if "/system/" in path and name.endswith(".json"):
                read_system(path, series)
            elif "/framework/pevents/" in path and name.endswith(".json"):
                read_trace(path, steps)
    lines = sum(s[0] for s in series.values())
    events = sum(s[0] for s in steps.values())
    print("%d series, %d lines; %d phases, %d events" % (len(series), lines, len(steps), events))


if __name__ == "__main__":
    main()
