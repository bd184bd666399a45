#!/bin/bash
# bench_dashboard.sh: the dashboard's two performance figures (issue #3).
#
#  1. Full redraw of a 64-node (NODES) x 8-GPU job with Python stats (so every
#     pane, Alerts and Python included, has data): `smtop --bench-frames N`
#     scans the job to the end, then times N frames with every pane dirty
#     into a newterm on /dev/null (200x60, xterm-256color); median wall and
#     CPU time per frame (frames take no lock), then each pane
#     alone. With BASELINE=<another smtop> both run on the same job,
#     alternating, RUNS times each.
#  2. Idle cost while tailing a live job for DURATION s: utime+stime of the
#     smtop process from /proc/PID/stat (after a warm-up, so the first
#     backfill is excluded), next to `top -b -d 1 -n DURATION` watching the
#     same generator over the same interval as a reference; and the whole
#     `smtop --demo` process (dashboard + built-in generator).
#
# With BASELINE=/path/to/older/smtop, part 2 also tails the same live job
# with that binary, both at once, side by side.
#
# usage: tests/bench/bench_dashboard.sh [BUILD_DIR]   (default ./build)
#        env FRAMES (1000), DURATION (60), WARMUP (8), BASELINE (none; BASE is the
#        same), RUNS (3), ONLY_REDRAW=1 (part 1 alone), NODES (64; issue 15
#        asks for 256 at 200x60)
set -eu
BUILD=${1:-build}
SMTOP=$(realpath "$BUILD/smtop")
BASELINE=${BASELINE:-${BASE:-}}
BASE=${BASELINE:+$(realpath "$BASELINE")}
FRAMES=${FRAMES:-1000}
DURATION=${DURATION:-60}
WARMUP=${WARMUP:-8}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/smtop-bench.XXXXXX")
SOCK="smtop-bench-$$"
PIDS=()
cleanup() {
    tmux -L "$SOCK" kill-server 2>/dev/null || true
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
HZ=$(getconf CLK_TCK)
# Neither binary reads or writes the user's smtop.conf.
export XDG_CONFIG_HOME="$WORK/config"

cpu_ticks() {   # utime + stime of PID (fields 14 and 15 of /proc/PID/stat)
    awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"
}

RUNS=${RUNS:-3}
NODES=${NODES:-64}
echo "== 1. full redraw, $NODES nodes x 8 GPUs, Python stats ($(uptime | sed 's/.*load/load/'))"
"$SMTOP" synth --out "$WORK/big" --nodes "$NODES" --gpus 8 --cpus 8 --minutes 10 --seed 3 \
    --python-stats 50 >/dev/null
for r in $(seq "$RUNS"); do
    for bin in "$SMTOP" ${BASELINE:+"$(realpath "$BASELINE")"}; do
        echo "-- $bin (run $r)"
        COLUMNS=200 LINES=60 TERM=xterm-256color XDG_CONFIG_HOME="$WORK/cfg" "$bin" \
            "$WORK/big" --bench-frames "$FRAMES" </dev/null 2>&1 >/dev/null
    done
done
rm -rf "$WORK/big"
[ "${ONLY_REDRAW:-0}" = 1 ] && exit 0

echo "== 2. idle cost over ${DURATION} s (after ${WARMUP} s warm-up)"
"$SMTOP" synth --out "$WORK/live" --nodes 4 --gpus 2 --cpus 8 --minutes 10 \
    --slow-node 2 --outlier-rate 0.02 --live >/dev/null 2>&1 &
GEN=$!
PIDS+=("$GEN")
sleep 2
tmux -L "$SOCK" -f /dev/null new-session -d -s new -x 200 -y 60 \
    "env LANG=C.UTF-8 $SMTOP $WORK/live; sleep 600"
sleep 1
PANE=$(tmux -L "$SOCK" list-panes -t new -F '#{pane_pid}')
DASH=$(pgrep -P "$PANE" -f smtop | head -1)
BDASH=""
if [ -n "$BASE" ]; then
    tmux -L "$SOCK" -f /dev/null new-session -d -s base -x 200 -y 60 \
        "env LANG=C.UTF-8 $BASE $WORK/live; sleep 600"
    sleep 1
    BPANE=$(tmux -L "$SOCK" list-panes -t base -F '#{pane_pid}')
    BDASH=$(pgrep -P "$BPANE" -f smtop | head -1)
fi
sleep "$WARMUP"
# top runs alongside over the same interval; bash's `times` gives the CPU
# its child (top) used, the same utime+stime the kernel reports.
( top -b -d 1 -n "$DURATION" -p "$GEN" >/dev/null; times >"$WORK/top_times" ) &
TOPJOB=$!
d0=$(cpu_ticks "$DASH")
b0=${BDASH:+$(cpu_ticks "$BDASH")}
g0=$(cpu_ticks "$GEN")
t0=$(date +%s.%N)
wait "$TOPJOB"
d1=$(cpu_ticks "$DASH")
b1=${BDASH:+$(cpu_ticks "$BDASH")}
g1=$(cpu_ticks "$GEN")
t1=$(date +%s.%N)
echo "$d0 $d1 $t0 $t1" | awk -v hz="$HZ" '{ s = $4 - $3; c = ($2 - $1) / hz;
    printf "smtop SRC (tailing):   %.2f s CPU in %.1f s = %.2f %% of one core\n", c, s, 100 * c / s }'
[ -z "$BDASH" ] || echo "$b0 $b1 $t0 $t1" | awk -v hz="$HZ" '{ s = $4 - $3; c = ($2 - $1) / hz;
    printf "baseline (tailing):    %.2f s CPU in %.1f s = %.2f %% of one core\n", c, s, 100 * c / s }'
tail -1 "$WORK/top_times" | awk -v s="$DURATION" '{
    split($1, u, /[ms]/); split($2, k, /[ms]/);
    c = u[1] * 60 + u[2] + k[1] * 60 + k[2];
    printf "top -b -d 1 -n %d:     %.2f s CPU in %d s = %.2f %% of one core (reference)\n", s, c, s, 100 * c / s }'
echo "$g0 $g1 $t0 $t1" | awk -v hz="$HZ" '{ s = $4 - $3; c = ($2 - $1) / hz;
    printf "(generator, for scale: %.2f s CPU = %.2f %% of one core)\n", c, 100 * c / s }'
tmux -L "$SOCK" kill-server
kill "$GEN" 2>/dev/null || true

echo "== 3. smtop --demo (dashboard + generator thread) over ${DURATION} s"
tmux -L "$SOCK" -f /dev/null new-session -d -x 200 -y 60 \
    "env LANG=C.UTF-8 TMPDIR=$WORK $SMTOP --demo; sleep 600"
sleep 1
PANE=$(tmux -L "$SOCK" list-panes -F '#{pane_pid}')
DEMO=$(pgrep -P "$PANE" -f smtop | head -1)
sleep "$WARMUP"
d0=$(cpu_ticks "$DEMO")
t0=$(date +%s.%N)
sleep "$DURATION"
d1=$(cpu_ticks "$DEMO")
t1=$(date +%s.%N)
echo "$d0 $d1 $t0 $t1" | awk -v hz="$HZ" '{ s = $4 - $3; c = ($2 - $1) / hz;
    printf "smtop --demo:          %.2f s CPU in %.1f s = %.2f %% of one core\n", c, s, 100 * c / s }'
