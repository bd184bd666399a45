"""The warnings on the screens against report --json (issue 33, point 1:
"W lists what the status line counts"; test_ui_warn_surfaces.sh). The
status line's "N files not read, M warnings (W)", the W view's title and
the lines it lists must be the report's warnings: its unread_files, the
files it names in unread, its messages (the noted problems, then one line
per file not read), its traces_unread and corrupt_lines. Nothing is
recomputed: every expected figure is read from the report. Each check is
also shown a wrong expectation (a count one more, a list one line short,
a file renamed) and must reject it, so a check that cannot fail fails.

usage: ui_warn_surfaces.py REPORT_JSON STATUS TITLE SCREEN_FILE
         STATUS: the status line's counts as shown ("2 files not read,
         1 warning (W)"); TITLE: the W view's title; SCREEN_FILE: the
         screen with the W view open.
One FAIL line per disagreement, exit 1; else one line of what agreed."""
import json
import re
import sys


class Check:
    def __init__(self):
        self.bad, self.said = [], []

    def eq(self, what, shown, want, wrong):
        """shown must be want, and must not pass for wrong (want made
        wrong on purpose: the self-check)."""
        if shown != want:
            self.bad.append(f"{what}: screen {shown!r}, report {want!r}")
        elif wrong == want or shown == wrong:
            self.bad.append(f"selftest: {what}: {shown!r} passes for {wrong!r}")
        else:
            self.said.append(f"{what} {shown if not isinstance(shown, list) else len(shown)}")

    def count(self, what, shown, want):
        self.eq(what, shown, want, want + 1)

    def end(self):
        for b in self.bad:
            print(f"FAIL: {b}")
        if not self.bad:
            print("agree: " + ", ".join(self.said))
        return 1 if self.bad else 0


def figure(pat, text):
    """The number pat's group 1 matched in text; 0 where pat is absent (a
    surface says nothing of a count of none)."""
    m = re.search(pat, text)
    return int(m.group(1)) if m else 0


def view_rows(screen):
    """The W view's lines: the rows under its title and key line, up to its
    bottom border, each without its frame."""
    lines = screen.split("\n")
    top = next(i for i, x in enumerate(lines) if " warnings: " in x and "noted" in x)
    rows = []
    for x in lines[top + 2:]:
        if x.startswith("└"):
            break
        body = re.sub(r"^│ ?", "", x)
        body = re.sub(r" *│ *$", "", body)
        if body:
            rows.append(body)
    return rows, len(lines[top].rstrip()) - 4


def main():
    rep = json.load(open(sys.argv[1]))
    status, title = sys.argv[2], sys.argv[3]
    screen = open(sys.argv[4], encoding="utf-8").read()
    w = rep["warnings"]
    msgs, unread = w["messages"], [u["key"] for u in w["unread"]]
    noted = len(msgs) - len(unread)
    c = Check()
    # the report's own two lists of files must agree before any screen can
    c.count("report unread_files = len(unread)", len(unread), w["unread_files"])
    c.count("status: files not read", figure(r"([0-9]+) files? not read", status), w["unread_files"])
    c.count("status: warnings", figure(r"([0-9]+) warnings? \(W\)", status), noted)
    c.count("W title: noted", figure(r"warnings: ([0-9]+) noted", title), noted)
    c.count("W title: files not read", figure(r"([0-9]+) files? not read", title), w["unread_files"])
    c.count("W title: traces", figure(r"\(([0-9]+) traces?\)", title), w["traces_unread"])
    c.count("W title: corrupt lines", figure(r"([0-9]+) corrupt lines?", title), w["corrupt_lines"])
    rows, width = view_rows(screen)
    # each line as the report words it, cut where the view's frame cuts it
    # (the view scrolls sideways for the rest)
    want = [m[:width] for m in msgs]
    c.eq("W lines", rows, want, want[:-1])
    if want:
        c.eq("W lines (one renamed)", rows, want, want[:-1] + [want[-1][:-1] + "~"])
    # every file not read, named whole in the view (the keys fit its width)
    named = [k for k in unread if any(r.startswith(k + ": ") for r in rows)]
    c.eq("W files not read", named, unread, unread + ["no/such/file.pt.trace.json.gz"])
    sys.exit(c.end())


if __name__ == "__main__":
    main()
