#!/usr/bin/env bash
# Longer randomised runs of the live-vs-final differential harness
# (tests/unit/test_live_vs_final.c); ctest runs only its 24 fixed seeds.
#
#   tests/stress/live_vs_final.sh [BUILD_DIR] [SECONDS] [SEEDS]
#
# 1. SEEDS deterministic schedules (default 500, from seed 100): the writer
#    and the dashboard's scan loop interleaved action by action.
# 2. Threaded runs for SECONDS (default 120): the writer in real time on
#    one thread, the real loader thread scanning every 20 ms, 10 s per run.
# Every run must end with the live model equal to `smtop report`'s on the
# finished files. Prints one line per run and a summary; exit 1 on any
# mismatch.
set -euo pipefail
build=${1:-build}
seconds=${2:-120}
seeds=${3:-500}
bin="$build/tests/test_live_vs_final"
[ -x "$bin" ] || { echo "build first: $bin not found" >&2; exit 2; }
log=$(mktemp /tmp/smtop-live-stress-XXXXXX.log)
trap 'rm -f "$log"' EXIT

echo "== $seeds deterministic seeds from 100"
if ! SMTOP_LIVE_SEEDS="100:$seeds" "$bin" >"$log" 2>&1; then
    grep -E "^seed" "$log" | grep -v " 0 mismatches" | head -20
    fails=1
fi
grep -E "^seed" "$log" | awk '
    { n++; a += $3; s += $5; r += $7; smp += $9; ev += $11; if ($0 !~ / 0 mismatches/) bad++ }
    END { printf "seeds %d: %d actions, %d scans, %d rotations, %d samples, %d events; %d with mismatches\n",
                 n, a, s, r, smp, ev, bad }'

echo "== threaded, ${seconds} s"
if ! SMTOP_LIVE_STRESS_S="$seconds" "$bin" >"$log" 2>&1; then
    fails=1
fi
grep -E "^threaded seed" "$log" | cut -c1-200
grep -E "^threaded seed" "$log" | awk '
    { n++; a += $4; s += $6; r += $8; smp += $10; ev += $12; if ($0 !~ / 0 mismatches/) bad++ }
    END { printf "threaded runs %d: %d actions, %d loader passes, %d rotations, %d samples, %d events; %d with mismatches\n",
                 n, a, s, r, smp, ev, bad }'
exit ${fails:-0}
