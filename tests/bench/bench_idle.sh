#!/bin/bash
# bench_idle.sh: CPU the dashboard uses on a job where nothing arrives
# (issue 17), a baseline binary and this build side by side in one run.
#
# For each node count and --interval, both binaries open the same finished
# synthetic job (8 GPUs, 32 cores, 500 ms sampling, traces, 60 min) in two
# tmux sessions at once, so they share the machine's load. Once both
# status lines say the first pass is done (no "backfilling", polled with a
# deadline) and a warm-up of two intervals has passed, utime+stime of each
# process (/proc/PID/stat) is read over DURATION s. Repeated REPS times;
# the medians and the ratio are printed, with `uptime` before and after.
#
# usage: tests/bench/bench_idle.sh BASE_SMTOP [BUILD_DIR]
#   BASE_SMTOP  baseline binary (e.g. built from the commit the change
#               started at), or `none` to measure the new binary alone
#               (when the baseline's backfill takes too long, e.g. 256
#               nodes on a loaded machine)
#   env NODES ("4 16 64 256"), MINUTES (60), INTERVALS ("5 1"),
#       DURATION (60), REPS (3), DEADLINE (1200 s for one backfill),
#       JOBS_DIR (reuse <JOBS_DIR>/<N>n_<M>m; generated there when missing)
set -eu
BASE=$1
[ "$BASE" = none ] || BASE=$(realpath "$BASE")
BUILD=${2:-build}
NEW=$(realpath "$BUILD/smtop")
NODES=${NODES:-"4 16 64 256"}
MINUTES=${MINUTES:-60}
INTERVALS=${INTERVALS:-"5 1"}
DURATION=${DURATION:-60}
REPS=${REPS:-3}
DEADLINE=${DEADLINE:-1200}
. "$(dirname "$0")/dash_bench_lib.sh"
dash_bench_init idle
JOBS_DIR=${JOBS_DIR:-$WORK/jobs}
mkdir -p "$JOBS_DIR"

job_for() {     # the job dir for N nodes, generated once (shared by runs)
    local dir="$JOBS_DIR/${1}n_${MINUTES}m"
    if [ ! -e "$dir/.done" ]; then
        "$NEW" synth --out "$dir" --nodes "$1" --gpus 8 --cpus 32 \
            --minutes "$MINUTES" --interval-ms 500 --seed 1 --start 1700000000 >/dev/null
        touch "$dir/.done"
    fi
    echo "$dir"
}

echo "machine: $(nproc) cores; load before: $(uptime)"
echo "base: $BASE"
echo "new:  $NEW"
printf '%-6s %-9s %-5s %12s %12s %8s\n' nodes interval rep "base %core" "new %core" backfill
RES="$WORK/results"
: >"$RES"
for n in $NODES; do
    job=$(job_for "$n")
    for iv in $INTERVALS; do
        for rep in $(seq "$REPS"); do
            pb=
            [ "$BASE" = none ] || pb=$(start_dash base "$BASE" "$job" "$iv")
            pn=$(start_dash new "$NEW" "$job" "$iv")
            fill=$(wait_backfill "$pb" "$DEADLINE" "$job")
            sleep $((2 * iv + 2))
            b0=0; b1=0
            [ -z "$pb" ] || b0=$(cpu_ticks "$pb")
            n0=$(cpu_ticks "$pn"); t0=$(date +%s.%N)
            sleep "$DURATION"
            [ -z "$pb" ] || b1=$(cpu_ticks "$pb")
            n1=$(cpu_ticks "$pn"); t1=$(date +%s.%N)
            read -r bp np < <(cpu_shares "$b0" "$b1" "$n0" "$n1" "$t0" "$t1")
            printf '%-6s %-9s %-5s %12s %12s %7ss\n' "$n" "$iv" "$rep" "$bp" "$np" "$fill"
            echo "$n $iv $bp $np" >>"$RES"
            [ -z "$pb" ] || tmux -L "$SOCK" kill-session -t base
            tmux -L "$SOCK" kill-session -t new
        done
    done
done
echo "load after: $(uptime)"
echo
echo "median idle CPU, % of one core (REPS=$REPS, DURATION=$DURATION s)"
printf '%-6s %-9s %10s %10s %14s\n' nodes interval base new ratio
for n in $NODES; do
    for iv in $INTERVALS; do
        b=$(awk -v n="$n" -v i="$iv" '$1 == n && $2 == i { print $3 }' "$RES" | median)
        w=$(awk -v n="$n" -v i="$iv" '$1 == n && $2 == i { print $4 }' "$RES" | median)
        awk -v n="$n" -v i="$iv" -v b="$b" -v w="$w" 'BEGIN {
            r = (w > 0) ? sprintf("%.1fx", b / w) : "inf (no tick)"
            printf "%-6s %-9s %10.2f %10.2f %14s\n", n, i "s", b, w, r }'
    done
done
