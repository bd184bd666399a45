#!/bin/bash
# Values at the edge of double (1e308, -1e308, DBL_MAX) keep the report's
# tables aligned: every row of a node's metrics table is exactly as wide
# as its header, and `diff` against a normal job keeps its lines short.
# report --json still carries the values as numbers.
source "$(dirname "$0")/it_lib.sh"
"$SMTOP" synth --out "$T/good" --nodes 1 --minutes 1 --seed 3 --no-traces >/dev/null || exit 1
cp -r "$T/good" "$T/huge"
for f in "$T"/huge/system/incremental/*/*.json; do
    python3 - "$f" <<'PY'
import re, sys
p = sys.argv[1]
out = []
for i, l in enumerate(open(p).read().splitlines()):
    for name, v in (("cpu1", "1e308"), ("cpu2", "-1e308"), ("eth0", "1.7976931348623157e308")):
        if '"Name":"%s"' % name in l and i % 3 == 0:
            l = re.sub(r'"Value":[^,]*', '"Value":' + v, l)
    out.append(l)
open(p, "w").write("\n".join(out) + "\n")
PY
done
"$SMTOP" report "$T/huge" >"$T/r.txt" || { echo "FAIL: report"; exit 1; }
python3 - "$T/r.txt" <<'PY' || exit 1
import sys
lines = open(sys.argv[1]).read().splitlines()
h = next(i for i, l in enumerate(lines) if l.lstrip().startswith("type ") and "max" in l)
rows = []
for l in lines[h + 1:]:
    if not l.strip():
        break
    rows.append(l)
bad = [l for l in rows if len(l) != len(lines[h])]
if not rows or bad:
    print("FAIL: metrics rows wider than the header (%d chars):" % len(lines[h]))
    print("\n".join([lines[h]] + bad))
    sys.exit(1)
if not any("e+308" in l for l in rows):
    sys.exit("FAIL: the huge values are not in the table")
print("ok: %d metric rows, all %d columns wide" % (len(rows), len(lines[h])))
PY
"$SMTOP" diff "$T/good" "$T/huge" >"$T/d.txt" || { echo "FAIL: diff"; exit 1; }
long=$(awk 'length > 160' "$T/d.txt" | head -3)
[ -z "$long" ] || { echo "FAIL: diff lines over 160 columns:"; echo "$long"; exit 1; }
"$SMTOP" report --json "$T/huge" | python3 -c '
import json, sys
d = json.load(sys.stdin)
mx = {m["name"]: m["max_" + m["unit"]] for m in d["nodes"][0]["metrics"]}
assert mx["cpu1"] == 1e308 and mx["eth0"] == 1.7976931348623157e308, mx
' || { echo "FAIL: report --json lost the values"; exit 1; }
echo "ok: diff stays narrow, report --json keeps the values"
