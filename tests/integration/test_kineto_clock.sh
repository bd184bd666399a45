#!/usr/bin/env bash
# A PyTorch profiler trace whose clock lies far off the job's (another
# job's trace in the same folder, issue 25 bad input) is named in the
# warnings, with how far and by which clock, and nothing else is lost: it
# is still read and counted, every other figure stays. The job's clock is
# its system metrics (a trace more than an hour outside them), else its
# other traces (a trace more than a day from the chain holding most of
# them); with no other clock nothing is named. A trace with no time base
# is counted and named as unplaced (SPEC §1b, gpu_clock.h).
source "$(dirname "$0")/it_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }

# copy JOB SHIFT_S PID [drop]: the job's first trace again as worker
# algo-1_PID, its baseTimeNanoseconds moved by SHIFT_S seconds (plain
# JSON, named by its new base); with "drop" the base is taken out.
copy() {
    python3 - "$@" <<'PY'
import gzip, os, re, sys
job, shift, pid = sys.argv[1], int(sys.argv[2]), sys.argv[3]
d = os.path.join(job, "tensorboard-output")
first = sorted(os.listdir(d))[0]
s = gzip.open(os.path.join(d, first), "rt").read()
m = re.search(r'"baseTimeNanoseconds": (\d+),?', s)
base = int(m.group(1)) + shift * 10**9
new = "" if len(sys.argv) > 4 else '"baseTimeNanoseconds": %d,' % base
open(os.path.join(d, "algo-1_%s.%d.pt.trace.json" % (pid, base)), "w").write(s.replace(m.group(0), new))
PY
}
report() { "$SMTOP" report --json "$1" >"$2" 2>"$T/err" || fail "report $1: $(cat "$T/err")"; }

# with system metrics: 5 days before them, and 30 minutes after the first
# trace (inside the hour: the job's own clock)
"$SMTOP" synth --kineto --nodes 1 --ranks 2 --minutes 3 --seed 5 --out "$T/s" >/dev/null ||
    fail "synth"
report "$T/s" "$T/s0.json"
copy "$T/s" -432000 777
copy "$T/s" 1800 778
report "$T/s" "$T/s1.json"
"$SMTOP" report "$T/s" >"$T/s1.txt" 2>&1 || fail "text report"
grep -q "algo-1_777\..*its clock lies 5.0 days before the job's system metrics" "$T/s1.txt" ||
    fail "text report: $(grep -A3 '^warnings' "$T/s1.txt")"
python3 - "$T/s0.json" "$T/s1.json" <<'PY' || fail "system clock"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
far = [m for m in b["warnings"]["messages"] if "clock lies" in m]
assert len(far) == 1, b["warnings"]["messages"]
assert far[0].startswith("tensorboard-output/algo-1_777.") and \
    "5.0 days before the job's system metrics: a trace from another job?" in far[0], far[0]
assert b["warnings"]["unread_files"] == a["warnings"]["unread_files"] == 0
ga, gb = {g["process"]: g for g in a["gpu"]}, {g["process"]: g for g in b["gpu"]}
assert ga.keys() == gb.keys() == {"rank 0", "rank 1"}, gb.keys()
moved = [p for p in ga if ga[p] != gb[p]]
# both copies count under the rank they claim; the other rank is untouched
assert len(moved) == 1 and gb[moved[0]]["traces"] == ga[moved[0]]["traces"] + 2, moved
sa = {(s["node"], s["process"], s["phase"]): s["count"] for s in a["steps"]}
sb = {(s["node"], s["process"], s["phase"]): s["count"] for s in b["steps"]}
assert all(sb[k] == v for k, v in sa.items() if k[1] not in (None, moved[0])), (sa, sb)
assert b["time_range"]["start_us"] < a["time_range"]["start_us"] - 4 * 86400e6   # it reaches it
print("ok:", far[0][:150])
PY

# traces alone: one 3 days after the others is named by them; the
# unplaced one (no base) is named as such and counted
"$SMTOP" synth --kineto --kineto-only --nodes 1 --ranks 2 --minutes 3 --seed 5 --out "$T/k" \
    >/dev/null || fail "synth kineto-only"
copy "$T/k" 259200 777
copy "$T/k" 0 778 drop
report "$T/k" "$T/k.json"
python3 - "$T/k.json" <<'PY' || fail "traces' clock"
import json, sys
r = json.load(open(sys.argv[1]))
msgs = r["warnings"]["messages"]
far = [m for m in msgs if "clock lies" in m]
assert len(far) == 1 and far[0].startswith("tensorboard-output/algo-1_777.") and \
    "3.0 days after the job's other traces" in far[0], msgs
un = [m for m in msgs if "unplaced" in m]
assert len(un) == 1 and un[0].startswith("tensorboard-output/algo-1_778.") and \
    "no time base" in un[0], msgs
assert sum(g["unplaced_traces"] for g in r["gpu"]) == 1, r["gpu"]
print("ok:", far[0][:100], "|", un[0][:100])
PY

# no other clock: one trace of the job, and one days off
"$SMTOP" synth --kineto --kineto-only --nodes 1 --ranks 1 --minutes 1 --kineto-every 10000 \
    --seed 5 --out "$T/o" >/dev/null || fail "synth one trace"
n=$(ls "$T/o/tensorboard-output" | wc -l)
[ "$n" = 1 ] || fail "expected one trace, got $n"
copy "$T/o" 432000 777
report "$T/o" "$T/o.json"
python3 - "$T/o.json" <<'PY' || fail "no other clock"
import json, sys
r = json.load(open(sys.argv[1]))
assert not [m for m in r["warnings"]["messages"] if "clock lies" in m], r["warnings"]
assert sum(g["traces"] for g in r["gpu"]) == 2, r["gpu"]
print("ok: two traces days apart and no other clock: nothing named")
PY
it_done
