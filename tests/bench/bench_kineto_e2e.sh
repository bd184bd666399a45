#!/usr/bin/env bash
# bench_kineto_e2e (issue 35): `smtop report --json` end to end on Kineto
# jobs, against the pread floor and a baseline binary in the same run.
#
# For each job and core count (taskset -c 0..N-1; CORES, default "1 2"),
# REPS runs of pread_all (every file read whole, one thread: the floor),
# of SMTOP and of BASELINE (when set), alternating. Prints per row: the
# load average before it, median wall, wall / floor, median CPU (user +
# sys), GB/s of JSON per second of wall and per CPU second (a .gz job's
# JSON is its inflated size), peak RSS, and whether the two binaries'
# JSON are the same bytes. On a loaded machine read the CPU columns (and
# callgrind): the wall is the scheduler's share.
#
# Jobs (generated once under JOBS_DIR with SMTOP synth, never committed):
#   k16      the issue's 16-rank job: --kineto --kineto-only --nodes 4
#            --ranks 4 --gpus 4 --minutes 10 --kineto-plain --kineto-every
#            500 --kineto-active 400 --seed 3 (127 plain traces, 2.3 GB)
#   k16gz    the same, .gz (as tensorboard_trace_handler(use_gzip=True))
#   r1024    1,024 ranks x 1 trace (128 nodes x 8 ranks, about 4 GB)
#
#   SMTOP=build/smtop BASELINE=/path/to/main/smtop JOBS_DIR=/tmp/jobs \
#       tests/bench/bench_kineto_e2e.sh [JOB...]     (default: k16 k16gz)
#
# Env: REPS (3), CORES ("1 2"), THREADS (SMTOP_INGEST_THREADS for both
# binaries; default: the cores). Not a ctest test: minutes of runtime.
set -eu
. "$(dirname "$0")/bench_lib.sh"
bench_report_setup bench_kineto_e2e
SRC=$(cd "$(dirname "$0")/../.." && pwd)
CORES=${CORES:-1 2}
if [ $# -gt 0 ]; then JOBS=("$@"); else JOBS=(k16 k16gz); fi
cc -O2 -o "$TMP/pread_all" "$SRC/tests/bench/pread_all.c"

# job_dir NAME: the job, generated when missing.
job_dir() {
    local name=$1 dir="$JOBS_DIR/$1" args
    case $name in
    k16) args=(--kineto --kineto-only --nodes 4 --ranks 4 --gpus 4 --minutes 10 --kineto-plain
               --kineto-every 500 --kineto-active 400 --seed 3) ;;
    k16gz) args=(--kineto --kineto-only --nodes 4 --ranks 4 --gpus 4 --minutes 10
                 --kineto-every 500 --kineto-active 400 --seed 3) ;;
    r1024) args=(--kineto --kineto-only --nodes 128 --ranks 8 --gpus 8 --minutes 3 --kineto-plain
                 --kineto-every 100000 --kineto-active 70 --seed 3) ;;
    *) echo "bench_kineto_e2e: unknown job $name (k16, k16gz, r1024)" >&2; exit 1 ;;
    esac
    if [ ! -f "$dir/.done" ]; then
        echo "generating: $SMTOP synth --out $dir ${args[*]}" >&2
        rm -rf "$dir"
        "$SMTOP" synth --out "$dir" "${args[@]}" >&2
        echo "${args[*]}" >"$dir/.cmd"
        touch "$dir/.done"
    fi
    echo "$dir"
}

# json_bytes DIR: the bytes of JSON the job's traces hold (inflated).
json_bytes() {
    local dir=$1
    if [ ! -f "$dir/.json_bytes" ]; then
        find "$dir" -type f \( -name '*.json' -o -name '*.json.gz' \) -print0 |
            xargs -0 -n 16 sh -c 'for f; do case $f in *.gz) gzip -dc "$f";; *) cat "$f";; esac; done' sh |
            wc -c >"$dir/.json_bytes"
    fi
    cat "$dir/.json_bytes"
}

# timed N TAG CMD...: CMD on cores 0..N-1; appends "wall cpu rss_kb" to $TMP/TAG.
timed() {
    local n=$1 tag=$2
    shift 2
    SMTOP_INGEST_THREADS=${THREADS:-$n} $TIME -f "%e %U %S %M" -o "$TMP/one" \
        taskset -c "0-$((n - 1))" "$@" >"$TMP/$tag.out" 2>/dev/null ||
        { echo "bench_kineto_e2e: '$*' failed" >&2; exit 1; }
    tail -n 1 "$TMP/one" | awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' >>"$TMP/$tag"
}
col() { awk -v c="$2" '{print $c}' "$TMP/$1" | median; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", (b > 0 ? a / b : 0)}'; }

echo "machine: $(nproc --all) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'))"
echo "new: $SMTOP; baseline: ${BASELINE:-none}; REPS=$REPS"
for name in "${JOBS[@]}"; do
    dir=$(realpath "$(job_dir "$name")")
    jb=$(json_bytes "$dir")
    size=$(du -sbL "$dir" | awk '{printf "%.2f GB on disk", $1 / 1e9}')
    "$TMP/pread_all" "$dir" >/dev/null
    echo
    echo "### $name ($size, $(awk -v b="$jb" 'BEGIN {printf "%.2f", b / 1e9}') GB of JSON), hot cache, medians of $REPS"
    echo
    printf '| cores | load | floor s | new wall s | × floor | CPU s | GB/s wall | GB/s CPU | RSS MB'
    [ -n "$BASELINE" ] && printf ' | base wall s | × floor | CPU s | GB/s wall | RSS MB | same JSON'
    printf ' |\n|---|---|---|---|---|---|---|---|---'
    [ -n "$BASELINE" ] && printf '|---|---|---|---|---|---'
    printf '|\n'
    for n in $CORES; do
        rm -f "$TMP"/{floor,new,base}
        load=$(cut -d' ' -f1 /proc/loadavg)
        for _ in $(seq "$REPS"); do
            timed "$n" floor "$TMP/pread_all" "$dir"
            timed "$n" new "$SMTOP" report --json "$dir"
            [ -n "$BASELINE" ] && timed "$n" base "$BASELINE" report --json "$dir"
        done
        fl=$(col floor 1)
        nw=$(col new 1) nc=$(col new 2) nr=$(col new 3)
        printf '| %s | %s | %s | %s | %s | %s | %s | %s | %.1f' "$n" "$load" "$fl" "$nw" \
            "$(ratio "$nw" "$fl")" "$nc" "$(ratio "$((jb / 1000000))" "$(awk -v w="$nw" 'BEGIN {print w * 1000}')")" \
            "$(ratio "$((jb / 1000000))" "$(awk -v w="$nc" 'BEGIN {print w * 1000}')")" \
            "$(awk -v r="$nr" 'BEGIN {print r / 1024}')"
        if [ -n "$BASELINE" ]; then
            bw=$(col base 1) bc=$(col base 2) br=$(col base 3)
            same=no
            cmp -s "$TMP/new.out" "$TMP/base.out" && same=yes
            printf ' | %s | %s | %s | %s | %.1f | %s' "$bw" "$(ratio "$bw" "$fl")" "$bc" \
                "$(ratio "$((jb / 1000000))" "$(awk -v w="$bw" 'BEGIN {print w * 1000}')")" \
                "$(awk -v r="$br" 'BEGIN {print r / 1024}')" "$same"
        fi
        printf ' |\n'
    done
done
