#!/usr/bin/env bash
# The whole test suite, as CI runs it: install test dependencies; prove
# README line 1 builds without them (scripts/check-fresh.sh); build with
# warnings as errors, run ctest; then rebuild with AddressSanitizer +
# UndefinedBehaviorSanitizer and run ctest again. The last line printed is
# ctest's own summary of the sanitizer run.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
"$here/scripts/install-deps.sh" --test
jobs=$(nproc 2>/dev/null || echo 2)

# README line 1, as written, on a machine without the test dependencies.
"$here/scripts/check-fresh.sh" "$here/build-ci-fresh"

cmake -S . -B build-ci -DSMTOP_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-ci -j"$jobs"
ctest --test-dir build-ci --output-on-failure -j"$jobs"

cmake -S . -B build-ci-asan -DSMTOP_WERROR=ON -DSMTOP_SANITIZE=ON \
      -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build build-ci-asan -j"$jobs"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir build-ci-asan --output-on-failure -j"$jobs"
