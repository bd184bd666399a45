#!/usr/bin/env bash
# Conformance with smdebug's profiler tests: fixtures the test makes itself
# (python3's cProfile and marshal; trace JSON in each valid layout), each
# case naming the smdebug test it mirrors and whether its number is
# smdebug's or computed independently here. See tests/tools/conformance.py.
set -uo pipefail
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 "$SMTOP_SRC/tests/tools/conformance.py" "$SMTOP" "$tmp"
