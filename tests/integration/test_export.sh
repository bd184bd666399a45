#!/usr/bin/env bash
# `smtop export --perfetto`: a synthetic job plus a gzip'd TF trace (one
# anchored to its step's start, one placed by smdebug's .metadata record in
# its step directory, named by the machine's host name) and a
# Horovod timeline with name-less E events; the output is re-parsed and
# checked event by event, and --steps A:B must restrict it.
set -eo pipefail
source "$(dirname "$0")/it_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
tmp=$T

job="$tmp/job"
"$SMTOP" synth --out "$job" --nodes 2 --gpus 1 --cpus 2 --minutes 2 >/dev/null || die synth

python3 - "$job" "$SMTOP_SRC/tests/tools" <<'PY'
import glob, gzip, json, os, sys
job = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from layout_fixture import step_start
# Step 5's start on algo-1 from the synthetic traces.
start = step_start(job, "algo-1", 5)
files = sorted(glob.glob(job + "/framework/pevents/*/*algo-1_pythontimeline.json"))
writer = os.path.basename(files[0]).split("_")[1]   # <pid>-algo-1: one process writes both timelines
hour = os.listdir(job + "/framework/pevents")[0]
def tf(step, host, events):
    d = f"{job}/framework/tensorflow/detailed_profiling/{hour}/{step:09d}/plugins/profile/2020_01_01_00_00_00"
    os.makedirs(d, exist_ok=True)
    doc = {"displayTimeUnit": "ns", "metadata": {"highres-ticks": True}, "traceEvents":
           [{"ph": "M", "pid": 1, "name": "process_name", "args": {"name": "/host:CPU"}}] + events + [{}]}
    with gzip.open(f"{d}/{host}.trace.json.gz", "wt") as g:
        json.dump(doc, g)
    return d.split("/plugins/")[0]
tf(5, "algo-1", [{"ph": "X", "pid": 1, "tid": 3, "ts": 100.4, "dur": 20, "name": "TfMatMul"}])
# smdebug's record sits in the step directory; the node is its writer's
# host, not the trace's (a machine name that no system metric uses)
d = tf(6, "ip-10-0-209-63.ec2.internal",
       [{"ph": "X", "pid": 1, "tid": 3, "ts": 10, "dur": 5, "name": "TfMeta"}])
open(f"{d}/1-algo-2_{start + 7000000}_{start + 8000000}.metadata", "w").close()
tf(999999, "algo-1", [{"ph": "X", "pid": 1, "tid": 3, "ts": 1, "dur": 1, "name": "TfNoBase"}])
# Horovod timeline: B/E pairs whose E has no name, nested.
hb = start
lines = ['[', json.dumps({"name": "process_name", "ph": "M", "pid": 0, "args": {"start_time_since_epoch_in_micros": hb}}) + ",",
         json.dumps({"name": "process_name", "ph": "M", "pid": 1, "args": {"name": "HorovodAllreduce_grads_0"}}) + ",",
         json.dumps({"name": "ALLREDUCE", "ph": "B", "pid": 1, "tid": 1, "ts": 1000}) + ",",
         json.dumps({"name": "NCCL_ALLREDUCE", "ph": "B", "pid": 1, "tid": 1, "ts": 1100}) + ",",
         json.dumps({"ph": "E", "pid": 1, "tid": 1, "ts": 1500}) + ",",
         json.dumps({"ph": "E", "pid": 1, "tid": 1, "ts": 2000}), ']']
with open(f"{job}/framework/pevents/{hour}/{hb + 2000}_{writer}_horovod_timeline.json", "w") as h:
    h.write("\n".join(lines) + "\n")
json.dump({"step5": start}, open(job + "/../facts.json", "w"))
PY

out="$tmp/out.json"
"$SMTOP" export --perfetto "$out" "$job" 2>"$tmp/err" || { cat "$tmp/err"; die "export exit $?"; }
grep -q "1 files skipped" "$tmp/err" || { cat "$tmp/err"; die "TF trace without a time base not reported"; }
grep -q "999999" "$tmp/err" || { cat "$tmp/err"; die "skipped TF trace not named"; }
python3 -m json.tool "$out" >/dev/null || die "json.tool rejects the export"

python3 - "$out" "$tmp/facts.json" "$job" <<'PY' || die "export content"
import glob, json, sys
doc = json.load(open(sys.argv[1])); facts = json.load(open(sys.argv[2]))
src = [json.loads(l) for f in glob.glob(sys.argv[3] + "/system/incremental/*/*.json") for l in open(f)]
ev = doc["traceEvents"]
for e in ev:
    assert all(k in e for k in ("ph", "ts", "pid")), e
procs = {e["pid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
assert sorted(procs.values()) == ["algo-1", "algo-2"], procs
threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
last = {}
ncount = 0
for e in ev:
    if e["ph"] == "C":
        k = (e["pid"], e["name"])
        assert e["ts"] >= last.get(k, 0), ("counter not monotonic", k)
        last[k] = e["ts"]
        assert isinstance(e["args"]["value"], (int, float))
        ncount += 1
assert ncount == len(src) and any("CPUUtilization" in k[1] for k in last), ("counters", ncount, len(src))
srcvals = {(r["NodeId"], round(r["Timestamp"] * 1e6), r["Value"]) for r in src}
pn = {p: n for p, n in procs.items()}
# (the decoder converts the decimal Timestamp exactly; float math here may be 1 µs off)
for e in ev:
    if e["ph"] == "C":
        assert any((pn[e["pid"]], e["ts"] + d, e["args"]["value"]) in srcvals for d in (-1, 0, 1)), e
pid1 = [p for p, n in procs.items() if n == "algo-1"][0]
pid2 = [p for p, n in procs.items() if n == "algo-2"][0]
X = [e for e in ev if e["ph"] == "X"]
assert all(e["ts"] > 1.5e15 and e["dur"] >= 0 for e in X), "event off the epoch clock"
s5 = facts["step5"]
hv = {e["name"]: e for e in X if threads[(e["pid"], e["tid"])] == "HorovodAllreduce_grads_0"}
assert hv["ALLREDUCE"]["ts"] == s5 + 1000 and hv["ALLREDUCE"]["dur"] == 1000, hv
assert hv["NCCL_ALLREDUCE"]["ts"] == s5 + 1100 and hv["NCCL_ALLREDUCE"]["dur"] == 400, hv
tf = {e["name"]: e for e in X if e["name"].startswith("Tf")}
assert tf["TfMatMul"]["ts"] == s5 + 100 and tf["TfMatMul"]["pid"] == pid1, tf
assert tf["TfMeta"]["ts"] == s5 + 7000010 and tf["TfMeta"]["pid"] == pid2, tf
assert "TfNoBase" not in tf
assert threads[(pid1, tf["TfMatMul"]["tid"])] == "/host:CPU"
steps = [e for e in X if threads[(e["pid"], e["tid"])] == "Step:ModeKeys.TRAIN"]
assert len(steps) > 100
print("events", len(X), "counters", ncount)
PY

# --steps restricts each node to the window of its own steps A..B
"$SMTOP" export --perfetto "$tmp/s.json" --steps 10:12 "$job" 2>/dev/null || die "--steps export"
python3 - "$tmp/s.json" "$out" <<'PY' || die "--steps content"
import json, sys
part = json.load(open(sys.argv[1]))["traceEvents"]
full = json.load(open(sys.argv[2]))["traceEvents"]
def names(ev, what):
    return {(e["pid"], e.get("tid", 0)): e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == what}
fth, pth = names(full, "thread_name"), names(part, "thread_name")
fpn = {p: n for (p, _), n in names(full, "process_name").items()}
ppn = {p: n for (p, _), n in names(part, "process_name").items()}
assert sorted(ppn.values()) == ["algo-1", "algo-2"], ppn
win = {}
for e in full:
    if e["ph"] == "X" and fth[(e["pid"], e["tid"])] == "Step:ModeKeys.TRAIN" and 10 <= e["args"]["step"] <= 12:
        lo, hi = win.get(fpn[e["pid"]], (1 << 62, 0))
        win[fpn[e["pid"]]] = (min(lo, e["ts"]), max(hi, e["ts"] + e["dur"]))
X = [e for e in part if e["ph"] == "X"]
C = [e for e in part if e["ph"] == "C"]
assert X and C and len(X) < len([e for e in full if e["ph"] == "X"]) / 10
for e in X:
    lo, hi = win[ppn[e["pid"]]]
    assert e["ts"] < hi and e["ts"] + e["dur"] >= lo, e
for e in C:
    lo, hi = win[ppn[e["pid"]]]
    assert lo <= e["ts"] < hi, e
got = sorted({e["args"]["step"] for e in X if pth[(e["pid"], e["tid"])] == "Step:ModeKeys.TRAIN"})
assert got == [10, 11, 12], got
PY

# errors: usage 2, unreadable source 1, no such steps 2
set +e
"$SMTOP" export "$job" 2>/dev/null; [ $? -eq 2 ] || die "missing --perfetto should exit 2"
"$SMTOP" export --perfetto "$tmp/x.json" --steps 5 "$job" 2>/dev/null; [ $? -eq 2 ] || die "bad --steps should exit 2"
"$SMTOP" export --perfetto "$tmp/x.json" "$tmp/nope" 2>/dev/null; [ $? -eq 1 ] || die "missing source should exit 1"
"$SMTOP" export --perfetto "$tmp/x.json" --steps 900000:900001 "$job" 2>"$tmp/e2"; [ $? -eq 2 ] || die "absent steps should exit 2"
grep -q "no such step" "$tmp/e2" || die "absent steps message"
[ ! -e "$tmp/x.json" ] || die "failed export left a file behind"
set -e
echo "PASS"
