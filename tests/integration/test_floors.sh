#!/usr/bin/env bash
# The include graph by folder keeps the floors of HACKING.md ("The
# floors"): no include runs up a floor, no cycle spans two folders
# (scripts/floors.py). Then the check itself is shown to fail: a copy of
# two rooms with an include running up must be refused.
source "$(dirname "$0")/it_lib.sh"
set -eo pipefail
src=${SMTOP_SRC:?}
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }

if ! out=$(python3 "$src/scripts/floors.py"); then
    echo "FAIL: includes break the floors:"
    echo "$out"
    exit 1
fi

mkdir -p "$T/model/util" "$T/model/core" "$T/io" "$T/tui"
echo '#include "model/core/x.h"' > "$T/model/util/up.h"
echo '#include "model/util/up.h"' > "$T/model/core/x.h"
if FLOORS_ROOT=$T python3 "$src/scripts/floors.py" > "$T/out"; then
    echo "FAIL: an include from model/util up to model/core passed the check"
    exit 1
fi
grep -q 'model/util/up.h -> model/core/x.h: model/util (floor 1) includes model/core' "$T/out" ||
    { echo "FAIL: the up include is not named:"; cat "$T/out"; exit 1; }
grep -q 'cycle across folders: model/core <-> model/util' "$T/out" ||
    { echo "FAIL: the cycle is not named:"; cat "$T/out"; exit 1; }
echo "ok: the floors hold"
