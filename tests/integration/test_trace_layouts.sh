#!/usr/bin/env bash
# A closed trace file is plain JSON: the whole array on one line, or
# pretty-printed, gives the same events as the writer's one-event-per-line
# form — in report (steps, warnings) and export alike. A single-line file
# cut mid-event keeps every event before the cut and counts one partial.
set -o pipefail
source "$(dirname "$0")/it_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
tmp=$T
relayout="$SMTOP_SRC/tests/tools/relayout.py"

"$SMTOP" synth --out "$tmp/lines" --nodes 2 --minutes 3 --seed 11 >/dev/null || fail_now synth
rm -f "$tmp"/lines/framework/*.tmp   # the open file is the writer's own form
for l in oneline pretty cut; do
    cp -r "$tmp/lines" "$tmp/$l"
    python3 "$relayout" "$l" "$tmp/$l" >"$tmp/$l.out" || fail_now "relayout $l"
done
head -c 300 "$(ls "$tmp"/oneline/framework/pevents/*/*.json | head -1)" | grep -q '^\[{' \
    || fail_now "oneline fixture is not one line"
for l in lines oneline pretty cut; do
    "$SMTOP" report --json "$tmp/$l" >"$tmp/$l.json" 2>"$tmp/$l.err" || fail_now "report $l: $(cat "$tmp/$l.err")"
    "$SMTOP_SRC/tests/tools/schema_ok.sh" "$tmp/$l.json" || fail_now "schema"
    "$SMTOP" export --perfetto "$tmp/$l.trace" --no-system "$tmp/$l" 2>"$tmp/$l.xerr" ||
        fail_now "export $l: $(cat "$tmp/$l.xerr")"
done

python3 - "$tmp" "$(cat "$tmp/cut.out")" <<'PY' || fail_now "layouts disagree"
import json, sys
tmp, cut = sys.argv[1], sys.argv[2]
def rep(l): return json.load(open(f"{tmp}/{l}.json"))
def events(l):
    return sorted((e["name"], e["ts"], e.get("dur"), e["pid"] , e.get("tid"))
                  for e in json.load(open(f"{tmp}/{l}.trace"))["traceEvents"] if e["ph"] == "X")
base = rep("lines")
assert sum(s["count"] for s in base["steps"] if s["process"] is None) > 1000, "too few events to compare"
for l in ("oneline", "pretty"):
    r = rep(l)
    assert r["steps"] == base["steps"], (l, "steps differ")
    w = r["warnings"]
    assert w["corrupt_lines"] == 0 and w["partial_lines"] == 0 and w["unread_files"] == 0, (l, w)
    assert events(l) == events("lines"), (l, "export differs")
# the cut file: every event but the one cut, and one partial named
r = rep("cut")
w = r["warnings"]
assert w["partial_lines"] == 1 and w["corrupt_lines"] == 0, w
lost = sum(s["count"] for s in base["steps"] if s["process"] is None) - sum(s["count"] for s in r["steps"] if s["process"] is None)
assert lost == 1, lost
assert len(events("lines")) - len(events("cut")) == 1
print("steps", sum(s["count"] for s in base["steps"] if s["process"] is None), "events", len(events("lines")))
PY
echo "OK"
