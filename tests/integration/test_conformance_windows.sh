#!/usr/bin/env bash
# Conformance with smdebug's readers for time windows, split B/E pairs,
# nanosecond file names and ranks, on fixtures this test writes itself
# (tests/tools/timeline_fixture.py; smdebug's source and resource files are
# not on this machine, so each case is rebuilt from what smdebug's test
# asserts, and where the exact resource is unknown the expected numbers
# come from the fixture tool's independent Python reading, not from smtop).
#
#  1. smdebug tests/profiler/core/test_algorithm_metric_readers.py,
#     test_LocalMetricsReader_Horovod_timeline: reading
#     horovod_timeline_traces/.../1593673051473228_88359-8c859046be41.ant.
#     amazon.com_horovod_timeline.json, get_events(1593673051473000,
#     1593673051473228) returns 15 events — every event that *overlaps* the
#     window. Our file is rebuilt so that 15 nested B/E events overlap it,
#     none starts inside it (a start-time filter gives 0), one ends exactly
#     at the window start (kept) and one 1 µs before it (not kept).
#  2. smdebug test_timeline_writer.py's rotation tests (the writer closes a
#     file on size / interval and every event is read back across the
#     files) with B/E ("duration") events: here a rotation falls between a
#     TRAIN step's B and its E, and two nested Horovod B's close two files
#     later; the second file of the step is named by a 19-digit epoch-ns
#     end time. Counts, durations and maxima per node, per writer and per
#     phase equal the independent reading, which pairs per writer across its
#     files as one concatenated file would.
#  3. The same in windows: one whose start is exactly a step's end (kept)
#     and whose end is exactly a step's start (not kept), and one that
#     starts inside the split step (kept: it overlaps). report, export and
#     the text report agree; the dashboard's count is in test_ui_windows.sh.
set -eo pipefail
source "$(dirname "$0")/it_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
tmp=$T
fx="$SMTOP_SRC/tests/tools/timeline_fixture.py"
python3 "$fx" facts > "$tmp/facts.json"
fact() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$tmp/facts.json" "$1"; }
secs() { python3 -c "import sys; v = int(sys.argv[1]); print('%d.%06d' % divmod(v, 1000000))" "$1"; }

# compare REPORT.json REF.json: per node (process null) and per writer rows
# of the report against the reference, label by label, both ways.
compare() {
    python3 - "$1" "$2" <<'PY'
import json, sys
r, ref = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
got = {}
for s in r["steps"]:
    got[(s["process"] or s["node"]) + "|" + s["phase"]] = s
bad = [k for k in set(got) ^ set(ref) if not (k in got and got[k]["count"] == 0)]
for k, want in ref.items():
    g = got.get(k)
    if not g:
        continue
    if g["count"] != want["count"] or g["max_us"] != want["max_us"] or \
            abs(g["mean_us"] * g["count"] - want["sum_us"]) > 1e-6 * max(1, want["sum_us"]):
        bad.append("%s: smtop %s/%s/%s, python %s" % (k, g["count"], g["mean_us"], g["max_us"], want))
for b in bad:
    print("MISMATCH", b)
sys.exit(1 if bad else 0)
PY
}

# export_counts EXPORT.json REF.json: X events per lane = the reference's
# per-writer counts (lanes are "<writer> <phase>" on a node with several
# writers, "<phase>" on a node with one).
export_counts() {
    python3 - "$1" "$2" <<'PY'
import collections, json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
ref = json.load(open(sys.argv[2]))
th = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
pn = {e["pid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
got = collections.Counter()
for e in ev:
    if e["ph"] == "X":
        got[(pn[e["pid"]], th[(e["pid"], e["tid"])])] += 1
want = collections.Counter()
writers = collections.defaultdict(set)
for k in ref:
    w = k.split("|")[0]
    if "-" in w and not w.startswith("algo-"):
        node = w.split("-", 1)[1]
        writers[node].add(w)
for k, v in ref.items():
    w, label = k.split("|", 1)
    if w not in {x for s in writers.values() for x in s}:
        continue
    node = w.split("-", 1)[1]
    lane = (w + " " + label) if len(writers[node]) > 1 else label
    want[(node, lane)] += v["count"]
if got != want:
    print("export", dict(got), "\npython", dict(want))
    sys.exit(1)
PY
}

# ---- 1. the Horovod window: 15 events ------------------------------------
python3 "$fx" horovod "$tmp/hvd"
hs=$(fact hvd_since); hu=$(fact hvd_until)
"$SMTOP" report --json --since "$(secs "$hs")" --until "$(secs "$hu")" "$tmp/hvd" > "$tmp/h.json" \
    || die "report horovod window"
"$SMTOP_SRC/tests/tools/schema_ok.sh" "$tmp/h.json" || die "schema"
python3 "$fx" ref "$tmp/hvd" "$hs" "$hu" > "$tmp/h.ref"
compare "$tmp/h.json" "$tmp/h.ref" || die "horovod window vs python"
python3 - "$tmp/h.json" "$tmp/hvd" "$hs" "$hu" <<'PY' || die "horovod: 15 events"
import json, sys
r = json.load(open(sys.argv[1]))
node_rows = [s for s in r["steps"] if s["process"] is None]
assert {s["node"] for s in node_rows} == {"8c859046be41.ant.amazon.com"}, node_rows
assert sum(s["count"] for s in node_rows) == 15, node_rows          # smdebug: len(events) == 15
w = [s for s in r["steps"] if s["process"] == "88359-8c859046be41.ant.amazon.com"]
assert sum(s["count"] for s in w) == 15, w
# what a start-time filter would keep (smtop before this change): nothing
sys.path.insert(0, "")
PY
python3 - "$tmp/hvd" "$hs" "$hu" <<'PY' || die "fixture: a start filter must give 0"
import glob, json, sys
ev = json.load(open(glob.glob(sys.argv[1] + "/framework/pevents/*/*.json")[0]))
base = ev[0]["args"]["start_time_since_epoch_in_micros"]
starts = [base + e["ts"] for e in ev if e.get("ph") == "B"]
assert len(starts) == 25 and not [t for t in starts if int(sys.argv[2]) <= t < int(sys.argv[3])]
PY
"$SMTOP" report --json "$tmp/hvd" > "$tmp/h_all.json" || die "report horovod"
"$SMTOP_SRC/tests/tools/schema_ok.sh" "$tmp/h_all.json" || die "schema"
python3 -c "
import json,sys; r=json.load(open(sys.argv[1]))
assert sum(s['count'] for s in r['steps'] if s['process'] is None) == 25" "$tmp/h_all.json" \
    || die "horovod: 25 events in all"
"$SMTOP" export --perfetto "$tmp/h.x.json" --since "$(secs "$hs")" --until "$(secs "$hu")" \
    "$tmp/hvd" 2>/dev/null || die "export horovod window"
python3 -c "
import json,sys; ev=json.load(open(sys.argv[1]))['traceEvents']
n=len([e for e in ev if e['ph']=='X']); assert n == 15, n" "$tmp/h.x.json" || die "export: 15 events"
echo "ok: horovod window keeps the 15 overlapping events (report, export)"

# ---- 2. split pairs, ns names, ranks -------------------------------------
python3 "$fx" split "$tmp/split"
"$SMTOP" report --json "$tmp/split" > "$tmp/s.json" || die "report split"
"$SMTOP_SRC/tests/tools/schema_ok.sh" "$tmp/s.json" || die "schema"
python3 "$fx" ref "$tmp/split" 0 0 > "$tmp/s.ref"
compare "$tmp/s.json" "$tmp/s.ref" || die "split pairs vs python"
python3 - "$tmp/s.json" <<'PY' || die "split content"
import json, sys
r = json.load(open(sys.argv[1]))
row = {(s["process"] or s["node"]) + "|" + s["phase"]: s for s in r["steps"]}
t = row["0-algo-1|Step:ModeKeys.TRAIN"]
assert t["count"] == 30 and t["max_us"] == 5000000, t          # step 15: B in one file, E in the next
h = row["7-algo-2|HorovodAllreduce_fc1"]
assert h["count"] == 2 and h["max_us"] == 3000100 - 1000, h    # closed two files later
w = r["warnings"]
assert w["skipped_files"] == 0 and not w["messages"], w        # the ns-named file is read
PY
"$SMTOP" export --perfetto "$tmp/s.x.json" "$tmp/split" 2>/dev/null || die "export split"
export_counts "$tmp/s.x.json" "$tmp/s.ref" || die "export split counts"
# Into a file first: grep -q stops reading at the line, and the report
# says the broken pipe (test_report_write_errors), which pipefail takes.
"$SMTOP" report "$tmp/split" > "$tmp/s.txt" || die "text report split"
grep -Eq '^algo-1 +0-algo-1 +Step:ModeKeys.TRAIN +30 .* 5\.00 s$' "$tmp/s.txt" \
    || die "text report: rank 0's 30 steps with the 5 s split one"
echo "ok: split B/E pairs and a 19-digit ns file name (report, export, text)"

# A job whose E never came: the B is named in the warnings, not dropped silently.
python3 "$fx" split "$tmp/cut" --without-last
"$SMTOP" report --json "$tmp/cut" > "$tmp/c.json" || die "report cut"
"$SMTOP_SRC/tests/tools/schema_ok.sh" "$tmp/c.json" || die "schema"
python3 -c "
import json,sys; m=json.load(open(sys.argv[1]))['warnings']['messages']
assert any('1 B event without an E' in x for x in m), m" "$tmp/c.json" || die "unpaired B not named"

# ---- 3. windows ----------------------------------------------------------
win() {   # win NAME SINCE_US UNTIL_US
    local name=$1 s=$2 u=$3 args=()
    [ "$s" = 0 ] || args+=(--since "$(secs "$s")")
    [ "$u" = 0 ] || args+=(--until "$(secs "$u")")
    "$SMTOP" report --json "${args[@]}" "$tmp/split" > "$tmp/$name.json" || die "report $name"
    "$SMTOP_SRC/tests/tools/schema_ok.sh" "$tmp/$name.json" || die "schema"
    python3 "$fx" ref "$tmp/split" "$s" "$u" > "$tmp/$name.ref"
    compare "$tmp/$name.json" "$tmp/$name.ref" || die "window $name vs python"
    "$SMTOP" export --perfetto "$tmp/$name.x.json" "${args[@]}" "$tmp/split" 2>/dev/null \
        || die "export $name"
    export_counts "$tmp/$name.x.json" "$tmp/$name.ref" || die "export window $name"
}
win edges "$(fact step5_end)" "$(fact step25_start)"
python3 - "$tmp/edges.json" <<'PY' || die "window edges"
import json, sys
r = json.load(open(sys.argv[1]))
t = [s for s in r["steps"] if s["process"] == "0-algo-1" and s["phase"] == "Step:ModeKeys.TRAIN"][0]
assert t["count"] == 20, t      # steps 5 (ends at since) .. 24; 25 starts at until
PY
win inside "$(( $(fact split_step_start) + 2000000 ))" 0
python3 -c "
import json,sys; r=json.load(open(sys.argv[1]))
t=[s for s in r['steps'] if s['process']=='0-algo-1' and s['phase']=='Step:ModeKeys.TRAIN'][0]
assert t['count'] == 15 and t['max_us'] == 5000000, t" "$tmp/inside.json" \
    || die "a window inside the split step keeps it"
echo "ok: windows keep what overlaps them (report, export)"
