#!/usr/bin/env bash
# Every exported symbol of smtop's libraries carries its module's prefix
# (its file's stem or a leading part of it, or its folder's name), by nm
# on the objects (scripts/names.py). Then the check is shown to fail: an
# object exporting a name without its prefix must be refused.
source "$(dirname "$0")/it_lib.sh"
set -eo pipefail
src=${SMTOP_SRC:?}
build=${SMTOP_BUILD:?}
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
command -v nm >/dev/null || { echo "SKIPPED: nm not found"; exit 77; }

if ! out=$(python3 "$src/scripts/names.py" "$build"); then
    echo "FAIL: $out"
    exit 1
fi
echo "$out"

mkdir -p "$T/CMakeFiles/smtop_model.dir/model/util"
printf 'int vec_ok(void) { return 0; }\nint stray_name(void) { return 1; }\n' > "$T/vec.c"
cc -c -o "$T/CMakeFiles/smtop_model.dir/model/util/vec.c.o" "$T/vec.c"
if python3 "$src/scripts/names.py" "$T" > "$T/out"; then
    echo "FAIL: stray_name in model/util/vec.c passed the check"
    exit 1
fi
grep -q '1 of 2 exported symbols' "$T/out" && grep -q 'model/util/vec.c: stray_name' "$T/out" ||
    { echo "FAIL: the stray name is not named:"; cat "$T/out"; exit 1; }
echo "ok: every exported name carries its prefix"
