#!/usr/bin/env python3
"""Every exported symbol carries its module's prefix, by nm on the objects.

    scripts/names.py BUILD_DIR [-v]

Reads the objects of smtop's three libraries (BUILD_DIR/CMakeFiles/
smtop_{model,io,tui}.dir/**.o) with `nm -g --defined-only` and holds each
defined global symbol against the prefixes its source file may use:

  - the file's stem or a leading part of it, cut at an underscore
    (io/scan/scan_feed.c: scan_feed_*, scan_*);
  - its folder's name (model/rules/rule_cursor.c: rules_*).

A symbol is the prefix itself or the prefix, an underscore and more.
Prints the count ("1260 of 1260 exported symbols carry their module's
prefix"), then with -v or when some do not, one line per symbol that does
not (object, symbol). Exit status 0 when all do, 1 otherwise, 2 on a
usage error."""

import os
import subprocess
import sys

LIBS = ("smtop_model", "smtop_io", "smtop_tui")


def prefixes(src):
    """The prefixes a symbol defined in the repository file src may use."""
    folder = os.path.basename(os.path.dirname(src))
    stem = os.path.splitext(os.path.basename(src))[0]
    words = stem.split("_")
    out = {"_".join(words[:i]) for i in range(1, len(words) + 1)}
    out.add(folder)
    return out


def carries(sym, pres):
    return any(sym == p or sym.startswith(p + "_") for p in pres)


def objects(build, root):
    """(object, source) of each library object whose source still exists
    (a build tree keeps the objects of files since moved or removed)."""
    for lib in LIBS:
        top = os.path.join(build, "CMakeFiles", lib + ".dir")
        for dirpath, _, names in os.walk(top):
            for name in sorted(names):
                if name.endswith(".c.o"):
                    obj = os.path.join(dirpath, name)
                    # CMakeFiles/LIB.dir/<source path>.o
                    src = os.path.relpath(obj, top)[:-2]
                    if os.path.exists(os.path.join(root, src)):
                        yield obj, src


def defined(objs):
    """{object: [defined global symbol, ...]}, from one nm over them all."""
    out = subprocess.run(["nm", "-A", "-g", "--defined-only"] + objs, check=True,
                         capture_output=True, text=True).stdout
    syms = {o: [] for o in objs}
    for line in out.splitlines():
        # "OBJECT:ADDRESS TYPE NAME" (no address for some types)
        obj, _, rest = line.partition(":")
        parts = rest.split()
        # A name starting "__" is the compiler's (a sanitizer's ODR
        # indicator, say), not the module's.
        if len(parts) >= 2 and parts[-2] in "TDBRVWGSC" and not parts[-1].startswith("__"):
            syms.setdefault(obj, []).append(parts[-1])
    return syms


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    build, verbose = argv[1], "-v" in argv[2:]
    root = os.environ.get("NAMES_ROOT") or os.path.normpath(
        os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    total, bad = 0, []
    objs = sorted(objects(build, root))
    syms = defined([o for o, _ in objs]) if objs else {}
    for obj, src in objs:
        pres = prefixes(src)
        for sym in syms.get(obj, []):
            total += 1
            if not carries(sym, pres):
                bad.append((src, sym))
    if total == 0:
        print("no objects under %s/CMakeFiles/smtop_*.dir" % build, file=sys.stderr)
        return 2
    print("%d of %d exported symbols carry their module's prefix"
          % (total - len(bad), total))
    if bad or verbose:
        for src, sym in bad:
            print("  %s: %s" % (src, sym))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
