"""Figures read off the screen against report --json (issue 33, the screens:
test_ui_surfaces.sh). Each screen figure must be the report's figure
rounded as the screen rounds it; nothing is recomputed, every expected
figure is read from the report. Each check is also shown the report's
figure pushed past the screen's rounding and must reject it, so a check
that cannot fail fails.

usage: ui_surfaces.py list DIR HEADER LABELS NAME ROW [NAME ROW...]
         the job list: the cells under LABELS (comma-separated: STEP, ALRT,
         IDLE-GPU-H) of each NAME's ROW, against DIR/NAME.json
       ui_surfaces.py dash REPORT_JSON WIDE NODES ALERTS IDLE STEPS_HEAD N P50 SAMPLES
         the dashboard: the text each pattern of test_ui_surfaces.sh
         matched, "" for none; P50 and SAMPLES are read only when WIDE is 1
         (at 80x24 the Steps pane has no room for the one, the verdict row
         for the other)
One FAIL line per disagreement, exit 1; else one line of what agreed."""
import json
import re
import sys


def near(shown, target):
    """shown ("121 ms", "0.1", "81") is target (ms for a duration) rounded
    to shown's last digit."""
    m = re.fullmatch(r"\s*([0-9]+)(?:\.([0-9]+))?(?: (us|ms|s))?\s*", shown)
    if not m or target is None:
        return False
    unit = {None: 1, "us": 1e-3, "ms": 1, "s": 1e3}[m.group(3)]
    v = float(m.group(1) + "." + (m.group(2) or "0")) * unit
    half = 0.5 * 10 ** -len(m.group(2) or "") * unit
    return abs(v - float(target)) <= half * (1 + 1e-9)


class Check:
    def __init__(self, who):
        self.who, self.bad, self.said = who, [], []

    def num(self, what, shown, want):
        if want is None:   # the screen shows nothing for it
            if shown.strip() not in ("", "-"):
                self.bad.append(f"{what}: screen {shown!r}, report none")
            return
        if not near(shown, want):
            self.bad.append(f"{what}: screen {shown!r}, report {want!r}")
        elif near(shown, float(want) * 1.05 + 1):
            self.bad.append(f"selftest: {what}: {shown!r} passes for {float(want) * 1.05 + 1}")
        else:
            self.said.append(f"{what} {shown.strip()}")

    def text(self, what, shown, want):
        if shown != want:
            self.bad.append(f"{what}: screen {shown!r}, report {want!r}")
        elif shown == re.sub(r"[0-9]+", lambda m: str(int(m.group()) + 1), want, count=1):
            self.bad.append(f"selftest: {what}: {shown!r} passes for a count one more")
        else:
            self.said.append(f"{what} {shown}")

    def end(self):
        for b in self.bad:
            print(f"FAIL: {self.who}: {b}")
        if not self.bad:
            print(f"{self.who}: " + ", ".join(self.said))
        return 1 if self.bad else 0


def load(path):
    return json.load(open(path))


def cells(header, row, labels):
    # a cell is right-aligned under its label, after the column before it
    # (NAME, left-aligned, is never asked for)
    out = []
    for x in labels:
        i = header.index(x)
        out.append(row[len(header[:i].rstrip()):i + len(x)])
    return out


def job_list(d, header, labels, pairs):
    rc = 0
    labels = labels.split(",")
    for name, row in zip(pairs[::2], pairs[1::2]):
        s = load(f"{d}/{name}.json")["summary"]
        c = Check(name)
        for label, shown in zip(labels, cells(header, row, labels)):
            if label == "STEP":
                c.num("STEP", shown, None if s["step_p50_us"] is None else s["step_p50_us"] / 1e3)
            elif label == "ALRT":   # blank when none
                c.num("ALRT", shown, s["alerts"] or None)
            else:
                c.num(label, shown, s["idle_gpu_hours"])
        rc |= c.end()
    return rc


def dash(path, wide, nodes, alerts, idle, head, n, p50, samples):
    rep = load(path)
    s = rep["summary"]
    c = Check(re.sub(r"\.json$", "", path.rsplit("/", 1)[-1]))
    c.num("nodes", re.sub(r"[^0-9]", "", nodes), s["nodes"])
    c.num("alerts", re.sub(r" .*", "", alerts), s["alerts"])
    fired = [r["severity"] for r in rep["rules"] if r["status"] == "triggered"]
    c.text("high/medium/low", "/".join(re.findall(r"([0-9]+) (?:high|medium|low)", alerts)),
           "/".join(str(fired.count(x)) for x in ("high", "medium", "low")))
    # the verdict's idle share of the traced steps (a Kineto finding)
    want = next((m.group(1) for f in rep["verdict"]["findings"]
                 for m in [re.match(r"GPU idle ([0-9.]+) %", f["text"])] if m), None)
    c.num("GPU idle %", re.sub(r"[^0-9.]", "", idle), want)
    if wide == "1":
        # the system metrics' idle share: the idle GPU-hours over all of them
        told = any(f["source"] == "idle_gpu" for f in rep["verdict"]["findings"])
        c.num("GPU < 10 % in N % of samples", re.sub(r".* in ([0-9.]+) %.*", r"\1", samples),
              100 * s["idle_gpu_hours"] / s["gpu_hours"] if told else None)
    if not head:
        c.bad.append("no Steps pane head (NODE  TRAIN)")
    else:
        # the Steps pane opens on a node's TRAIN steps, all its processes
        node = head.strip("│> ").split()[0]
        st = [x for x in rep["steps"] if x["node"] == node and x["process"] is None
              and x["kind"] == "step" and "TRAIN" in x["phase"]]
        if len(st) != 1:
            c.bad.append(f"{len(st)} TRAIN step rows for {node!r} in the report")
        else:
            c.num(f"Steps {node} n", re.sub(r"[^0-9]", "", n), st[0]["count"])
            if wide == "1":
                c.num(f"Steps {node} p50", re.sub(r"^│p50 ", "", p50), st[0]["p50_us"] / 1e3)
    return c.end()


def main():
    a = sys.argv
    if a[1] == "list":
        sys.exit(job_list(a[2], a[3], a[4], a[5:]))
    sys.exit(dash(*(a[2:11] + [""] * (11 - len(a)))))


if __name__ == "__main__":
    main()
