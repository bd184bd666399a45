#!/usr/bin/env python3
"""The include graph by folder, held against the floors of HACKING.md.

    scripts/floors.py                 check; prints nothing and exits 0 when
                                      every include runs down a floor
    scripts/floors.py --graph [PART]  the folder graph, floor by floor, for
                                      the tree or for PART (io, model, tui)

A node is a folder (model/core), or a file standing alone at a layer's
root (model/model.h, model/records.h). An include is read from the
`#include "..."` lines of every .c and .h under model/, io/ and tui/
(written from the repository root, HACKING.md "Layers"). The rules:

  - layers: tui/ may include io/ and model/, io/ may include model/,
    model/ includes neither;
  - inside a layer, a folder includes only folders on lower floors of
    FLOORS below (two folders on one floor are independent);
  - so no cycle spans two folders; the check also looks for one directly.

A new folder needs its row in FLOORS: the check names it until it has one.
Exit status: 0 clean, 1 with one line per include that breaks a rule."""

import os
import re
import sys

# Lowest floor first. A row is one floor; its folders may not include each
# other. Keep in step with HACKING.md "The floors".
FLOORS = {
    "model": [
        ["model/util"],
        ["model/records.h"],
        ["model/series", "model/pystats"],
        ["model/steps", "model/gpu"],
        ["model/core"],
        ["model/query"],
        ["model/rules"],
        ["model/view", "model/jobs"],
    ],
    "io": [
        ["io/aws", "io/synth"],
        ["io/source"],
        ["io/decode"],
        ["io/scan"],
        ["io/jobs"],
        ["io/run"],
        ["io/export"],
    ],
    "tui": [
        ["tui/term", "tui/text", "tui/conf"],
        ["tui/theme"],
        ["tui/report"],
        ["tui/panes"],
        ["tui/dash", "tui/jobs"],
        ["tui/cmd"],
    ],
}
LAYERS = ["model", "io", "tui"]          # lowest first

# Includes that the floors allow but a rule of the house does not: (from
# folder, to path prefix, why).
NEVER = [
    ("tui/panes", "io/", "a pane draws the snapshot: it includes nothing from io/"),
]
# Known breaks of NEVER, each to go (a note, not a failure, once gone).
NEVER_UNTIL = {
    # names are cleaned once at ingest (HACKING §1): the Top table then
    # needs no decoder's sanitizer at draw time
    "tui/panes/pane_python_kineto.c -> io/decode/kineto_decode.h",
}

INCLUDE = re.compile(r'\s*#\s*include\s+"([^"]+)"')


# A layer's public header that belongs to a room below it.
FACES = {"model/model.h": "model/core"}


def node_of(path):
    """The graph node of a repository path: its folder, or the file itself
    when it stands at a layer's root (model/model.h is core's face)."""
    if path in FACES:
        return FACES[path]
    parts = path.split("/")
    if len(parts) == 2:
        return path
    return "/".join(parts[:-1])


def floor_of(node):
    layer = node.split("/")[0]
    for i, row in enumerate(FLOORS.get(layer, [])):
        if node in row:
            return i
    return None


def read_edges(root):
    """{(from node, to node): [file -> include, ...]} across nodes."""
    edges = {}
    for layer in LAYERS:
        for dirpath, _, names in os.walk(os.path.join(root, layer)):
            for name in sorted(names):
                if not name.endswith((".c", ".h")):
                    continue
                path = os.path.relpath(os.path.join(dirpath, name), root)
                with open(os.path.join(root, path), errors="replace") as f:
                    for line in f:
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        inc = m.group(1)
                        if "/" not in inc:
                            inc = os.path.join(os.path.dirname(path), inc)
                        if inc.split("/")[0] not in LAYERS:
                            continue
                        a, b = node_of(path), node_of(inc)
                        if a != b:
                            edges.setdefault((a, b), []).append(path + " -> " + inc)
    return edges


def cycles(nodes, edges):
    """Strongly connected sets of more than one node (Tarjan)."""
    succ = {n: sorted(b for (a, b) in edges if a == n) for n in nodes}
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in succ.get(v, []):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for n in sorted(nodes):
        if n not in index:
            visit(n)
    return out


def check(edges):
    bad = []
    nodes = {n for e in edges for n in e}
    for n in sorted(nodes):
        if floor_of(n) is None:
            bad.append("%s: no floor (add it to FLOORS in scripts/floors.py "
                       "and to HACKING.md)" % n)
    for (a, b), why in sorted(edges.items()):
        la, lb = LAYERS.index(a.split("/")[0]), LAYERS.index(b.split("/")[0])
        fa, fb = floor_of(a), floor_of(b)
        if la < lb:
            up = "layer %s includes layer %s" % (LAYERS[la], LAYERS[lb])
        elif la == lb and fa is not None and fb is not None and fb >= fa:
            up = ("%s (floor %d) includes %s (floor %d)"
                  % (a, fa + 1, b, fb + 1))
        else:
            continue
        for w in why:
            bad.append("%s: %s" % (w, up))
    for comp in cycles(nodes, edges):
        bad.append("cycle across folders: " + " <-> ".join(comp))
    seen = set()
    for (a, b), why in sorted(edges.items()):
        for frm, to, reason in NEVER:
            if a == frm and (b + "/").startswith(to):
                for w in why:
                    seen.add(w)
                    if w not in NEVER_UNTIL:
                        bad.append("%s: %s" % (w, reason))
    for w in sorted(NEVER_UNTIL - seen):
        print("note: %s is gone: drop it from NEVER_UNTIL" % w, file=sys.stderr)
    return bad


def graph(edges, part):
    def shown(n):
        return part is None or n.split("/")[0] == part

    def group(n):
        # The tree is drawn by layer; a part by its folders.
        return n.split("/")[0] if part is None else n

    g = {}
    for (a, b), why in edges.items():
        if not (shown(a) and shown(b)):
            continue
        ga, gb = group(a), group(b)
        if ga != gb:
            g[(ga, gb)] = g.get((ga, gb), 0) + len(why)
    rows = FLOORS[part] if part else [[l] for l in LAYERS]
    up = 0
    nodes = set()
    for (a, b), n in g.items():
        nodes |= {a, b}
    for i in reversed(range(len(rows))):
        for node in rows[i]:
            outs = ["%s (%d)" % (b, n) for (a, b), n in sorted(g.items()) if a == node]
            print("floor %d  %-18s -> %s" % (i + 1, node, ", ".join(outs) or "-"))
    for (a, b), n in sorted(g.items()):
        fa = LAYERS.index(a) if part is None else floor_of(a)
        fb = LAYERS.index(b) if part is None else floor_of(b)
        if fa is not None and fb is not None and fb >= fa:
            up += 1
            print("  runs up: %s -> %s (%d includes)" % (a, b, n))
    for node in sorted(nodes):
        if (part is None and node not in LAYERS) or (part and floor_of(node) is None):
            outs = ["%s (%d)" % (b, n) for (a, b), n in sorted(g.items()) if a == node]
            print("no floor %-18s -> %s" % (node, ", ".join(outs) or "-"))
    comps = cycles(nodes, g)
    for comp in comps:
        print("  cycle: " + " <-> ".join(comp))
    print("%d folders, %d arrows, %d running up, %d cycles across folders"
          % (len(nodes), len(g), up, len(comps)))


def main(argv):
    root = os.environ.get("FLOORS_ROOT") or os.path.normpath(
        os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    edges = read_edges(root)
    if len(argv) > 1 and argv[1] == "--graph":
        part = argv[2] if len(argv) > 2 else None
        if part is not None and part not in FLOORS:
            print("usage: floors.py --graph [io|model|tui]", file=sys.stderr)
            return 2
        graph(edges, part)
        return 0
    bad = check(edges)
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
