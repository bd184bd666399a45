#!/usr/bin/env bash
# bench_cores (issue 28): how `smtop report --json` scales with cores, on
# a hot page cache, against the pread floor and a baseline binary in the
# same run.
#
# For each job and each core count (taskset -c 0..N-1: 1 and 2, and 4, 8,
# 16 where the machine has them), REPS runs of pread_all (every file read
# whole with pread, one thread: the floor), of the new binary and of the
# baseline, alternating; prints the issue's table per job: median wall,
# wall / the floor's, median CPU (user + sys), the load average before
# each row, and the speed-up from 1 core. On a loaded machine the wall
# is the scheduler's share more than the work (a process with more
# runnable threads gets more of a busy core): read CPU s there, or
# callgrind's instruction counts per thread. Then the one-core rate on a
# system-metrics-only job (GB of system files per second of wall on one
# core) and peak RSS at the most cores. Both binaries read the cores they
# may run on (CPU affinity), so taskset sizes their threads.
#
#   SMTOP=build/smtop BASELINE=/path/to/main/smtop JOBS_DIR=/work/jobs \
#       tests/bench/bench_cores.sh [JOB...]
#
# JOB names <nodes>n_<minutes>m (default 16n_60m 64n_10m; add 32n_60m
# where the disk holds 1.9 GB more), generated as bench_memory's are (8
# GPUs, 32 CPUs, 500 ms, system + traces); <nodes>n_<minutes>m_sys is the
# same without traces (default 16n_60m_sys, for the one-core rate; SYS_JOB=
# none skips it); kineto16 is issue 35's PyTorch profiler job (synth
# --kineto --kineto-only --nodes 4 --ranks 4 --gpus 4 --minutes 10
# --kineto-plain --kineto-every 500 --kineto-active 400 --seed 3: 127
# plain traces, 2.3 GB), its traces decoded on the ingest workers. Env:
# REPS (3), CORES (default: 1 2 4 8 16, those the machine has), BASELINE
# (optional). Not a ctest test: minutes of runtime.
set -eu
. "$(dirname "$0")/bench_lib.sh"
bench_report_setup bench_cores
if [ $# -gt 0 ]; then JOBS=("$@"); else JOBS=(16n_60m 64n_10m); fi
SYS_JOB=${SYS_JOB:-16n_60m_sys}
NCPU=$(nproc --all)
CORES=${CORES:-$(for c in 1 2 4 8 16; do if [ "$c" -le "$NCPU" ]; then echo "$c"; fi; done)}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
cc -O2 -o "$TMP/pread_all" "$SRC/tests/bench/pread_all.c"

# job_dir NAME: bench_job_dir's job, or with _sys the same without traces,
# or kineto16.
job_dir() {
    local name=$1 dir="$JOBS_DIR/$1"
    if [ "$name" = kineto16 ]; then
        if [ ! -f "$dir/.done" ]; then
            local cmd=("$SMTOP" synth --kineto --kineto-only --nodes 4 --ranks 4 --gpus 4
                       --minutes 10 --kineto-plain --kineto-every 500 --kineto-active 400
                       --seed 3 --out "$dir")
            echo "generating: ${cmd[*]}" >&2
            "${cmd[@]}" >&2
            echo "${cmd[*]}" >"$dir/.cmd"
            touch "$dir/.done"
        fi
        echo "$dir"
    elif [[ $name =~ ^([0-9]+)n_([0-9]+)m_sys$ ]]; then
        if [ ! -f "$dir/.done" ]; then
            local cmd=("$SMTOP" synth --nodes "${BASH_REMATCH[1]}" --gpus 8 --cpus 32
                       --minutes "${BASH_REMATCH[2]}" --interval-ms 500 --start 1700000000
                       --seed 1 --no-traces --out "$dir")
            echo "generating: ${cmd[*]}" >&2
            "${cmd[@]}" >&2
            echo "${cmd[*]}" >"$dir/.cmd"
            touch "$dir/.done"
        fi
        echo "$dir"
    else
        bench_job_dir "$name" bench_cores
    fi
}

# timed N TAG CMD...: runs CMD on cores 0..N-1, appends "wall cpu rss_kb"
# to $TMP/TAG.
timed() {
    local n=$1 tag=$2
    shift 2
    $TIME -f "%e %U %S %M" -o "$TMP/one" taskset -c "0-$((n - 1))" "$@" >"$TMP/$tag.out" 2>/dev/null ||
        { echo "bench_cores: '$*' failed" >&2; exit 1; }
    tail -n 1 "$TMP/one" | awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' >>"$TMP/$tag"
}
col() { awk -v c="$2" '{print $c}' "$TMP/$1" | median; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

echo "machine: $NCPU cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'))"
echo "new: $SMTOP; baseline: ${BASELINE:-none}; REPS=$REPS"
for name in "${JOBS[@]}"; do
    dir=$(realpath "$(job_dir "$name")")   # pread_all does not follow a linked root
    size=$(du -sbL "$dir" | awk '{printf "%.2f GB", $1 / 1e9}')
    "$TMP/pread_all" "$dir" >/dev/null   # the page cache holds it from here
    echo
    echo "### $name ($size), hot cache, medians of $REPS"
    echo
    printf '| cores | load | pread_all s | new wall s | new × floor | new CPU s | new speed-up'
    [ -n "$BASELINE" ] && printf ' | base wall s | base × floor | base CPU s | base speed-up | same JSON'
    printf ' |\n|---|---|---|---|---|---|---'
    [ -n "$BASELINE" ] && printf '|---|---|---|---|---'
    printf '|\n'
    new1='' base1=''
    for n in $CORES; do
        load=$(cut -d' ' -f1 /proc/loadavg)
        : >"$TMP/floor"
        : >"$TMP/new"
        : >"$TMP/base"
        same=yes
        for _ in $(seq "$REPS"); do
            timed 1 floor "$TMP/pread_all" "$dir"
            timed "$n" new "$SMTOP" report --json "$dir"
            if [ -n "$BASELINE" ]; then
                timed "$n" base "$BASELINE" report --json "$dir"
                cmp -s "$TMP/new.out" "$TMP/base.out" || same=no
            fi
        done
        p=$(col floor 1) w=$(col new 1) c=$(col new 2)
        [ -n "$new1" ] || new1=$w
        printf '| %s | %s | %s | %s | %s | %s | %s' "$n" "$load" "$p" "$w" "$(ratio "$w" "$p")" "$c" \
            "$(ratio "$new1" "$w")"
        if [ -n "$BASELINE" ]; then
            bw=$(col base 1) bc=$(col base 2)
            [ -n "$base1" ] || base1=$bw
            printf ' | %s | %s | %s | %s | %s' "$bw" "$(ratio "$bw" "$p")" "$bc" "$(ratio "$base1" "$bw")" "$same"
        fi
        printf ' |\n'
        last_rss_new=$(col new 3)
        [ -z "$BASELINE" ] || last_rss_base=$(col base 3)
    done
    printf 'peak RSS on %s cores: new %.1f MB' "$n" "$(awk -v k="$last_rss_new" 'BEGIN {print k / 1024}')"
    [ -z "$BASELINE" ] || printf ', baseline %.1f MB' "$(awk -v k="$last_rss_base" 'BEGIN {print k / 1024}')"
    printf '\n'
done

if [ "$SYS_JOB" = none ]; then
    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
    exit 0
fi
dir=$(realpath "$(job_dir "$SYS_JOB")")
sys=$(du -sbL "$dir/system" | awk '{print $1}')
"$TMP/pread_all" "$dir" >/dev/null
: >"$TMP/new"
: >"$TMP/base"
for _ in $(seq "$REPS"); do
    timed 1 new "$SMTOP" report --json "$dir"
    [ -z "$BASELINE" ] || timed 1 base "$BASELINE" report --json "$dir"
done
echo
printf 'one core, %s (%.2f GB of system metrics), load %s: new %s s = %.2f GB/s' "$SYS_JOB" \
    "$(awk -v b="$sys" 'BEGIN {print b / 1e9}')" "$(cut -d' ' -f1 /proc/loadavg)" "$(col new 1)" \
    "$(awk -v b="$sys" -v w="$(col new 1)" 'BEGIN {print b / 1e9 / w}')"
[ -z "$BASELINE" ] || printf '; baseline %s s = %.2f GB/s' "$(col base 1)" \
    "$(awk -v b="$sys" -v w="$(col base 1)" 'BEGIN {print b / 1e9 / w}')"
printf '\n'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
