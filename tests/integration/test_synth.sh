#!/usr/bin/env bash
# `smtop synth` end to end: options and exit codes, the tree it writes
# (valid JSON lines, closed trace files that are JSON arrays, same seed =
# same bytes), and --live stopped by a signal as a killed job would be.
source "$(dirname "$0")/it_lib.sh"

expect_rc() { # want_rc description cmd...
    local want=$1 what=$2
    shift 2
    "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    [ "$rc" = "$want" ] || fail "$what: exit $rc, want $want ($(head -c 300 "$T/err"))"
}

# --- usage -------------------------------------------------------------
expect_rc 0 "--help" "$SMTOP" synth --help
grep -q "usage: smtop synth" "$T/out" || fail "--help prints no usage on stdout"
expect_rc 2 "no --out" "$SMTOP" synth --nodes 2
grep -q -- "--out" "$T/err" || fail "missing --out not explained: $(cat "$T/err")"
expect_rc 2 "unknown option" "$SMTOP" synth --out "$T/x" --bogus
grep -q "bogus" "$T/err" || fail "unknown option not named"
expect_rc 2 "--nodes 0" "$SMTOP" synth --out "$T/x" --nodes 0
expect_rc 2 "--nodes abc" "$SMTOP" synth --out "$T/x" --nodes abc
expect_rc 2 "--interval-ms 7" "$SMTOP" synth --out "$T/x" --interval-ms 7
expect_rc 2 "--slow-node out of range" "$SMTOP" synth --out "$T/x" --nodes 2 --slow-node 2
expect_rc 2 "value missing" "$SMTOP" synth --out "$T/x" --minutes
[ -e "$T/x" ] && fail "a usage error wrote $T/x"
expect_rc 1 "unwritable --out" "$SMTOP" synth --out /dev/null/x --minutes 1
grep -q "/dev/null" "$T/err" || fail "write failure does not name the path: $(cat "$T/err")"

# --- batch tree --------------------------------------------------------
common=(--nodes 2 --gpus 1 --cpus 4 --minutes 3 --start 1591748100 --seed 7)
expect_rc 0 "batch a" "$SMTOP" synth "${common[@]}" --out "$T/a"
expect_rc 0 "batch b (--opt=value form)" "$SMTOP" synth --nodes=2 --gpus=1 --cpus=4 \
    --minutes=3 --start=1591748100 --seed=7 --out="$T/b"
diff -r "$T/a" "$T/b" >/dev/null || fail "same options and seed gave different trees"
nsys=$(find "$T/a/system/incremental/2020061000" -name '*.algo-*.json' | wc -l)
[ "$nsys" = 6 ] || fail "want 6 system files (2 nodes x 3 min), got $nsys"
[ -f "$T/a/system/incremental/2020061000/1591748160.algo-2.json" ] || fail "system file name"
ntr=$(find "$T/a/framework/pevents" -name '*_pythontimeline.json' | wc -l)
[ "$ntr" -ge 4 ] || fail "want >= 4 closed trace files, got $ntr"
find "$T/a" -name '*.tmp' | grep -q . && fail "batch mode left a .tmp"

python3 - "$T/a" <<'EOF' || fail "tree content check"
import glob, json, os, re, sys
root = sys.argv[1]
for f in glob.glob(root + "/system/incremental/*/*.json"):
    lines = open(f).read().split("\n")
    assert lines[-1] == "", f + ": no final newline"
    for line in lines[:-1]:
        r = json.loads(line)
        assert set(r) == {"Type", "Name", "Dimension", "Value", "NodeId", "Timestamp"}, line
        assert re.search(r'"Timestamp":\d{10}\.\d{7}}$', line), line
        minute = int(os.path.basename(f).split(".")[0])
        assert minute <= r["Timestamp"] < minute + 60, line
for f in glob.glob(root + "/framework/pevents/*/*.json"):
    ev = json.load(open(f))
    base = ev[0]["args"]["start_time_since_epoch_in_micros"]
    end = max(base + e["ts"] + e["dur"] for e in ev if e["ph"] == "X")
    assert os.path.basename(f).startswith("%d_" % end), f
    steps = [e for e in ev if e.get("name", "").startswith("Step:")]
    assert steps and all(isinstance(e["args"]["step_num"], str) for e in steps), f
EOF
for f in "$T"/a/framework/pevents/*/*.json; do
    python3 -m json.tool "$f" >/dev/null || fail "not JSON: $f"
done

expect_rc 0 "flat, no traces" "$SMTOP" synth --minutes 2 --flat --no-traces \
    --start 1591748100 --out "$T/flat"
[ -d "$T/flat/framework" ] && fail "--no-traces wrote framework/"
nflat=$(find "$T/flat/system/incremental" -maxdepth 1 -name '*.algo-*.json' | wc -l)
[ "$nflat" = 4 ] || fail "--flat: want 4 files directly in system/incremental, got $nflat"

# --- live ----------------------------------------------------------------
live_run() { # signal dir seconds
    "$SMTOP" synth --live --minutes 3 --nodes 2 --out "$2" 2>"$T/live_err" &
    local pid=$!
    sleep "$3"
    kill_ts=$(date +%s)
    kill -"$1" "$pid"
    wait "$pid"
    local rc=$?
    [ "$rc" = 0 ] || fail "live run stopped by $1 exited $rc: $(cat "$T/live_err")"
}
live_run TERM "$T/live" 3
tmps=("$T"/live/framework/*_pythontimeline.json.tmp)
[ -f "${tmps[0]}" ] || fail "live: no open .tmp trace file"
for f in "${tmps[@]}"; do
    [ "$(head -n 1 "$f")" = "[" ] || fail "live .tmp does not start with ["
    tail -n 1 "$f" | grep -q ',$' || fail "live .tmp last line does not end in ','"
    grep -qx ']' "$f" && fail "live .tmp is closed"
done
nclosed=0
for f in "$T"/live/framework/pevents/*/*.json; do
    [ -f "$f" ] || continue
    nclosed=$((nclosed + 1))
    python3 -m json.tool "$f" >/dev/null || fail "live closed trace not JSON: $f"
done
[ "$nclosed" -ge 2 ] || fail "live: want closed trace files from the history, got $nclosed"
newest=$(ls "$T"/live/system/incremental/*/*.algo-1.json | sort | tail -n 1)
[ "$(tail -c 1 "$newest" | od -An -c | tr -d ' ')" = '\n' ] ||
    fail "live: current minute file ends with a partial line"
tail -n 1 "$newest" | python3 -c 'import json,sys; json.loads(sys.stdin.read())' ||
    fail "live: last line of current minute not JSON"
last_ts=$(tail -n 1 "$newest" | python3 -c 'import json,sys; print(int(json.loads(sys.stdin.read())["Timestamp"]))')
[ $((kill_ts - last_ts)) -le 2 ] || fail "live: last sample is $((kill_ts - last_ts)) s older than the stop"

# Python stats: pyinstrument windows of TRAIN steps 9-11, 309-311, ... per
# node whose times are the window's step phases (backward > data loader),
# read back through smtop's own reader.
"$SMTOP" synth --out "$T/py" --nodes 2 --minutes 3 --start 1591748100 \
    --python-stats 300 >/dev/null || fail "--python-stats run failed"
"$SMTOP" synth --out "$T/py_bad" --python-stats 2 2>"$T/err" && fail "--python-stats 2 accepted"
grep -q "python-stats must be" "$T/err" || fail "bad --python-stats not explained: $(cat "$T/err")"
"$SMTOP" report --json --top 50 "$T/py" >"$T/py.json" || fail "report on --python-stats job failed"
"$SMTOP_SRC/tests/tools/schema_ok.sh" "$T/py.json" || fail "schema"
python3 - "$T/py.json" <<'PY' || fail "python stats of the synthetic job are wrong"
import json, sys
py = json.load(open(sys.argv[1]))["python"]
assert py["profiler"] == "pyinstrument", py["profiler"]
w = py["windows"]
steps = sorted({(x["node"], x["start_step"], x["end_step"]) for x in w})
want = sorted((f"algo-{n}", s, s + 2) for n in (1, 2) for s in range(9, 9 + 300 * 10, 300)
              if any(x["start_step"] == s for x in w))
assert steps == want and len(steps) >= 4, steps
assert all(x["start_us"] < x["end_us"] and not x["failed"] for x in w), w
top = {t["function"]: t for t in py["top"]}
bwd = top["torch/autograd/__init__.py:200(backward)"]["tottime_s"]
data = top["torch/utils/data/dataloader.py:628(__next__)"]["cumtime_s"]
root = top["train.py:1(<module>)"]["cumtime_s"]
assert 0 < data < bwd < root, (data, bwd, root)
PY
# stats dirs named as smdebug names them: Python's time.time() * 1e6, with
# a fraction; and nothing the writer leaves is unread
ls "$T"/py/framework/pytorch/pyinstrument/algo-1 | grep -Eqx \
    'train-[0-9]+-stepstart-[0-9]{16}\.[0-9]_train-[0-9]+-stepend-[0-9]{16}\.[0-9]' ||
    fail "synthetic stats dirs lack smdebug's fractional times: $(ls "$T"/py/framework/pytorch/pyinstrument/algo-1 | head -3)"
python3 -c 'import json,sys; w=json.load(open(sys.argv[1]))["warnings"]; sys.exit(w["unread_files"] != 0)' \
    "$T/py.json" || fail "synthetic job has unread files: $(grep -o '"unread".*' "$T/py.json" | head -c 400)"

live_run INT "$T/live_int" 1
ls "$T"/live_int/framework/*.tmp >/dev/null 2>&1 || fail "SIGINT: no .tmp left"

if [ "$fails" -ne 0 ]; then
    echo "$fails check(s) failed"
    exit 1
fi
echo "all synth checks passed"
