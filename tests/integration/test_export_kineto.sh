#!/usr/bin/env bash
# `smtop export --perfetto` with PyTorch profiler (Kineto) traces: every
# trace event on the job clock in its rank's process, threads per GPU
# stream and CPU thread, flows kept (check_export_kineto.py compares the
# output with the trace files read by Python's json module): synthetic
# jobs with the base before and after traceEvents, --traces, names that
# need escaping, a trace that cannot be placed, and the nccl_data sample.
source "$(dirname "$0")/it_lib.sh"
SRC=${SMTOP_SRC:-.}
SAMPLES=${SMTOP_SAMPLES:-}
CHECK="$SRC/tests/integration/check_export_kineto.py"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }

traces() { find "$1" -name '*.pt.trace.json*' | sort; }

# --- synthetic jobs: base before traceEvents (modern), after it (2024) ---
for form in modern 2024; do
    "$SMTOP" synth --out "$T/$form" --kineto --kineto-form "$form" --nodes 2 --gpus 2 \
        --minutes 2 >/dev/null 2>&1 || { fail "synth $form"; continue; }
    "$SMTOP" export --perfetto "$T/$form.json" "$T/$form" 2>"$T/err" ||
        { fail "export $form: $(cat "$T/err")"; continue; }
    grep -q "from [0-9]* PyTorch profiler traces" "$T/err" || fail "$form: stats: $(cat "$T/err")"
    # shellcheck disable=SC2046
    python3 "$CHECK" "$T/$form.json" $(traces "$T/$form") --near-counters >"$T/check" 2>&1 ||
        fail "$form: $(grep -m3 FAIL "$T/check")"
    cat "$T/check"
done

# --- --traces: a folder beside the job, names to escape, one unplaceable -
mkdir -p "$T/extra"
python3 - "$T/extra" <<'PY'
import json, sys
d = sys.argv[1]
base = 1795807974000000000
ev = [
    {"ph": "X", "cat": "cpu_op", "name": 'q"uote\\back\nnew\x1b[31mesc\u202erl\u200bzw', "pid": 7,
     "tid": 8, "ts": 10.5, "dur": 2.25, "args": {"External id": 1}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 7, "tid": 8,
     "ts": 11.0, "dur": 1.0, "args": {"correlation": 5}},
    {"ph": "s", "cat": "ac2g", "name": "ac2g", "id": 5, "pid": 7, "tid": 8, "ts": 11.0},
    {"ph": "f", "cat": "ac2g", "name": "ac2g", "id": 5, "pid": 0, "tid": 7, "ts": 20.0, "bp": "e"},
    {"ph": "X", "cat": "kernel", "name": "k<\u00e9>", "pid": 0, "tid": 7, "ts": 20.0,
     "dur": 5.125, "args": {"correlation": 5, "device": 0, "stream": 7}},
    {"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": 7, "tid": 8, "ts": 12.0,
     "s": "t", "args": {"Bytes": 512, "Total Allocated": 1024, "Total Reserved": 2048,
                        "Device Id": 0}},
    {"ph": "M", "name": "thread_name", "pid": 7, "tid": 8, "args": {"name": "x\"y"}},
]
# the base after traceEvents, as 2024's writers put it
json.dump({"schemaVersion": 1, "traceEvents": ev, "distributedInfo": {"rank": 5, "world_size": 6},
           "baseTimeNanoseconds": base}, open(f"{d}/w_1.1.pt.trace.json", "w"))
json.dump({"schemaVersion": 1, "traceEvents": ev, "distributedInfo": {"rank": 6}},
          open(f"{d}/w_2.2.pt.trace.json", "w"))
PY
"$SMTOP" export --perfetto "$T/extra.json" --traces "$T/extra" "$T/modern" 2>"$T/err" ||
    fail "export --traces: $(cat "$T/err")"
grep -q "1 files skipped" "$T/err" || fail "the unplaceable trace is not counted: $(cat "$T/err")"
grep -q "cannot be placed" "$T/err" || fail "the unplaceable trace is not explained: $(cat "$T/err")"
# shellcheck disable=SC2046
python3 "$CHECK" "$T/extra.json" $(traces "$T/modern") "$T/extra/w_1.1.pt.trace.json" \
    >"$T/check" 2>&1 || fail "--traces: $(grep -m3 FAIL "$T/check")"
cat "$T/check"
python3 - "$T/extra.json" <<'PY' || fail "--traces: escaping or rank 6"
import json, sys
evs = json.load(open(sys.argv[1]))["traceEvents"]
names = {e["name"] for e in evs}
assert 'q"uote\\back?new?[31mesc?rl?zw' in names, [n for n in names if "uote" in n]
assert "k<\u00e9>" in names
procs = {e["args"]["name"] for e in evs if e["name"] == "process_name"}
assert "rank 5" in procs and "rank 6" not in procs, procs
assert "x\"y" not in {e["args"].get("name") for e in evs if e["ph"] == "M"}, "the trace's own M kept"
PY

# --- string and -1 pids (SPEC §1b): kept, each string a thread of its own -
mkdir -p "$T/strpid"
python3 - "$T/strpid" <<'PY'
import json, sys
ev = [
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": "worker", "tid": "main",
     "ts": 10.0, "dur": 3.0},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": "worker",
     "tid": "main", "ts": 11.0, "dur": 1.0, "args": {"correlation": 9}},
    {"ph": "s", "cat": "ac2g", "name": "ac2g", "id": 9, "pid": "worker", "tid": "main", "ts": 11.0},
    {"ph": "f", "cat": "ac2g", "name": "ac2g", "id": 9, "pid": 0, "tid": 7, "ts": 20.0, "bp": "e"},
    {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 20.0, "dur": 4.0,
     "args": {"correlation": 9, "device": 0, "stream": 7}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": -1, "tid": -1, "ts": 30.0, "dur": 1.0},
    {"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0)", "pid": "Spans",
     "tid": "PyTorch Profiler", "ts": 9.0, "dur": 40.0},
    {"ph": "i", "s": "g", "name": "Record Window End", "pid": "", "tid": "", "ts": 49.0},
    {"ph": "X", "cat": "cpu_op", "name": "no pid", "tid": 1, "ts": 12.0, "dur": 1.0},
]
json.dump({"schemaVersion": 1, "distributedInfo": {"rank": 3}, "baseTimeNanoseconds": 1795807974000000000,
           "traceEvents": ev}, open(f"{sys.argv[1]}/w_3.3.pt.trace.json", "w"))
PY
for i in 1 2; do
    "$SMTOP" export --perfetto "$T/strpid$i.json" --traces "$T/strpid" "$T/modern" 2>"$T/err" ||
        fail "export string pids: $(cat "$T/err")"
done
cmp -s "$T/strpid1.json" "$T/strpid2.json" || fail "string pids: two exports differ"
# shellcheck disable=SC2046
python3 "$CHECK" "$T/strpid1.json" $(traces "$T/modern") "$T/strpid/w_3.3.pt.trace.json" \
    >"$T/check" 2>&1 || fail "string pids: $(grep -m3 FAIL "$T/check")"
cat "$T/check"
python3 - "$T/strpid1.json" <<'PY' || fail "string pids: threads"
import json, sys
evs = json.load(open(sys.argv[1]))["traceEvents"]
pid = [e["pid"] for e in evs if e["name"] == "process_name" and e["args"]["name"] == "rank 3"]
assert len(pid) == 1, pid
th = {e["tid"]: e["args"]["name"] for e in evs if e["name"] == "thread_name" and e["pid"] == pid[0]}
assert sorted(th.values()) == sorted(["pid worker thread main", "GPU 0 stream 7", "thread -1",
                                      "pid Spans thread PyTorch Profiler", 'pid "" thread ""']), th
mine = [e for e in evs if e["pid"] == pid[0] and e["ph"] != "M"]
assert len(mine) == 8, len(mine)          # all but the event with no pid
assert {th[e["tid"]] for e in mine if e["ph"] == "s"} == {"pid worker thread main"}
print("ok: string and -1 pids exported:", sorted(th.values()))
PY

# --- without Kineto traces nothing changes: no rank process ------------
"$SMTOP" synth --out "$T/plain" --nodes 1 --minutes 1 >/dev/null 2>&1 || fail "synth plain"
"$SMTOP" export --perfetto "$T/plain.json" "$T/plain" 2>"$T/err" || fail "export plain"
grep -q "PyTorch" "$T/err" && fail "plain job: Kineto traces reported: $(cat "$T/err")"
python3 -c "
import json, sys
e = json.load(open(sys.argv[1]))['traceEvents']
assert not [x for x in e if x['name'] == 'process_labels'], 'a rank process without traces'
" "$T/plain.json" || fail "plain job"

# --- the nccl_data sample ----------------------------------------------
if [ -n "$SAMPLES" ] && [ -d "$SAMPLES/kineto/nccl_data" ]; then
    "$SMTOP" export --perfetto "$T/nccl.json" "$SAMPLES/kineto/nccl_data" 2>"$T/err" ||
        fail "export nccl_data: $(cat "$T/err")"
    python3 "$CHECK" "$T/nccl.json" "$SAMPLES"/kineto/nccl_data/*.json.gz >"$T/check" 2>&1 ||
        fail "nccl_data: $(grep -m3 FAIL "$T/check")"
    cat "$T/check"
else
    echo "note: ../shared/samples not found: the nccl_data part is skipped"
fi

[ "$fails" = 0 ] && echo "PASS" || echo "$fails failure(s)"
it_done
