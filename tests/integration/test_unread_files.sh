#!/usr/bin/env bash
# What a job holds is read or named: TF detailed-profiling traces are
# placed on the job clock from smdebug's .metadata record in their step
# directory (node from its writer id, not the trace's host name) by the
# path report and dashboard share; every file under framework/ or system/
# that is not read is in the report's warnings with its reason, in JSON
# and in text.
set -o pipefail
source "$(dirname "$0")/it_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
tmp=$T
fix="$SMTOP_SRC/tests/tools/layout_fixture.py"
job="$tmp/job/profiler-output"

"$SMTOP" synth --out "$job" --nodes 2 --minutes 2 --seed 3 --python-stats 300 >/dev/null ||
    fail_now "synth"
"$SMTOP" report --json "$job" >"$tmp/clean.json" || fail_now "report on the clean job"
"$SMTOP_SRC/tests/tools/schema_ok.sh" "$tmp/clean.json" || fail_now "schema"
python3 -c 'import json,sys; w=json.load(open(sys.argv[1]))["warnings"]; assert w["unread_files"] == 0 and not w["unread"], w' \
    "$tmp/clean.json" || fail_now "a clean synthetic job has unread files"

python3 "$fix" tf "$job" >"$tmp/tf.json" || fail_now "tf fixture"
python3 "$fix" unread "$job" >"$tmp/unread.json" || fail_now "unread fixture"
"$SMTOP" report --json "$job" >"$tmp/r.json" 2>"$tmp/err" || fail_now "report: $(cat "$tmp/err")"
"$SMTOP_SRC/tests/tools/schema_ok.sh" "$tmp/r.json" || fail_now "schema"
python3 - "$tmp/r.json" "$tmp/tf.json" "$tmp/unread.json" <<'PY' || fail_now "report content"
import json, sys
r = json.load(open(sys.argv[1])); tf = json.load(open(sys.argv[2]))
extra = json.load(open(sys.argv[3]))
# the placed trace: its event on algo-2 (the writer's node), at the record's start
cpu = [s for s in r["steps"] if s["phase"] == "/host:CPU"]
assert [(s["node"], s["count"]) for s in cpu] == [("algo-2", 1)], cpu
assert not any(n["id"].startswith("ip-") for n in r["nodes"]), [n["id"] for n in r["nodes"]]
w = r["warnings"]
why = {u["key"]: u["why"] for u in w["unread"]}
# the unplaced trace says which record it lacks, where
assert why[tf["unplaced"]] == ("not read: not placed on the job clock: no "
    "<writer>_<start_us>_<end_us>.metadata in " + tf["step7_dir"]), why
for k in extra:
    assert k in why, (k, sorted(why))
assert why[[k for k in extra if k.endswith("notes.txt")][0]] == "not read: unknown file name"
assert "_unknown_timeline.json" in "".join(why) and \
    why[[k for k in extra if k.endswith("_unknown_timeline.json")][0]] == "not read: unknown file name"
assert "TensorBoard profile data" in why[[k for k in extra if k.endswith(".xplane.pb")][0]]
assert "HTML view" in why[[k for k in extra if k.endswith(".html")][0]]
assert "not read: " in why[[k for k in extra if k.endswith("-b.trace.json.gz")][0]]
assert w["unread_files"] == len(why) == len(extra) + 1, (w["unread_files"], sorted(why))
# each is also a message, named once
for k in why:
    assert sum(m.startswith(k + ": ") for m in w["messages"]) == 1, (k, w["messages"])
PY

"$SMTOP" report "$job" >"$tmp/r.txt" 2>&1 || fail_now "text report"
grep -q "files not read" "$tmp/r.txt" || fail_now "text report has no unread count: $(tail -20 "$tmp/r.txt")"
python3 - "$tmp/r.txt" "$tmp/r.json" <<'PY' || fail_now "text report does not name every unread file"
import json, sys
txt = open(sys.argv[1]).read()
for u in json.load(open(sys.argv[2]))["warnings"]["unread"]:
    assert f"  {u['key']}: {u['why']}" in txt, u
PY
echo "OK"
