#!/usr/bin/env bash
# Two PyTorch profiler traces that claim one rank and overlap in time (a
# copied file, two jobs writing one folder) are the same rank recorded
# twice: one counts, the other is named in the warnings with the
# trace it repeats, and the rank's steps and GPU figures are those of one
# trace (issue 25, bad input). A later cycle of the same rank still counts.
source "$(dirname "$0")/it_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }

"$SMTOP" synth --kineto --kineto-only --nodes 1 --ranks 2 --minutes 3 --seed 5 \
    --out "$T/j" >/dev/null || fail "synth"
"$SMTOP" report --json "$T/j" >"$T/one.json" 2>"$T/err" || fail "report: $(cat "$T/err")"
first=$(ls "$T/j/tensorboard-output" | sort | head -1)
# the same rank's cycle again under another worker pid
cp "$T/j/tensorboard-output/$first" "$T/j/tensorboard-output/${first/algo-1_/algo-1_9}"
"$SMTOP" report --json "$T/j" >"$T/two.json" 2>"$T/err" || fail "report: $(cat "$T/err")"
python3 - "$T/one.json" "$T/two.json" <<'PY' || fail "a duplicate rank counted or not named"
import json, re, sys
one, two = (json.load(open(p)) for p in sys.argv[1:3])
key = lambda r: [(g["process"], g["traces"], g["steps"], g["idle_us"]) for g in r["gpu"]]
assert key(one) == key(two), (key(one), key(two))
assert len(one["gpu"]) == 2 and one["gpu"][0]["traces"] >= 2, key(one)   # later cycles count
msgs = [m for m in two["warnings"]["messages"] if "recorded twice" in m]
assert len(msgs) == 1 and re.search(r"claims rank [01] of algo-1 like algo-1_9?[0-9]+\.[0-9]+\.pt\.trace", msgs[0]), msgs
assert two["warnings"]["unread_files"] == 1, two["warnings"]
print("ok:", msgs[0][:160])
PY
it_done
