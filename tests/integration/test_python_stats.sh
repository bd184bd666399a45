#!/usr/bin/env bash
# `smtop report` python section against Python's own pstats: real cProfile
# dumps and crafted marshal (versions 2, 3, 4: recursion, unicode, huge
# counts) laid out as a profiler-output tree, merged like Stats.add and
# compared number by number for every sort key; pyinstrument trees incl. a
# failed session; a truncated file is skipped with a warning, not a crash.
# Only this machine's python3 writes the real dumps (3.11 here); the
# crafted files cover the marshal versions Python 3.7+ write.
set -o pipefail
source "$(dirname "$0")/it_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
tmp=$T
fix="$SMTOP_SRC/tests/tools/pystats_fixture.py"

python3 "$fix" cprofile "$tmp/job/profiler-output" || fail_now "fixture generation"

checks=()
for run in tottime:5 tottime:20 cumtime:20 ncalls:20 pcalls:20 tpercall:1000 cpercall:1000; do
  sort=${run%:*} top=${run#*:}
  "$SMTOP" report --json --top "$top" --python-sort "$sort" "$tmp/job" >"$tmp/r-$run.json" \
    2>"$tmp/err" || fail_now "report --python-sort $sort: $(cat "$tmp/err")"
  checks+=("$sort" "$top" "$tmp/r-$run.json")
done
python3 "$fix" check "$tmp/job/profiler-output" "${checks[@]}" || fail_now "smtop and pstats disagree"
"$SMTOP_SRC/tests/tools/schema_ok.sh" "$tmp"/r-*.json || fail_now "schema"

# window selection: one node, a step range, a job phase
"$SMTOP" report --json --python-node algo-1 --python-steps 9:11 "$tmp/job" >"$tmp/r.json"
"$SMTOP_SRC/tests/tools/schema_ok.sh" "$tmp/r.json" || fail_now "schema"
python3 - "$tmp/r.json" <<'EOF' || fail_now "window selection"
import json, sys
py = json.load(open(sys.argv[1]))["python"]
w = py["windows"]
assert len(w) == 1 and w[0]["node"] == "algo-1" and w[0]["start_step"] == 9, w
EOF
# steps as smdebug's fetch_profile_stats_by_step: TRAIN windows within A..B
# (train 9-11 and 20-22, and the mode-less older naming at step 5), unless
# --python-mode says otherwise, in either order
sel() { "$SMTOP" report --json "$@" "$tmp/job" | python3 -c 'import json, sys
w = json.load(sys.stdin)["python"]["windows"]
print(" ".join(sorted("%s:%s" % (x["start_mode"] or "-", x["start_step"]) for x in w)))'; }
[ "$(sel --python-steps 10:12)" = "" ] || fail_now "9..11 is not within 10..12: $(sel --python-steps 10:12)"
[ "$(sel --python-steps 0:30)" = "-:5 train:20 train:9" ] || fail_now "TRAIN 0:30: $(sel --python-steps 0:30)"
[ "$(sel --python-steps 0:30 --python-mode any)" = "-:5 prestepzero:None train:20 train:30 train:30 train:30 train:9" ] \
    || fail_now "any 0:30: $(sel --python-steps 0:30 --python-mode any)"
[ "$(sel --python-mode eval --python-steps 0:30)" = "-:5" ] \
    || fail_now "eval 0:30: $(sel --python-mode eval --python-steps 0:30)"
[ "$(sel --python-mode eval)" = "-:5 -:None" ] || fail_now "eval, all steps: $(sel --python-mode eval)"
"$SMTOP" report --python-mode bogus "$tmp/job" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "use train, eval, predict, global or any" "$tmp/err" || fail_now "bad --python-mode"
"$SMTOP" report --help | grep -q -- "--python-mode MODE" || fail_now "--python-mode not in --help"
"$SMTOP" report --help | grep -q "fetch_profile_stats_by_step" || fail_now "--python-steps semantics not in --help"

"$SMTOP" report --json --python-phase before --python-phase after "$tmp/job" >"$tmp/r.json"
"$SMTOP_SRC/tests/tools/schema_ok.sh" "$tmp/r.json" || fail_now "schema"
python3 - "$tmp/r.json" <<'EOF' || fail_now "job phase selection"
import json, sys
w = json.load(open(sys.argv[1]))["python"]["windows"]
phases = sorted(x["job_phase"] for x in w)
assert phases == ["after_hook_close"] * 3 + ["before_step0"] * 2, phases
assert all(x["start_step"] is None or x["end_step"] is None for x in w), w
EOF

# text mode
"$SMTOP" report --top 5 "$tmp/job" >"$tmp/out" || fail_now "text report"
grep -q "python (cProfile, 8 windows, sorted by tottime)" "$tmp/out" \
  || fail_now "no python header in text report: $(cat "$tmp/out")"
grep -q "9009/9" "$tmp/out" || fail_now "recursive calls not shown as total/primitive"

# usage errors
"$SMTOP" report --python-sort bogus "$tmp/job" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "unknown key 'bogus'" "$tmp/err" || fail_now "bad --python-sort accepted"
"$SMTOP" report --top 0 "$tmp/job" >/dev/null 2>&1
[ $? = 2 ] || fail_now "--top 0 accepted"

# pyinstrument: self/total per function, recursion counted once, failed session
python3 "$fix" pyinstrument "$tmp/pyi" || fail_now "pyinstrument fixture"
"$SMTOP" report --json "$tmp/pyi" >"$tmp/p.json" 2>"$tmp/err" || fail_now "pyinstrument: $(cat "$tmp/err")"
"$SMTOP_SRC/tests/tools/schema_ok.sh" "$tmp/p.json" || fail_now "schema"
python3 - "$tmp/p.json" <<'EOF' || fail_now "pyinstrument numbers"
import json, sys
py = json.load(open(sys.argv[1]))["python"]
assert py["profiler"] == "pyinstrument" and py["failed_sessions"] == 1, py
assert [w["failed"] for w in py["windows"]] == [False, True], py["windows"]
got = {f["function"]: (f["tottime_s"], f["cumtime_s"]) for f in py["top"]}
want = {"data/读.py:3(load)": (3.0, 3.5), "model.py:5(forward)": (2.5, 4.0),
        "nn.py:9(relu)": (2.0, 2.0), "train.py:20(step)": (2.0, 6.0),
        "train.py:1(<module>)": (0.5, 10.0)}
assert got == want, got
assert [f["function"] for f in py["top"]][:2] == ["data/读.py:3(load)", "model.py:5(forward)"]
EOF

# a truncated dump is skipped with a warning naming it; the rest still report
f=$(ls "$tmp"/job/profiler-output/framework/pytorch/cprofile/algo-1/train-9-*/python_stats)
head -c 100 "$f" >"$tmp/cut" && mv "$tmp/cut" "$f"
"$SMTOP" report --json "$tmp/job" >"$tmp/r.json" 2>"$tmp/err" || fail_now "report after truncation"
"$SMTOP_SRC/tests/tools/schema_ok.sh" "$tmp/r.json" || fail_now "schema"
python3 - "$tmp/r.json" <<'EOF' || fail_now "truncated file handling"
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r["python"]["windows"]) == 7, r["python"]["windows"]
assert r["warnings"]["skipped_files"] >= 1, r["warnings"]
assert any("python_stats" in m and "byte offset" in m for m in r["warnings"]["messages"]), r["warnings"]
EOF
echo "OK"
