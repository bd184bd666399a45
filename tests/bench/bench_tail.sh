#!/bin/bash
# bench_tail.sh: CPU the dashboard uses while it tails a growing job
# (issue 17: "a job that grows by one minute file per node per minute at
# 64 nodes: <= 1 % of a core"), a baseline binary and this build side by
# side in one run.
#
# A synthetic job of MINUTES + 10 minutes (MINUTES + TAIL + 5 when TAIL > 5) (8 GPUs, 32 cores,
# 500 ms sampling, traces) is generated once (or reused from JOBS_DIR).
# Each round hard-links its first MINUTES minutes into a fresh directory,
# opens both binaries on it in two tmux sessions at once (so they share
# the machine's load), waits until both status lines say the backfill is
# over (polled with a deadline) plus a warm-up of two intervals, then for
# TAIL minutes links, at the start of every minute, the next minute's
# files of every node: its system file and the trace files that start in
# that minute, the way smdebug's writers close one file per minute. The
# utime+stime of each process (/proc/PID/stat) over those TAIL minutes is
# the figure. The spare minutes keep the tail out of the job's
# synthetic finalization phase. Repeated REPS times; medians and the
# ratio are printed, with `uptime` before and after.
#
# usage: tests/bench/bench_tail.sh BASE_SMTOP [BUILD_DIR]
#   BASE_SMTOP  baseline binary, or `none` to measure the new one alone
#   env NODES (64), MINUTES (60 of history), TAIL (5 minutes),
#       INTERVAL (5, --interval), REPS (3), DEADLINE (1200 s for one
#       backfill), JOBS_DIR (reuse <JOBS_DIR>/<N>n_<MINUTES+10>m;
#       generated there when missing)
set -eu
BASE=$1
[ "$BASE" = none ] || BASE=$(realpath "$BASE")
BUILD=${2:-build}
NEW=$(realpath "$BUILD/smtop")
NODES=${NODES:-64}
MINUTES=${MINUTES:-60}
TAIL=${TAIL:-5}
INTERVAL=${INTERVAL:-5}
REPS=${REPS:-3}
DEADLINE=${DEADLINE:-1200}
START=1700000000
. "$(dirname "$0")/dash_bench_lib.sh"
dash_bench_init tail
JOBS_DIR=${JOBS_DIR:-$WORK/jobs}
mkdir -p "$JOBS_DIR"

FULL_MIN=$((MINUTES + (TAIL > 5 ? TAIL + 5 : 10)))
SRC="$JOBS_DIR/${NODES}n_${FULL_MIN}m"
if [ ! -e "$SRC/.done" ]; then
    "$NEW" synth --out "$SRC" --nodes "$NODES" --gpus 8 --cpus 32 --minutes "$FULL_MIN" \
        --interval-ms 500 --seed 1 --start "$START" >/dev/null
    touch "$SRC/.done"
fi

# Every file of the job with the clock minute (counted from the one the
# job starts in) its name says it starts in: system "<epoch s>.algo-N.json"
# (named by its minute), traces "<epoch µs>_<pid>-algo-N_pythontimeline.json".
LIST="$WORK/files"
(cd "$SRC" && find system framework -type f -name '*.json') | awk -v s="$((START - START % 60))" '{
    n = split($0, p, "/"); t = p[n]; sub(/[._].*/, "", t)
    if (length(t) > 12) t = substr(t, 1, length(t) - 6)
    print int((t - s) / 60), $0 }' | sort -n -k1,1 >"$LIST"

link_minutes() {  # hard-links the files of minutes [$2, $3) into job dir $1
    mkdir -p "$1"
    awk -v a="$2" -v b="$3" '$1 >= a && $1 < b { print $2 }' "$LIST" |
        (cd "$SRC" && xargs -r cp -l --parents -t "$1")
}

echo "machine: $(nproc) cores; load before: $(uptime)"
echo "job:  $SRC ($NODES nodes, $MINUTES min history, $TAIL min tail, --interval $INTERVAL)"
echo "base: $BASE"
echo "new:  $NEW"
printf '%-5s %12s %12s %8s %8s\n' rep "base %core" "new %core" backfill files
RES="$WORK/results"
: >"$RES"
for rep in $(seq "$REPS"); do
    job="$WORK/job-$rep"
    link_minutes "$job" 0 "$MINUTES"
    pb=
    [ "$BASE" = none ] || pb=$(start_dash base "$BASE" "$job" "$INTERVAL")
    pn=$(start_dash new "$NEW" "$job" "$INTERVAL")
    fill=$(wait_backfill "$pb" "$DEADLINE" "$job")
    sleep $((2 * INTERVAL + 2))
    b0=0; b1=0
    [ -z "$pb" ] || b0=$(cpu_ticks "$pb")
    n0=$(cpu_ticks "$pn"); t0=$(date +%s.%N)
    for k in $(seq 0 $((TAIL - 1))); do
        link_minutes "$job" $((MINUTES + k)) $((MINUTES + k + 1))
        # sleep to the next minute boundary of the measurement
        left=$(awk -v t0="$t0" -v k="$k" -v now="$(date +%s.%N)" 'BEGIN { d = t0 + 60 * (k + 1) - now; print (d > 0 ? d : 0) }')
        sleep "$left"
    done
    [ -z "$pb" ] || b1=$(cpu_ticks "$pb")
    n1=$(cpu_ticks "$pn"); t1=$(date +%s.%N)
    added=$(awk -v a="$MINUTES" -v b="$((MINUTES + TAIL))" '$1 >= a && $1 < b' "$LIST" | wc -l)
    read -r bp np < <(cpu_shares "$b0" "$b1" "$n0" "$n1" "$t0" "$t1")
    printf '%-5s %12s %12s %7ss %8s\n' "$rep" "$bp" "$np" "$fill" "$added"
    echo "$bp $np" >>"$RES"
    [ -z "$pb" ] || tmux -L "$SOCK" kill-session -t base
    tmux -L "$SOCK" kill-session -t new
    rm -rf "$job"
done
echo "load after: $(uptime)"
echo
b=$(awk '{ print $1 }' "$RES" | median)
w=$(awk '{ print $2 }' "$RES" | median)
echo "median tailing CPU, % of one core (REPS=$REPS, $TAIL min each)"
awk -v b="$b" -v w="$w" 'BEGIN {
    r = (w > 0) ? sprintf("%.1fx", b / w) : "inf (no tick)"
    printf "%10s %10s %10s\n%10.2f %10.2f %10s\n", "base", "new", "ratio", b, w, r }'
