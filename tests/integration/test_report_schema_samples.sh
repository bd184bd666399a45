#!/usr/bin/env bash
# `smtop report --json` of smdebug's own sample jobs, and `smtop diff --json`
# between them, validate against tui/report/report.schema.json. The
# synthetic shapes are in test_report_schema.sh.
set -o pipefail
: "${SMTOP:?}" "${SMTOP_SRC:?}"
source "$(dirname "$0")/it_lib.sh"
if [ ! -d "${SMTOP_SAMPLES:-}/test_traces" ]; then
  echo "SKIPPED: ../shared/samples not found (real-sample tests need it)"
  exit 77
fi
python3 -c 'import jsonschema' 2>/dev/null ||
  { echo "SKIPPED: python3-jsonschema not installed (scripts/install-deps.sh --test)"; exit 77; }
export XDG_CONFIG_HOME="$T/config"
SCHEMA="$SMTOP_SRC/tui/report/report.schema.json"
VALIDATE="$SMTOP_SRC/tests/tools/validate_report.py"

reports=()
for job in "$SMTOP_SAMPLES"/*/; do
  name=$(basename "$job")
  # kineto/ is a folder of trace sets, each its own job: test_kineto_* reads them.
  [ "$name" = kineto ] && continue
  "$SMTOP" report --json "$job" >"$T/$name.json" 2>"$T/err" ||
    { fail "report $name: $(cat "$T/err")"; continue; }
  reports+=("$T/$name.json")
done
[ ${#reports[@]} -ge 2 ] || fail "expected at least two sample jobs, got ${#reports[@]}"
"$SMTOP" diff --json "$SMTOP_SAMPLES/test_traces" "$SMTOP_SAMPLES/merge_traces" >"$T/d1.json" ||
  fail "diff test_traces merge_traces"
"$SMTOP" diff --json "$SMTOP_SAMPLES/merge_traces" "$SMTOP_SAMPLES/merge_traces" >"$T/d2.json" ||
  fail "diff merge_traces with itself"

python3 "$VALIDATE" "$SCHEMA" --kind report "${reports[@]}" || fail "a sample report does not match"
python3 "$VALIDATE" "$SCHEMA" --kind diff "$T/d1.json" "$T/d2.json" || fail "a sample diff does not match"
it_done
