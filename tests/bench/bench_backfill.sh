#!/bin/bash
# bench_backfill.sh: how long the dashboard takes to read a finished job to
# the end, against `smtop report` on the same job, in one run (issue 17:
# "the dashboard finishes backfill within 1.2x the wall of report").
#
# For each job, REPS rounds; a round runs, one after the other (never at
# once, so both see the same machine):
#   - `smtop report JOB` to /dev/null, wall from /usr/bin/time;
#   - the dashboard on JOB in a tmux session (200x60), wall from launch
#     until its status line no longer says "first scan in progress" or
#     "backfilling" and shows "scanned ... ago" (the scanner has nothing
#     pending), polled every POLL s with a deadline.
# With BASE=<another smtop>, its dashboard is timed in the same round.
# Prints every round, then the medians and dashboard / report ratios, with
# `uptime` before and after.
#
# usage: tests/bench/bench_backfill.sh JOB_DIR... 
#   env SMTOP (build/smtop), BASE (unset: no baseline dashboard), REPS (3),
#       POLL (0.2), DEADLINE (1800 s for one backfill)
set -eu
SMTOP=$(realpath "${SMTOP:-build/smtop}")
BASE=${BASE:-}
[ -z "$BASE" ] || BASE=$(realpath "$BASE")
REPS=${REPS:-3}
POLL=${POLL:-0.2}
DEADLINE=${DEADLINE:-1800}
TIME=/usr/bin/time
if [ ! -x "$TIME" ]; then
    echo "bench_backfill: $TIME not found (Debian: apt-get install time)" >&2
    exit 1
fi
[ $# -ge 1 ] || { echo "usage: $0 JOB_DIR..." >&2; exit 2; }
. "$(dirname "$0")/dash_bench_lib.sh"
dash_bench_init backfill

now() { date +%s.%N; }

# Wall of `report` on $2 with binary $1, in seconds.
report_wall() {
    "$TIME" -f %e -o "$WORK/t" "$1" report "$2" >/dev/null 2>"$WORK/err" || {
        echo "report failed on $2:" >&2; cat "$WORK/err" >&2; exit 1; }
    tail -n 1 "$WORK/t"
}

done_scanning() {
    local s
    s=$(tmux -L "$SOCK" capture-pane -p -t dash 2>/dev/null) || return 1
    grep -q "scanned .* ago" <<<"$s" && ! grep -q "backfilling\|first scan in progress" <<<"$s"
}

# Wall from launch of dashboard $1 on $2 until the backfill is over.
dash_wall() {
    local t0 t
    t0=$(now)
    tmux -L "$SOCK" -f /dev/null new-session -d -s dash -x 200 -y 60 \
        "exec env LANG=C.UTF-8 XDG_CONFIG_HOME=$WORK/cfg $1 --no-config --no-rules-config $2"
    until done_scanning; do
        t=$(now)
        if awk -v a="$t0" -v b="$t" -v d="$DEADLINE" 'BEGIN { exit !(b - a > d) }'; then
            echo "backfill of $2 did not finish within $DEADLINE s" >&2
            exit 1
        fi
        sleep "$POLL"
    done
    t=$(now)
    tmux -L "$SOCK" kill-session -t dash
    awk -v a="$t0" -v b="$t" 'BEGIN { printf "%.2f\n", b - a }'
}

echo "machine: $(nproc) cores; load before: $(uptime)"
echo "smtop: $SMTOP"
[ -z "$BASE" ] || echo "base:  $BASE"
RES="$WORK/res"
: >"$RES"
printf '%-22s %-4s %10s %10s %10s\n' job rep report dash "base dash"
for job in "$@"; do
    job=$(realpath "$job")
    for rep in $(seq "$REPS"); do
        r=$(report_wall "$SMTOP" "$job")
        d=$(dash_wall "$SMTOP" "$job")
        b=-
        [ -z "$BASE" ] || b=$(dash_wall "$BASE" "$job")
        printf '%-22s %-4s %9ss %9ss %9ss\n' "$(basename "$job")" "$rep" "$r" "$d" "$b"
        echo "$job $r $d $b" >>"$RES"
    done
done
echo "load after: $(uptime)"
echo
echo "medians (REPS=$REPS): dashboard backfill / report wall"
printf '%-22s %10s %10s %8s %10s %8s\n' job report dash ratio "base dash" ratio
for job in "$@"; do
    job=$(realpath "$job")
    r=$(awk -v j="$job" '$1 == j { print $2 }' "$RES" | median)
    d=$(awk -v j="$job" '$1 == j { print $3 }' "$RES" | median)
    b=-
    [ -z "$BASE" ] || b=$(awk -v j="$job" '$1 == j { print $4 }' "$RES" | median)
    awk -v j="$(basename "$job")" -v r="$r" -v d="$d" -v b="$b" 'BEGIN {
        br = (b == "-") ? "-" : sprintf("%.2fx", b / r)
        printf "%-22s %9.2fs %9.2fs %7.2fx %10s %8s\n", j, r, d, d / r, b, br }'
done
