#!/usr/bin/env python3
"""why_view.py SCREEN REPORT_TXT [--first]: the dashboard's findings view
(`!`) against `smtop report`'s "causes and fixes" section. SCREEN is a
tmux capture of the view; its entries are unwrapped (continuation rows
start under the text) and each must equal the report's entry: the same
heading, cause, fix and where to look, in the same order. With --first,
only the first entry (an 80x24 page holds no more); else every entry, and
no other. Exit 1 with the first difference."""
import re
import sys


def report_entries(text):
    """[(heading, {cause, fix, look at})] of the report's section."""
    if "\n== causes and fixes ==\n" not in text:
        sys.exit("the report has no causes and fixes section")
    sec = text.split("\n== causes and fixes ==\n", 1)[1].split("\n== ", 1)[0]
    out = []
    for line in sec.splitlines():
        m = re.match(r"  (high|medium|low|info) +(.*)$", line)
        if m:
            out.append((m.group(1).upper(), m.group(2).strip(), {}))
            continue
        m = re.match(r" {9}(cause|fix|look at): +(.*)$", line)
        if m and out:
            out[-1][2][m.group(1)] = m.group(2).strip()
    return out


def screen_entries(screen):
    rows = []
    for line in screen.splitlines():
        m = re.match(r"^│ (.*?) *│$", line)
        if m:
            rows.append(m.group(1))
    out, key = [], None
    for r in rows[1:]:   # the first row is the view's keys
        m = re.match(r"^\[(HIGH|MEDIUM|LOW|INFO)\] (.*)$", r)
        if m:
            out.append((m.group(1), m.group(2).strip(), {}))
            key = "head"
            continue
        m = re.match(r"^  (cause|fix|look at): +(.*)$", r)
        if m and out:
            key = m.group(1)
            out[-1][2][key] = m.group(2).strip()
            continue
        if r.startswith(" " * 11) and out and key:
            if key == "head":
                out[-1] = (out[-1][0], out[-1][1] + " " + r.strip(), out[-1][2])
            else:
                out[-1][2][key] += " " + r.strip()
            continue
        key = None
    return out


def main():
    screen = open(sys.argv[1]).read()
    rep = report_entries(open(sys.argv[2]).read())
    got = screen_entries(screen)
    first = "--first" in sys.argv[3:]
    if first:
        rep, got = rep[:1], got[:1]
    if not rep:
        sys.exit("the report has no causes and fixes")
    if len(got) != len(rep):
        sys.exit(f"{len(got)} entries on screen, {len(rep)} in the report")
    for g, r in zip(got, rep):
        if g[:2] != r[:2]:
            sys.exit(f"heading: screen {g[:2]!r}, report {r[:2]!r}")
        for k in ("cause", "fix", "look at"):
            # a wrap at a space loses nothing; at a '/' or '(' the screen's
            # join adds a space the report lacks
            a, b = g[2].get(k, ""), r[2].get(k, "")
            if a != b and a.replace(" ", "") != b.replace(" ", ""):
                sys.exit(f"{r[1]}: {k}: screen {a!r}, report {b!r}")
    print(f"{len(got)} entries equal")


main()
