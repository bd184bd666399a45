#!/usr/bin/env python3
"""slow_kernels.py DIR [FACTOR]: multiplies the duration of every GPU
kernel event (cat "kernel" or legacy "Kernel") in the PyTorch profiler
traces under DIR (*.pt.trace.json[.gz], rewritten in place) by FACTOR
(default 1.5): a job whose kernels all got slower, for diff tests."""
import glob
import gzip
import json
import sys


def main():
    factor = float(sys.argv[2]) if len(sys.argv) > 2 else 1.5
    files = glob.glob(sys.argv[1] + "/**/*.pt.trace.json*", recursive=True)
    n = 0
    for path in files:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt") as f:
            d = json.load(f)
        for e in d.get("traceEvents", []):
            if e.get("ph") == "X" and e.get("cat") in ("kernel", "Kernel"):
                e["dur"] = round(e["dur"] * factor, 3)
                n += 1
        with opener(path, "wt") as f:
            json.dump(d, f)
    print(f"{n} kernels slowed in {len(files)} traces")
    return 0 if n else 1


if __name__ == "__main__":
    sys.exit(main())
