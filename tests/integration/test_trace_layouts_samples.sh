#!/usr/bin/env bash
# smdebug's own trace files re-laid out as json.dump writes them (the whole
# array on one line; pretty-printed) give the report the original files
# give: same steps, no corrupt or partial line, no unread file.
set -o pipefail
source "$(dirname "$0")/it_lib.sh"
if [ ! -d "${SMTOP_SAMPLES:-}/test_traces" ]; then
  echo "SKIPPED: ../shared/samples not found (real-sample tests need it)"
  exit 77
fi
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
tmp=$T
for job in test_traces merge_traces; do
  "$SMTOP" report --json "$SMTOP_SAMPLES/$job" >"$tmp/$job.json" || fail_now "report $job"
  "$SMTOP_SRC/tests/tools/schema_ok.sh" "$tmp/$job.json" || fail_now "schema"
  for l in oneline pretty; do
    cp -r "$SMTOP_SAMPLES/$job" "$tmp/$job-$l"
    python3 "$SMTOP_SRC/tests/tools/relayout.py" "$l" "$tmp/$job-$l" || fail_now "relayout $job $l"
    "$SMTOP" report --json "$tmp/$job-$l" >"$tmp/$job-$l.json" || fail_now "report $job $l"
    python3 - "$tmp/$job.json" "$tmp/$job-$l.json" <<'PY' || fail_now "$job $l differs"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert sum(s["count"] for s in a["steps"]) > 0
assert a["steps"] == b["steps"], "steps differ"
w = b["warnings"]
assert w["corrupt_lines"] == 0 and w["partial_lines"] == 0 and w["unread_files"] == 0, w
PY
  done
done
echo "OK"
