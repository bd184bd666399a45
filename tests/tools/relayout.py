#!/usr/bin/env python3
"""Rewrites every closed framework trace file under a profiler-output
directory in another valid JSON layout, as json.dump would write it:

  relayout.py oneline DIR   the whole array on one line
  relayout.py pretty DIR    pretty-printed (indent=2), an event over many lines
  relayout.py cut DIR       one line, then the largest file cut mid-event

Each file is read with json.load, as smdebug's readers read it."""
import glob
import json
import os
import sys


def files(root):
    return sorted(glob.glob(os.path.join(root, "framework/pevents/**/*.json"), recursive=True))


def main(mode, root):
    paths = files(root)
    if not paths:
        raise SystemExit(f"no trace files under {root}")
    for p in paths:
        with open(p) as f:
            doc = json.load(f)
        with open(p, "w") as f:
            if mode == "pretty":
                json.dump(doc, f, indent=2)
            else:
                json.dump(doc, f)
    if mode == "cut":
        big = max(paths, key=os.path.getsize)
        data = open(big, "rb").read()
        # cut inside the last event: from its opening brace, keep a few bytes
        at = data.rindex(b"{") + 5
        open(big, "wb").write(data[:at])
        print(os.path.relpath(big, root))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
