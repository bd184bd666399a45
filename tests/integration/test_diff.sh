#!/usr/bin/env bash
# `smtop diff`: a job against itself shows no change; against a copy whose
# Step durations were scaled by 1.5 it shows the +50 % slowdown, marked;
# against a copy whose one node is renamed it pairs every node row.
set -eo pipefail
source "$(dirname "$0")/it_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
tmp=$T

"$SMTOP" synth --out "$tmp/base" --nodes 2 --gpus 1 --cpus 2 --minutes 2 >/dev/null || die synth

"$SMTOP" diff "$tmp/base" "$tmp/base" >"$tmp/self.txt" || die "self diff exit"
grep -q "No change" "$tmp/self.txt" || { cat "$tmp/self.txt"; die "self diff shows a change"; }
# Unchanged rows are under the noise threshold: hidden by default, shown with 0.
! grep -q "Step:ModeKeys.TRAIN p50" "$tmp/self.txt" || die "self diff prints unchanged rows"
"$SMTOP" diff --threshold 0 "$tmp/base" "$tmp/base" >"$tmp/self0.txt" || die "--threshold 0"
grep -q "Step:ModeKeys.TRAIN p50" "$tmp/self0.txt" || die "self diff --threshold 0 lacks step rows"
rc=0; "$SMTOP" diff --threshold x "$tmp/base" "$tmp/base" 2>/dev/null || rc=$?
[ "$rc" -eq 2 ] || die "--threshold x should exit 2"
"$SMTOP" diff --json "$tmp/base" "$tmp/base" >"$tmp/self.json" || die "self diff --json"
"$SMTOP_SRC/tests/tools/schema_ok.sh" "$tmp/self.json" || die "schema"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["changed"] == 0, d["changed"]
assert d["steps"] and d["utilization"] and d["breakdown"]
assert all(r["change_pct"] in (0, None) for k in ("steps", "utilization", "breakdown") for r in d[k])
' "$tmp/self.json" || die "self diff json"

cp -r "$tmp/base" "$tmp/slow"
python3 "$(dirname "$0")/make_slow_copy.py" "$tmp/slow" || die "make_slow_copy.py"

"$SMTOP" diff --json "$tmp/base" "$tmp/slow" >"$tmp/slow.json" || die "slow diff --json"
"$SMTOP_SRC/tests/tools/schema_ok.sh" "$tmp/slow.json" || die "schema"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rows = [r for r in d["steps"] if r["phase"] == "Step:ModeKeys.TRAIN" and r["stat"] == "p50_us"]
assert len(rows) == 2, rows
for r in rows:
    assert 49.5 < r["change_pct"] < 50.5, r
fw = [r for r in d["steps"] if r["phase"] == "Forward"]
assert fw and all(r["change_pct"] == 0 for r in fw), "Forward must not change"
assert d["changed"] > 0
other = [r for r in d["breakdown"] if r["category"] == "other"]
assert all(r["target_us"] > r["base_us"] for r in other), other
' "$tmp/slow.json" || die "slow diff json"

if locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$'; then
  LC_ALL=C.UTF-8 "$SMTOP" diff "$tmp/base" "$tmp/slow" >"$tmp/slow.txt" || die "slow diff"
  grep -E "Step:ModeKeys.TRAIN p50 .*\+5[0-9]\.[0-9] % ▲" "$tmp/slow.txt" >/dev/null \
    || { cat "$tmp/slow.txt"; die "UTF-8 slowdown mark"; }
fi
LC_ALL=C "$SMTOP" diff "$tmp/base" "$tmp/slow" >"$tmp/ascii.txt" || die "ascii diff"
# The headline first (issue 26): the job-wide TRAIN p50 change and the worst node.
sed -n 3p "$tmp/ascii.txt" | grep -Eq '^headline: TRAIN p50 \+(49|50) % job-wide, worst algo-[0-9]+ \+(49|50) %$' \
  || { head -4 "$tmp/ascii.txt"; die "no headline"; }
grep -Eq '^[0-9]+ values changed; [0-9]+ under the noise floor left out \(0 -> 0, or under 1 % or 0\.1 ms\); [0-9]+ rows under 2 % hidden \(--threshold\)\.$' "$tmp/ascii.txt" \
  || { tail -2 "$tmp/ascii.txt"; die "no hidden count"; }
grep -E "Step:ModeKeys.TRAIN p50 .*\+(49\.[5-9]|50\.[0-4]) % \+$" "$tmp/ascii.txt" >/dev/null \
  || { cat "$tmp/ascii.txt"; die "ASCII slowdown mark"; }
LC_ALL=C grep -q $'\xe2' "$tmp/ascii.txt" && die "non-ASCII output in the C locale"

# Two one-node jobs pair their nodes whatever they are called (algo-1
# against a CloudWatch host or a Kineto host name): utilization and
# breakdown rows as well as step rows, each naming the target's node.
"$SMTOP" synth --out "$tmp/one" --nodes 1 --gpus 1 --cpus 2 --minutes 2 >/dev/null || die synth
cp -r "$tmp/one" "$tmp/renamed"
find "$tmp/renamed" -name '*algo-1*' | while read -r f; do mv "$f" "${f//algo-1/algo-9}"; done
grep -rl algo-1 "$tmp/renamed" | xargs -r sed -i 's/algo-1/algo-9/g'
"$SMTOP" diff --json "$tmp/one" "$tmp/renamed" >"$tmp/renamed.json" || die "renamed diff --json"
"$SMTOP_SRC/tests/tools/schema_ok.sh" "$tmp/renamed.json" || die "schema"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for k, n in (("steps", 20), ("utilization", 4), ("breakdown", 4)):
    assert len(d[k]) == n, (k, len(d[k]))
    assert all((r["node"], r["target_node"]) == ("algo-1", "algo-9") for r in d[k]), d[k]
assert d["changed"] == 0, d["changed"]
' "$tmp/renamed.json" || die "one-node jobs of other names: rows not paired"
LC_ALL=C "$SMTOP" diff --threshold 0 "$tmp/one" "$tmp/renamed" >"$tmp/renamed.txt" || die "renamed diff"
[ "$(grep -Ec '^  algo-1 -> algo-9 +(cpu_total|gpu_util|gpu_mem|host_mem|data|forward|backward|other) ' \
      "$tmp/renamed.txt")" -eq 8 ] || { cat "$tmp/renamed.txt"; die "renamed rows' labels"; }

# Two jobs of two nodes that share no node name pair them in natural
# order: algo-1 meets algo-7 and algo-2 meets algo-8, in every section.
"$SMTOP" synth --out "$tmp/two" --nodes 2 --gpus 1 --cpus 2 --minutes 2 >/dev/null || die synth
cp -r "$tmp/two" "$tmp/moved"
find "$tmp/moved" -depth -name '*algo-[12]*' | while read -r f; do
    d=$(dirname "$f") b=$(basename "$f")
    b=${b//algo-1/algo-7}
    mv "$f" "$d/${b//algo-2/algo-8}"
done
grep -rlE 'algo-[12]' "$tmp/moved" | xargs -r sed -i 's/algo-1/algo-7/g; s/algo-2/algo-8/g'
"$SMTOP" diff --json "$tmp/two" "$tmp/moved" >"$tmp/moved.json" || die "moved diff --json"
"$SMTOP_SRC/tests/tools/schema_ok.sh" "$tmp/moved.json" || die "schema (two nodes)"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
pair = {"algo-1": "algo-7", "algo-2": "algo-8"}
for k, n in (("steps", 40), ("utilization", 8), ("breakdown", 8)):
    assert len(d[k]) == n, (k, len(d[k]))
    assert all(pair[r["node"]] == r["target_node"] for r in d[k]), d[k]
assert d["changed"] == 0, d["changed"]
' "$tmp/moved.json" || die "two-node jobs of other names: rows not paired in order"

set +e
"$SMTOP" diff "$tmp/base" 2>/dev/null; [ $? -eq 2 ] || die "one source should exit 2"
"$SMTOP" diff "$tmp/base" "$tmp/nope" 2>/dev/null; [ $? -eq 1 ] || die "missing source should exit 1"
set -e
echo PASS
