#!/usr/bin/env bash
# Proves README line 1 on a machine that ran only `scripts/install-deps.sh`
# (no --test): configures and builds a Release tree with cmocka hidden from
# pkg-config, then runs the binary it built (--version, synth + report, the
# demo dashboard headless). Run by scripts/test.sh; usable alone:
#   scripts/check-fresh.sh [BUILD_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build-fresh}
work=$(mktemp -d "${TMPDIR:-/tmp}/smtop-fresh.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "check-fresh: FAIL: $*" >&2; exit 1; }

# A pkg-config search path holding every .pc file of this machine except
# cmocka.pc: what pkg-config sees where libcmocka-dev is not installed.
pcdir="$work/pkgconfig"
mkdir -p "$pcdir"
IFS=: read -r -a dirs <<<"$(pkg-config --variable pc_path pkg-config)"
for d in "${dirs[@]}"; do
    [ -d "$d" ] || continue
    for pc in "$d"/*.pc; do
        [ -e "$pc" ] || continue
        name=$(basename "$pc")
        [ "$name" = cmocka.pc ] || [ -e "$pcdir/$name" ] || ln -s "$pc" "$pcdir/$name"
    done
done
export PKG_CONFIG_LIBDIR="$pcdir" PKG_CONFIG_PATH=
pkg-config --exists cmocka && fail "cmocka still visible to pkg-config"

rm -rf "$build"
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSMTOP_WERROR=ON \
    >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "configure without cmocka"; }
grep -q "unit tests skipped, cmocka not found" "$work/configure.log" ||
    { cat "$work/configure.log"; fail "no note saying how to enable the unit tests"; }
cmake --build "$build" -j"$(nproc 2>/dev/null || echo 2)" >"$work/build.log" 2>&1 ||
    { tail -40 "$work/build.log"; fail "build without cmocka"; }

smtop="$build/smtop"
"$smtop" --version | grep -q '^smtop [0-9]' || fail "smtop --version"
"$smtop" synth --out "$work/job" --nodes 2 --minutes 2 --seed 3 >/dev/null || fail "smtop synth"
"$smtop" report "$work/job" >"$work/report.txt" || fail "smtop report"
grep -q 'algo-2' "$work/report.txt" || { cat "$work/report.txt"; fail "report lacks node algo-2"; }
TMPDIR="$work" timeout 60 "$smtop" --demo --frames 20 </dev/null >/dev/null ||
    fail "smtop --demo --frames 20"
echo "check-fresh: ok: built without cmocka; --version, synth + report and --demo work"
