#!/usr/bin/env bash
# Python-stats benchmark (issue 5, "Performance"): reading and merging N
# cProfile files of ~FUNCS functions each, smtop against Python's own
#   python3 -c 'import pstats; s = pstats.Stats(f0); [s.add(f) for f in rest]'
# on the same files. Target: smtop <= 10 % of Python's time.
#
#   SMTOP=build/smtop tests/bench/bench_pystats.sh   (N=100 FUNCS=3000 REPS=5)
#
# Data: tests/tools/pystats_fixture.py bench — a generated module of FUNCS
# functions calling each other, profiled N times with cProfile and laid out
# as framework/pytorch/cprofile/algo-<k>/<stats_dir>/python_stats. smtop
# runs `report --json --top 20` on that tree (scan + read + decode + merge +
# sort + JSON). Median of REPS runs each, wall and CPU time. Not a ctest
# test.
set -eu
SMTOP=${SMTOP:-build/smtop}
REPS=${REPS:-5}
N=${N:-100}
FUNCS=${FUNCS:-3000}
HERE=$(cd "$(dirname "$0")" && pwd)
if [ ! -x "$SMTOP" ]; then
    echo "bench_pystats: $SMTOP is not an executable; build first or set SMTOP" >&2
    exit 1
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/smtop_pybench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

echo "generating $N cProfile files of ~$FUNCS functions ..."
python3 "$HERE/../tools/pystats_fixture.py" bench "$TMP/job/profiler-output" "$N" "$FUNCS"
mapfile -t FILES < <(find "$TMP/job" -name python_stats | sort)
echo "files: ${#FILES[@]}, $(du -sh "$TMP/job" | cut -f1), functions in the first:" \
     "$(python3 -c 'import pstats,sys; print(len(pstats.Stats(sys.argv[1]).stats))' "${FILES[0]}")"
printf '%s\n' "${FILES[@]}" >"$TMP/list"

PY="python3 -c 'import pstats,sys; f=open(sys.argv[1]).read().split(); s=pstats.Stats(f[0]); [s.add(x) for x in f[1:]]' $TMP/list"
SM="$SMTOP report --json --top 20 $TMP/job"

# median_of CMD: runs CMD REPS times; prints "wall_ms cpu_ms" of the run
# with the median wall time (cpu = user + sys, from bash's `time`: on a
# shared machine the CPU time is the steadier figure).
median_of() {
    local TIMEFORMAT='%R %U %S'
    for _ in $(seq "$REPS"); do
        { time bash -c "$1" >/dev/null 2>&1; } 2>&1 | awk '{printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000}'
    done | sort -n | sed -n "$(((REPS + 1) / 2))p"
}

bash -c "$SM" >/dev/null   # warm the page cache for both
read -r py_ms py_cpu < <(median_of "$PY")
read -r sm_ms sm_cpu < <(median_of "$SM")
echo "python pstats Stats.add: median ${py_ms} ms wall, ${py_cpu} ms cpu"
echo "smtop report --json:     median ${sm_ms} ms wall, ${sm_cpu} ms cpu"
python3 -c "import sys; p, s, pc, sc = map(int, sys.argv[1:]); \
print(f'ratio smtop/python: {100 * s / max(p, 1):.1f} % wall, {100 * sc / max(pc, 1):.1f} % cpu (target <= 10 %)')" \
    "$py_ms" "$sm_ms" "$py_cpu" "$sm_cpu"
