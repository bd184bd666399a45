#!/usr/bin/env bash
# Every exported symbol of smtop's libraries carries its module's prefix
# (its file's stem or a leading part of it, or its folder's name), by nm
# on the objects (scripts/names.py). Then the check is shown to fail: an
# object exporting a name without its prefix must be refused.
set -euo pipefail
src=${SMTOP_SRC:?}
build=${SMTOP_BUILD:?}
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
command -v nm >/dev/null || { echo "SKIPPED: nm not found"; exit 77; }

if ! out=$(python3 "$src/scripts/names.py" "$build"); then
    echo "FAIL: $out"
    exit 1
fi
echo "$out"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/CMakeFiles/smtop_model.dir/model/util"
printf 'int vec_ok(void) { return 0; }\nint stray_name(void) { return 1; }\n' > "$tmp/vec.c"
cc -c -o "$tmp/CMakeFiles/smtop_model.dir/model/util/vec.c.o" "$tmp/vec.c"
if python3 "$src/scripts/names.py" "$tmp" > "$tmp/out"; then
    echo "FAIL: stray_name in model/util/vec.c passed the check"
    exit 1
fi
grep -q '1 of 2 exported symbols' "$tmp/out" && grep -q 'model/util/vec.c: stray_name' "$tmp/out" ||
    { echo "FAIL: the stray name is not named:"; cat "$tmp/out"; exit 1; }
echo "ok: every exported name carries its prefix"
