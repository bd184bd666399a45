#!/usr/bin/env python3
"""No module over 800 lines, its header included.

    scripts/module_sizes.py [--all]

A module is a .c file of model/, io/ or tui/ with the header of the same
name beside it (a header alone is a module too). Prints each module over
the limit with its lines, or with --all every module, largest first, and
exits 1 when one is over, else 0."""

import os
import sys

LIMIT = 800
LAYERS = ("model", "io", "tui")


def lines(path):
    with open(path, errors="replace") as f:
        return sum(1 for _ in f)


def modules(root):
    sizes = {}
    for layer in LAYERS:
        for dirpath, _, names in os.walk(os.path.join(root, layer)):
            for name in names:
                stem, ext = os.path.splitext(name)
                if ext not in (".c", ".h"):
                    continue
                key = os.path.relpath(os.path.join(dirpath, stem), root)
                sizes[key] = sizes.get(key, 0) + lines(os.path.join(dirpath, name))
    return sizes


def main(argv):
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    sizes = modules(root)
    over = {k: n for k, n in sizes.items() if n > LIMIT}
    shown = sizes if "--all" in argv else over
    for k, n in sorted(shown.items(), key=lambda kv: -kv[1]):
        print("%5d %s%s" % (n, k, "  (over %d)" % LIMIT if n > LIMIT else ""))
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
