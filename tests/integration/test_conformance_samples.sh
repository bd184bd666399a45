#!/usr/bin/env bash
# smdebug's own resource files, smdebug's own numbers: the 78 system events
# of test_traces (test_system_metrics_reader.py::test_SystemLocalMetricsReader)
# and its 4 python-timeline events, one per rotated file (the algorithm
# metrics reader test); the generated equivalents are in test_conformance.
source "$(dirname "$0")/it_lib.sh"
set -o pipefail
if [ ! -d "${SMTOP_SAMPLES:-}/test_traces" ]; then
  echo "SKIPPED: ../shared/samples not found (real-sample tests need it)"
  exit 77
fi
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
"$SMTOP" report --json "$SMTOP_SAMPLES/test_traces" >"$T/r.json" || { echo "FAIL: report"; exit 1; }
"$SMTOP_SRC/tests/tools/schema_ok.sh" "$T/r.json" || exit 1
python3 - "$T/r.json" <<'PY' || { echo "FAIL: smdebug's numbers on its own files"; exit 1; }
import json, sys
r = json.load(open(sys.argv[1]))
system = sum(m["count"] for n in r["nodes"] for m in n["metrics"] if m["name"] != "total")
assert system == 78, system
assert [(s["node"], s["count"]) for s in r["steps"] if s["process"] is None] == [("4487_0000", 4)], r["steps"]
w = r["warnings"]
assert (w["corrupt_lines"], w["partial_lines"], w["unread_files"]) == (0, 0, 0), w
print("78 system events, 4 python timeline events")
PY
echo "OK"
