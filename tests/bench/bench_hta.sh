#!/usr/bin/env bash
# bench_hta (issue 35): smtop beside Holistic Trace Analysis on the same
# trace folders: HTA's own load (TraceAnalysis), temporal breakdown and
# GPU kernel breakdown, against `smtop report --json` (which computes both
# and more), wall time and peak RSS (/usr/bin/time), medians of REPS.
#
# Sets: every folder of SAMPLES (../shared/samples/kineto; a folder HTA
# cannot load says so in its row) and a 100 MB one, two ranks of one
# profiling cycle each (generated once under JOBS_DIR with SMTOP synth,
# never committed).
#
# HTA runs from a source tree the caller has (HTA_SRC, the folder that
# holds hta/; its Python dependencies, pandas and networkx, installed):
# nothing here fetches or builds it. Without HTA_SRC the HTA columns are
# skipped and smtop's alone are printed.
#
#   HTA_SRC=/path/to/HolisticTraceAnalysis SMTOP=build/smtop tests/bench/bench_hta.sh
#
# Env: REPS (3), PYTHON (python3), SAMPLES, JOBS_DIR. Not a ctest test.
set -eu
. "$(dirname "$0")/bench_lib.sh"
bench_report_setup bench_hta
SRC=$(cd "$(dirname "$0")/../.." && pwd)
SAMPLES=${SAMPLES:-$SRC/../shared/samples/kineto}
PYTHON=${PYTHON:-python3}
HTA_SRC=${HTA_SRC:-}
[ -z "$HTA_SRC" ] || [ -d "$HTA_SRC/hta" ] ||
    { echo "bench_hta: HTA_SRC=$HTA_SRC holds no hta/ package" >&2; exit 1; }

big_set() {
    local dir="$JOBS_DIR/hta100"
    if [ ! -f "$dir/.done" ]; then
        rm -rf "$dir"
        "$SMTOP" synth --out "$dir" --kineto --kineto-only --nodes 1 --ranks 2 --gpus 2 \
            --minutes 10 --kineto-plain --kineto-every 100000 --kineto-active 1100 --seed 3 >&2
        touch "$dir/.done"
    fi
    echo "$dir/tensorboard-output"
}

cat >"$TMP/hta_run.py" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from hta.trace_analysis import TraceAnalysis
a = TraceAnalysis(trace_dir=sys.argv[2])
a.get_temporal_breakdown(visualize=False)
a.get_gpu_kernel_breakdown(visualize=False)
PY

# run TAG CMD...: appends "wall rss_kb" to $TMP/TAG; 1 when CMD failed.
run() {
    local tag=$1
    shift
    $TIME -f "%e %M" -o "$TMP/one" "$@" >/dev/null 2>"$TMP/$tag.err" || return 1
    tail -n 1 "$TMP/one" >>"$TMP/$tag"
}
col() { awk -v c="$2" '{print $c}' "$TMP/$1" | median; }

sets=()
for d in "$SAMPLES"/*/; do [ -d "$d" ] && sets+=("${d%/}"); done
sets+=("$(big_set)")
echo "smtop: $SMTOP; HTA: ${HTA_SRC:-not set, its columns skipped}; REPS=$REPS"
echo
printf '| set | MB | load | smtop s | smtop MB'
[ -n "$HTA_SRC" ] && printf ' | HTA s | HTA MB | HTA / smtop time | smtop / HTA memory'
printf ' |\n|---|---|---|---|---'
[ -n "$HTA_SRC" ] && printf '|---|---|---|---'
printf '|\n'
for d in "${sets[@]}"; do
    rm -f "$TMP"/{smtop,hta}
    mb=$(du -sbL "$d" | awk '{printf "%.1f", $1 / 1e6}')
    load=$(cut -d' ' -f1 /proc/loadavg)
    hta_ok=1
    for _ in $(seq "$REPS"); do
        run smtop "$SMTOP" report --json "$d" || { echo "bench_hta: smtop failed on $d" >&2; exit 1; }
        if [ -n "$HTA_SRC" ] && [ "$hta_ok" = 1 ]; then
            run hta "$PYTHON" "$TMP/hta_run.py" "$HTA_SRC" "$d" || hta_ok=0
        fi
    done
    sw=$(col smtop 1) sr=$(col smtop 2)
    printf '| %s | %s | %s | %s | %.1f' "$(basename "$(dirname "$d")")/$(basename "$d")" "$mb" \
        "$load" "$sw" "$(awk -v r="$sr" 'BEGIN {print r / 1024}')"
    if [ -n "$HTA_SRC" ] && [ "$hta_ok" = 1 ]; then
        hw=$(col hta 1) hr=$(col hta 2)
        printf ' | %s | %.1f | %.0fx | 1/%.0f' "$hw" "$(awk -v r="$hr" 'BEGIN {print r / 1024}')" \
            "$(awk -v a="$hw" -v b="$sw" 'BEGIN {print a / b}')" \
            "$(awk -v a="$hr" -v b="$sr" 'BEGIN {print a / b}')"
    elif [ -n "$HTA_SRC" ]; then
        printf ' | HTA failed: %s | | |' "$(tail -n 1 "$TMP/hta.err" | cut -c1-60)"
    fi
    printf ' |\n'
done
