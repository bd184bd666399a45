#!/usr/bin/env bash
# A trace file larger than one read (16 MB, SCAN_READ_CHUNK) is read in
# pieces by report and export alike, in every JSON layout: the events cut
# by a piece's end are joined, none is lost or counted twice, and no line
# is called corrupt or partial. (Memory that does not grow with the file is
# a benchmark's claim: tests/bench/bench_layouts.sh.)
set -o pipefail
source "$(dirname "$0")/it_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
tmp=$T

for layout in lines oneline pretty; do
    python3 - "$layout" "$tmp/$layout" <<'PY' >"$tmp/$layout.n" || fail_now "fixture $layout"
import json, os, sys
layout, root = sys.argv[1], sys.argv[2]
base = 1591748100000000
d = os.path.join(root, "framework/pevents/2020061000")
os.makedirs(d)
ev = [{"name": "process_name", "ph": "M", "pid": 0,
       "args": {"start_time_since_epoch_in_micros": base}},
      {"name": "process_name", "ph": "M", "pid": 1, "args": {"name": "Step:ModeKeys.TRAIN"}},
      {"name": "process_name", "ph": "M", "pid": 2, "args": {"name": "Forward"}}]
n = 150000 if layout == "pretty" else 200000   # ~18-25 MB: past one read
for i in range(n):
    ev.append({"name": "Step", "ph": "X", "ts": i * 1000, "dur": 900 + i % 97,
               "pid": 1 + i % 2, "tid": 7, "args": {"step_num": str(i)}})
path = os.path.join(d, f"{base + n * 1000}_1-algo-1_pythontimeline.json")
with open(path, "w") as f:
    if layout == "lines":
        f.write("[\n" + ",\n".join(json.dumps(e) for e in ev) + "\n]\n")
    elif layout == "oneline":
        json.dump(ev, f)
    else:
        json.dump(ev, f, indent=2)
assert os.path.getsize(path) > 16 << 20, os.path.getsize(path)
print(n)
PY
    n=$(cat "$tmp/$layout.n")
    "$SMTOP" report --json "$tmp/$layout" >"$tmp/$layout.json" || fail_now "report $layout"
    "$SMTOP" export --perfetto "$tmp/$layout.x" --no-system "$tmp/$layout" 2>"$tmp/$layout.err" ||
        fail_now "export $layout: $(cat "$tmp/$layout.err")"
    python3 - "$tmp/$layout.json" "$tmp/$layout.x" "$n" "$layout" <<'PY' || fail_now "$layout: events lost"
import json, sys
r, x, n, layout = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3]), sys.argv[4]
rows = {s["phase"]: s["count"] for s in r["steps"] if s["process"] is None}
assert rows == {"Step:ModeKeys.TRAIN": n // 2, "Forward": n // 2}, (layout, rows)
w = r["warnings"]
assert (w["corrupt_lines"], w["partial_lines"], w["skipped_files"]) == (0, 0, 0), (layout, w)
xs = [e for e in x["traceEvents"] if e["ph"] == "X"]
assert len(xs) == n, (layout, len(xs), n)
assert sorted(int(e["args"]["step"]) for e in xs) == list(range(n)), layout
print(f"{layout}: {n} events in report and export")
PY
    rm -rf "${tmp:?}/$layout" "$tmp/$layout.x"
done
echo "OK"
