#!/usr/bin/env bash
# The include graph by folder keeps the floors of HACKING.md ("The
# floors"): no include runs up a floor, no cycle spans two folders
# (scripts/floors.py). Then the check itself is shown to fail: a copy of
# two rooms with an include running up must be refused.
set -euo pipefail
src=${SMTOP_SRC:?}
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }

if ! out=$(python3 "$src/scripts/floors.py"); then
    echo "FAIL: includes break the floors:"
    echo "$out"
    exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/model/util" "$tmp/model/core" "$tmp/io" "$tmp/tui"
echo '#include "model/core/x.h"' > "$tmp/model/util/up.h"
echo '#include "model/util/up.h"' > "$tmp/model/core/x.h"
if FLOORS_ROOT=$tmp python3 "$src/scripts/floors.py" > "$tmp/out"; then
    echo "FAIL: an include from model/util up to model/core passed the check"
    exit 1
fi
grep -q 'model/util/up.h -> model/core/x.h: model/util (floor 1) includes model/core' "$tmp/out" ||
    { echo "FAIL: the up include is not named:"; cat "$tmp/out"; exit 1; }
grep -q 'cycle across folders: model/core <-> model/util' "$tmp/out" ||
    { echo "FAIL: the cycle is not named:"; cat "$tmp/out"; exit 1; }
echo "ok: the floors hold"
