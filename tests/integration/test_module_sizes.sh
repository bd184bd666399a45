#!/usr/bin/env bash
# No module over 800 lines, its header included (the house rule of
# HACKING.md "Conventions"): scripts/module_sizes.py names any that is.
set -euo pipefail
src=${SMTOP_SRC:?}
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
if ! out=$(python3 "$src/scripts/module_sizes.py"); then
    echo "FAIL: modules over 800 lines (cut them along a concept):"
    echo "$out"
    exit 1
fi
python3 "$src/scripts/module_sizes.py" --all | sed -n 1,3p
echo "ok: no module over 800 lines"
