#!/bin/bash
# bench_kineto_idle.sh: CPU an idle dashboard uses on a finished PyTorch
# profiler job (issue 25, "Live": at most 1 % of a core), against the same
# on a system-only job, in one run.
#
# Three finished synthetic jobs of NODES nodes x MINUTES minutes (start
# 1700000000, seed 1): `sys` system metrics only (no framework traces, the
# baseline), `kin` the same system metrics plus Kineto traces (RANKS per
# node, a cycle every 100 steps: ~2000 traces at 2 x 4 ranks x 60 min),
# `konly` the traces alone. One binary opens the three at once in tmux
# (so they share the machine's load); once every status line says the
# pass is done and two intervals have passed, utime+stime of each process
# (/proc/PID/stat) is read over DURATION s. Repeated REPS times; medians
# and the ratio to the baseline are printed, with `uptime` before and
# after.
#
# usage: tests/bench/bench_kineto_idle.sh [BUILD_DIR]
#   env NODES (2), RANKS (4), MINUTES (60), INTERVALS ("5 1"),
#       DURATION (30), REPS (3), DEADLINE (300 s for the first pass)
set -eu
BUILD=${1:-build}
SMTOP=$(realpath "$BUILD/smtop")
NODES=${NODES:-2}
RANKS=${RANKS:-4}
MINUTES=${MINUTES:-60}
INTERVALS=${INTERVALS:-"5 1"}
DURATION=${DURATION:-30}
REPS=${REPS:-3}
DEADLINE=${DEADLINE:-300}
. "$(dirname "$0")/dash_bench_lib.sh"
dash_bench_init kidle

common=(--nodes "$NODES" --minutes "$MINUTES" --start 1700000000 --seed 1)
"$SMTOP" synth "${common[@]}" --no-traces --out "$WORK/sys" >/dev/null
"$SMTOP" synth "${common[@]}" --kineto --ranks "$RANKS" --out "$WORK/kin" >/dev/null
"$SMTOP" synth "${common[@]}" --kineto-only --ranks "$RANKS" --out "$WORK/konly" >/dev/null
KINDS="sys kin konly"

ready() {       # 0 once session $1's first pass is over (status line)
    local s
    s=$(tmux -L "$SOCK" capture-pane -p -t "$1" 2>/dev/null) || return 1
    grep -q "scanned .* ago" <<<"$s" && ! grep -q "backfilling" <<<"$s"
}

echo "machine: $(nproc) cores; load before: $(uptime)"
echo "smtop: $SMTOP"
echo "jobs: $NODES nodes x $MINUTES min; kin/konly: $RANKS ranks a node," \
    "$(ls "$WORK/kin/tensorboard-output" | wc -l) traces," \
    "$(du -sm "$WORK/kin/tensorboard-output" | cut -f1) MB"
printf '%-9s %-4s %10s %10s %10s\n' interval rep "sys %core" "kin %core" "konly %core"
RES="$WORK/results"
: >"$RES"
for iv in $INTERVALS; do
    for rep in $(seq "$REPS"); do
        declare -A pid=() t0=() c0=()
        for k in $KINDS; do pid[$k]=$(start_dash "$k" "$SMTOP" "$WORK/$k" "$iv"); done
        start=$(date +%s)
        for k in $KINDS; do
            until ready "$k"; do
                (($(date +%s) - start > DEADLINE)) && { echo "$k: no pass within $DEADLINE s" >&2; exit 1; }
                sleep 1
            done
        done
        sleep $((2 * iv + 2))
        for k in $KINDS; do c0[$k]=$(cpu_ticks "${pid[$k]}"); t0[$k]=$(date +%s.%N); done
        sleep "$DURATION"
        row=()
        for k in $KINDS; do
            c1=$(cpu_ticks "${pid[$k]}") t1=$(date +%s.%N)
            row+=("$(cpu_shares 0 0 "${c0[$k]}" "$c1" "${t0[$k]}" "$t1" | cut -d' ' -f2)")
            tmux -L "$SOCK" kill-session -t "$k"
        done
        printf '%-9s %-4s %10s %10s %10s\n' "$iv" "$rep" "${row[@]}"
        echo "$iv ${row[*]}" >>"$RES"
    done
done
echo "load after: $(uptime)"
echo
echo "median idle CPU, % of one core (REPS=$REPS, DURATION=$DURATION s)"
printf '%-9s %8s %8s %8s %12s\n' interval sys kin konly "kin/sys"
for iv in $INTERVALS; do
    s=$(awk -v i="$iv" '$1 == i { print $2 }' "$RES" | median)
    k=$(awk -v i="$iv" '$1 == i { print $3 }' "$RES" | median)
    o=$(awk -v i="$iv" '$1 == i { print $4 }' "$RES" | median)
    awk -v i="$iv" -v s="$s" -v k="$k" -v o="$o" 'BEGIN {
        r = (s > 0) ? sprintf("%.2fx", k / s) : "- (no tick)"
        printf "%-9s %8.2f %8.2f %8.2f %12s\n", i "s", s, k, o, r }'
done
