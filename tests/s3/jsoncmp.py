#!/usr/bin/env python3
"""Compares two `smtop report --json` outputs: same structure, same strings,
integers exactly equal, floats equal to 1e-9 relative (the order in which
parallel fetches complete changes the last bits of a floating-point sum,
never a count). Keys named after the two files are ignored (e.g. source).

    python3 jsoncmp.py A.json B.json [IGNORED_KEY ...]
"""
import json
import sys


def cmp(x, y, where, ignored, diffs):
    if isinstance(x, bool) or isinstance(y, bool):
        if x is not y:
            diffs.append(f"{where}: {x!r} != {y!r}")
    elif isinstance(x, (int, float)) and isinstance(y, (int, float)):
        if isinstance(x, int) and isinstance(y, int):
            ok = x == y
        else:
            ok = abs(x - y) <= 1e-9 * max(1.0, abs(x), abs(y))
        if not ok:
            diffs.append(f"{where}: {x} != {y}")
    elif isinstance(x, list) and isinstance(y, list):
        if len(x) != len(y):
            diffs.append(f"{where}: length {len(x)} != {len(y)}")
        else:
            for i, (a, b) in enumerate(zip(x, y)):
                cmp(a, b, f"{where}[{i}]", ignored, diffs)
    elif isinstance(x, dict) and isinstance(y, dict):
        for k in sorted(set(x) | set(y)):
            if k not in ignored:
                cmp(x.get(k), y.get(k), f"{where}.{k}", ignored, diffs)
    elif x != y:
        diffs.append(f"{where}: {x!r} != {y!r}")


def main():
    a, b, *ignored = sys.argv[1:]
    diffs = []
    with open(a) as fa, open(b) as fb:
        cmp(json.load(fa), json.load(fb), "$", set(ignored), diffs)
    for d in diffs[:20]:
        print(d)
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
