#!/usr/bin/env bash
# The test suite under ThreadSanitizer: builds BUILD (default build-tsan)
# with -DSMTOP_TSAN=ON and runs ctest there. A data race or a lock-order
# inversion fails the test that hit it (halt_on_error), with both stacks
# in its output. Extra arguments go to ctest (e.g. -R unit_).
#
#   scripts/tsan.sh [BUILD] [ctest args...]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build-tsan}
shift || true
cmake -S "$here" -B "$build" -DSMTOP_WERROR=ON -DSMTOP_TSAN=ON \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"$(nproc 2>/dev/null || echo 2)"
# second_deadlock_stack: both stacks of a lock-order report.
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
ctest --test-dir "$build" --output-on-failure "$@"
