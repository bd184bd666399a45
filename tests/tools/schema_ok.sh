#!/usr/bin/env bash
# schema_ok.sh FILE...: each `smtop report --json` / `smtop diff --json`
# output a test made validates against tui/report/report.schema.json, so
# the schema holds for every report the suite makes, not only for the
# shapes it_report_schema builds. Prints the violations and exits 1 on a
# mismatch; without python3-jsonschema (scripts/install-deps.sh --test) it
# says so once and passes, as it_report_schema then skips.
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -gt 0 ] || { echo "schema_ok.sh: no file given" >&2; exit 2; }
out=$(python3 "$here/tests/tools/validate_report.py" "$here/tui/report/report.schema.json" "$@" 2>&1)
rc=$?
case $rc in
    0) exit 0 ;;
    77) echo "note: $out: reports not checked against the schema"; exit 0 ;;
    *) echo "$out"; echo "FAIL: output above does not match report.schema.json" >&2; exit 1 ;;
esac
