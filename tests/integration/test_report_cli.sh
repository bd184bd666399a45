#!/usr/bin/env bash
# `smtop report` exit codes and messages, and a report of a synthetic job
# (runs without ../shared): 0 success, 1 unreadable source, 2 usage error.
set -o pipefail
source "$(dirname "$0")/it_lib.sh"
tmp=$T

expect_exit() {   # expect_exit CODE PATTERN ARGS...
  local want=$1 pat=$2; shift 2
  "$SMTOP" "$@" >"$tmp/out" 2>"$tmp/err"; local got=$?
  [ "$got" = "$want" ] || fail_now "smtop $* exited $got, want $want: $(cat "$tmp/err")"
  grep -q -- "$pat" "$tmp/out" "$tmp/err" || fail_now "smtop $*: no '$pat' in output: $(cat "$tmp/out" "$tmp/err")"
}

expect_exit 2 "missing SOURCE" report
expect_exit 2 "unknown option --bogus" report --bogus x
expect_exit 2 "bad time" report --since yesterday x
expect_exit 0 "usage: smtop report" report --help
expect_exit 1 "No such file" report "$tmp/does-not-exist"
mkdir "$tmp/empty"
expect_exit 1 "holds no profiler data" report "$tmp/empty"
expect_exit 0 "smtop " --version
expect_exit 2 "usage:" 

# one-line reason on stderr for an unreadable source
"$SMTOP" report "$tmp/does-not-exist" 2>"$tmp/err" >/dev/null
[ "$(wc -l < "$tmp/err")" = 1 ] || fail_now "reason is not one line: $(cat "$tmp/err")"

# a synthetic job: every node, its GPUs, and steps appear
"$SMTOP" synth --out "$tmp/job" --nodes 3 --gpus 2 --cpus 4 --minutes 3 --seed 7 >/dev/null \
  || fail_now "synth failed"
"$SMTOP" report --json "$tmp/job" > "$tmp/r.json" || fail_now "report failed"
"$SMTOP_SRC/tests/tools/schema_ok.sh" "$tmp/r.json" || fail_now "schema"
python3 - "$tmp/r.json" <<'PY' || fail_now "synthetic report content"
import json, sys
r = json.load(open(sys.argv[1]))
ids = [n["id"] for n in r["nodes"]]
assert ids == ["algo-1", "algo-2", "algo-3"], ids
for n in r["nodes"]:
    assert n["cpus"] == 4 and n["gpus"] == 2, n
    kinds = {(m["type"], m["dimension"]) for m in n["metrics"]}
    assert ("gpu", "GPUUtilization") in kinds and ("gpu", "GPUMemoryUtilization") in kinds
    total = [m for m in n["metrics"] if m["name"] == "total"][0]
    assert total["unit"] == "pct" and 0 < total["mean_pct"] <= 100
train = [s for s in r["steps"] if s["phase"] == "Step:ModeKeys.TRAIN" and s["process"] is None]
assert len(train) == 3 and all(s["count"] > 100 for s in train), train
assert r["warnings"]["corrupt_lines"] == 0, r["warnings"]
assert r["job_phases"]["has_steps"] and r["job_phases"]["init_us"] > 0
print("synthetic report ok:", len(r["nodes"]), "nodes,", sum(s["count"] for s in train), "train steps")
PY

# --since/--until narrow the time range: samples from `since` on, events
# that overlap it (the earliest may start up to one event before)
start=$(python3 -c "import json;print(json.load(open('$tmp/r.json'))['time_range']['start_us'])")
since=$(( start / 1000000 + 60 ))
"$SMTOP" report --json --since "$since" "$tmp/job" > "$tmp/r2.json" || fail_now "report --since"
"$SMTOP_SRC/tests/tools/schema_ok.sh" "$tmp/r2.json" || fail_now "schema"
python3 - "$tmp/r2.json" "$tmp/r.json" "$since" <<'PY' || fail_now "--since not applied"
import json, sys
r, full = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
since = int(sys.argv[3]) * 1000000
longest = max(s["max_us"] for s in r["steps"])
assert since - longest <= r["time_range"]["start_us"], (r["time_range"], longest)
cpu = lambda rep: sum(m["count"] for n in rep["nodes"] for m in n["metrics"] if m["name"] == "cpu0")
assert 0 < cpu(r) < cpu(full), (cpu(r), cpu(full))
PY
echo "report CLI ok"
