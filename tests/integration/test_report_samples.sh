#!/usr/bin/env bash
# smtop report --json on smdebug's own sample jobs must agree with an
# independent Python reading of the same files: per-core CPU statistics,
# total CPU per timestamp, the 30 TRAIN and 10 EVAL steps and their
# percentiles, per node and per writer (905-b88ab1bb8259: pid 905 on host
# b88ab1bb8259, the node).
source "$(dirname "$0")/it_lib.sh"
set -eo pipefail
if [ ! -d "${SMTOP_SAMPLES:-}/test_traces" ]; then
  echo "SKIPPED: ../shared/samples not found (real-sample tests need it)"
  exit 77
fi
tools="$SMTOP_SRC/tests/tools"

for job in test_traces merge_traces; do
  "$SMTOP" report --json "$SMTOP_SAMPLES/$job" > "$T/$job.smtop.json"
  "$SMTOP_SRC/tests/tools/schema_ok.sh" "$T/$job.smtop.json" || exit 1
  python3 "$tools/ref_report.py" "$SMTOP_SAMPLES/$job" > "$T/$job.ref.json"
done
python3 "$tools/compare_report.py" "$T/test_traces.smtop.json" "$T/test_traces.ref.json"
python3 "$tools/compare_report.py" "$T/merge_traces.smtop.json" "$T/merge_traces.ref.json" \
  "b88ab1bb8259|Step:ModeKeys.TRAIN=30" "b88ab1bb8259|Step:ModeKeys.EVAL=10" \
  "905-b88ab1bb8259|Step:ModeKeys.TRAIN=30" "905-b88ab1bb8259|Step:ModeKeys.EVAL=10"

# The sample system files hold 32 cores of algo-1; no line is corrupt.
python3 - "$T/test_traces.smtop.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
node = [n for n in r["nodes"] if n["id"] == "algo-1"][0]
assert node["cpus"] == 32, node["cpus"]
w = r["warnings"]
assert w["corrupt_lines"] == 0 and w["partial_lines"] == 0 and w["skipped_files"] == 0, w
# earliest record: the framework event at base 1589930987655184 + ts 1008335
assert r["time_range"]["start_us"] == 1589930988663519, r["time_range"]
print("sample job checks passed")
PY

# Text mode renders the same job without error and names the node.
"$SMTOP" report "$SMTOP_SAMPLES/test_traces" | grep "node algo-1" >/dev/null
