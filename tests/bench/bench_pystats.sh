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
# sort + JSON). Median wall time of REPS runs each (hyperfine when
# installed, else date +%s%N). Not a ctest test.
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

median_ms() {   # median_ms CMD: median wall time of REPS runs, in ms
    local t=()
    for _ in $(seq "$REPS"); do
        local a b
        a=$(date +%s%N)
        bash -c "$1" >/dev/null
        b=$(date +%s%N)
        t+=($(((b - a) / 1000000)))
    done
    printf '%s\n' "${t[@]}" | sort -n | sed -n "$(((REPS + 1) / 2))p"
}

if command -v hyperfine >/dev/null; then
    hyperfine -r "$REPS" --export-json "$TMP/h.json" "$PY" "$SM" >/dev/null
    read -r py_ms sm_ms < <(python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))["results"]
print(*(round(x["median"] * 1000) for x in r))' "$TMP/h.json")
else
    bash -c "$SM" >/dev/null   # warm the page cache for both
    py_ms=$(median_ms "$PY")
    sm_ms=$(median_ms "$SM")
fi
echo "python pstats Stats.add: median ${py_ms} ms"
echo "smtop report --json:     median ${sm_ms} ms"
python3 -c "import sys; p, s = int(sys.argv[1]), int(sys.argv[2]); \
print(f'ratio smtop/python: {100 * s / max(p, 1):.1f} % (target <= 10 %)')" "$py_ms" "$sm_ms"
