#!/bin/bash
# bench_key_latency.sh: key-to-screen latency while the dashboard backfills
# a big job (issue #13): the real binary in tmux opens a large synthetic
# job; while its status line says it is still reading ("first scan in
# progress" / "backfilling"), the help overlay is opened with `?` and closed
# with Esc, again and again, and each transition is timed from send-keys to
# the first capture that shows it (capture-pane polled every ~5 ms, so a
# figure includes up to one capture's latency). Only samples taken while
# the backfill still runs count. A baseline binary runs the same way in
# the same run, alternating, for a side-by-side median; each round also
# reports how long the whole backfill took.
#
# usage: tests/bench/bench_key_latency.sh [BUILD_DIR]   (default ./build)
#        env BASELINE (a second smtop binary), JOB (an existing job dir;
#        default: JOBS_DIR/64n_60m if present, else one generated here:
#        64 nodes x 8 GPUs x 60 min), ROUNDS (2 per binary), KEYS (40 per round),
#        KEY_MODE (help: `?`/Esc, the default, `?` and Esc reported apart as
#        Esc carries curses' 25 ms ESCDELAY; phase: `n`/`N` in the Steps
#        pane, whose new header needs the loader to build the pane's data
#        for the new phase, so it times the UI's request to the loader and
#        back during the backfill; a key pair is sent only while the Steps
#        pane has the focus and shows two phases or more, and a round says
#        so when it could not send one; every line of the summary counts
#        the keys that hit the 5 s limit), LOCK_STATS (1: each round runs
#        the binary with SMTOP_LOCK_STATS=1, quits it with q after the
#        backfill and prints its summary: the keys' waits for the model
#        lock, or that they take none)
set -eu
BUILD=${1:-build}
SMTOP=$(realpath "$BUILD/smtop")
BASELINE=${BASELINE:-}
ROUNDS=${ROUNDS:-2}
KEYS=${KEYS:-40}
KEY_MODE=${KEY_MODE:-help}
LOCK_STATS=${LOCK_STATS:-0}
NRUN=0
JOBS_DIR=${JOBS_DIR:-/work/jobs}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/smtop-keys.XXXXXX")
SOCK=""
NSOCK=0
cleanup() { [ -n "$SOCK" ] && tmux -L "$SOCK" kill-server 2>/dev/null; rm -rf "$WORK"; }
# A fresh tmux server each time: no race with the last one's exit.
new_server() {
    [ -n "$SOCK" ] && { tmux -L "$SOCK" kill-server 2>/dev/null || true; }
    NSOCK=$((NSOCK + 1))
    SOCK="smtop-keys-$$-$NSOCK"
}
trap cleanup EXIT

JOB=${JOB:-}
if [ -z "$JOB" ]; then
    if [ -f "$JOBS_DIR/64n_60m/.done" ]; then
        JOB=$JOBS_DIR/64n_60m
    else
        JOB=$WORK/64n_60m
        "$SMTOP" synth --out "$JOB" --nodes 64 --gpus 8 --cpus 32 --minutes 60 \
            --seed 1 --start 1700000000 >/dev/null
    fi
fi

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
screen() { tmux -L "$SOCK" capture-pane -p; }

# wait_for PATTERN: ms until the screen matches (or 5000 on a timeout).
wait_for() {
    local t0=$1 pat=$2 t
    while :; do
        screen | grep -Eq -- "$pat" && break
        t=$(now_ms)
        (( t - t0 > 5000 )) && break
        sleep 0.005
    done
    echo $(( $(now_ms) - t0 ))
}

wait_gone() {
    local t0=$1 pat=$2 t
    while :; do
        screen | grep -Eq -- "$pat" || break
        t=$(now_ms)
        (( t - t0 > 5000 )) && break
        sleep 0.005
    done
    echo $(( $(now_ms) - t0 ))
}

# busy: the status line says the backfill runs. A capture taken while a
# frame is being drawn can miss the line, so "done" needs three captures
# in a row without it.
busy() {
    local i
    for i in 1 2 3; do
        screen | grep -Eq 'first scan in progress|backfilling' && return 0
        sleep 0.1
    done
    return 1
}

# focused: the number of the pane whose title is in brackets ("┌─[3 Steps").
focused() { screen | grep -o '─\[[0-9] ' | head -1 | tr -dc 0-9; }

# focus_steps: moves the focus to the Steps pane, whose header shows
# "(1/N, n/N)", one key at a time, each sent only once the last move is
# on screen; then waits until the node has two phases or more to cycle.
# Sending `l` on a timer instead could leave the focus elsewhere
# whenever the first trace came late (a cold page cache, a loaded
# machine): `l` skips a pane that is not shown yet, so the presses cycled
# System, Heatmap, Alerts; every `n` then went to another pane and timed
# out at 5 s, and the round looked like a frozen dashboard.
focus_steps() {
    local f t0 end=$(( $(now_ms) + 60000 ))
    # The pane is shown once the first trace is read, and `l` skips it
    # before: keep cycling, one move at a time, for up to a minute.
    while (( $(now_ms) < end )); do
        f=$(focused)
        [ "$f" = 3 ] && break
        tmux -L "$SOCK" send-keys l   # the order follows the layout
        t0=$(now_ms)
        while [ "$(focused)" = "$f" ] && (( $(now_ms) - t0 < 5000 )); do sleep 0.02; done
    done
    [ "$(focused)" = 3 ] || { echo "  could not focus the Steps pane" >&2; return 1; }
}

# two_phases: waits (up to 5 s) until Steps shows the first of two phases
# or more. `n` on a node with one phase so far changes nothing, and its
# wait would be timed as latency; so a pair of keys is sent only then.
TWO_PHASES='\(1/([2-9]|[0-9]{2,}), n/N\)'
two_phases() { [ "$(wait_for "$(now_ms)" "$TWO_PHASES")" -lt 5000 ]; }

# one_round BIN OUT: appends one latency (ms) per line to OUT.
one_round() {
    local bin=$1 out=$2 t0 start n=0 err
    new_server
    NRUN=$((NRUN + 1))
    err=$WORK/stderr.$NRUN
    start=$(now_ms)
    tmux -L "$SOCK" -f /dev/null new-session -d -x 200 -y 60 \
        "env LANG=C.UTF-8 LC_ALL=C.UTF-8 XDG_CONFIG_HOME=$WORK/cfg SMTOP_LOCK_STATS=$LOCK_STATS $bin $JOB 2>$err; sleep 600"
    for _ in $(seq 200); do screen | grep -q '^ smtop |' && break; sleep 0.05; done
    if [ "$KEY_MODE" = phase ]; then focus_steps || return 0; fi
    while (( n < KEYS )); do
        busy || break
        # A key that went to another pane would time out and be counted
        # as the dashboard's latency: stop the round instead.
        if [ "$KEY_MODE" = phase ] && [ "$(focused)" != 3 ]; then
            echo "  focus left the Steps pane (on pane $(focused)): round stopped" >&2
            break
        fi
        if [ "$KEY_MODE" = phase ]; then
            if ! two_phases; then
                echo "  Steps shows one phase only: keys skipped" >&2
                continue
            fi
            t0=$(now_ms); tmux -L "$SOCK" send-keys n
            echo "$(wait_for "$t0" '\(2/[0-9]+, n/N\)')" >>"$out"
            t0=$(now_ms); tmux -L "$SOCK" send-keys N
            echo "$(wait_for "$t0" '\(1/[0-9]+, n/N\)')" >>"$out"
        else
            t0=$(now_ms); tmux -L "$SOCK" send-keys '?'
            echo "$(wait_for "$t0" 'zoom time range in/out')" >>"$out"
            t0=$(now_ms); tmux -L "$SOCK" send-keys Escape
            # Esc waits out curses' ESCDELAY (25 ms, set in tui/dash/dash.c)
            # before it is told from an escape sequence: timed apart.
            echo "$(wait_gone "$t0" 'zoom time range in/out')" >>"$out.esc"
        fi
        n=$((n + 2))
        sleep 0.1
    done
    while busy; do sleep 0.2; done
    echo "  $bin: $n keys answered during the backfill, which took $(( $(now_ms) - start )) ms" >&2
    [ "$LOCK_STATS" = 1 ] && print_lock_stats "$err"
    return 0
}

# print_lock_stats FILE: quits the dashboard and shows its SMTOP_LOCK_STATS
# summary (written on the way out; the loader's line comes last).
print_lock_stats() {
    local t0
    tmux -L "$SOCK" send-keys q
    t0=$(now_ms)
    until grep -q '^loader:' "$1" 2>/dev/null || (( $(now_ms) - t0 > 10000 )); do
        sleep 0.05
    done
    grep -E '^(lock|loader|keys):' "$1" | sed 's/^/    /' >&2 || true
}

stats() {   # FILE LABEL: median, p95, max of the ms in FILE
    sort -n "$1" | awk -v l="$2" '{ v[NR] = $1 } END {
        if (NR == 0) { printf "%-12s no samples (the backfill ended first)\n", l; exit }
        p = int(NR * 0.95); if (p < 1) p = 1
        for (i = 1; i <= NR; i++) if (v[i] >= 5000) to++
        printf "%-12s %3d keys: median %d ms, p95 %d ms, max %d ms, %d timed out (5 s)\n", l, NR,
               v[int((NR + 1) / 2)], v[p], v[NR], to }'
}

# The floor: the same send-keys/capture loop against `cat`, which echoes
# at once. What tmux and the polling cost on this machine right now.
floor_round() {
    local out=$1 t0 i
    new_server
    tmux -L "$SOCK" -f /dev/null new-session -d -x 200 -y 60 "stty -icanon; cat; sleep 600"
    sleep 0.5
    for i in $(seq "$KEYS"); do
        t0=$(now_ms); tmux -L "$SOCK" send-keys "k$i."
        echo "$(wait_for "$t0" "k$i\\.")" >>"$out"
        sleep 0.05
    done
}

echo "== key-to-screen latency during the backfill of $JOB ($(uptime | sed 's/.*load/load/'))"
: >"$WORK/new"; : >"$WORK/base"; : >"$WORK/floor"; : >"$WORK/new.esc"; : >"$WORK/base.esc"
for r in $(seq "$ROUNDS"); do
    floor_round "$WORK/floor"
    one_round "$SMTOP" "$WORK/new"
    [ -n "$BASELINE" ] && one_round "$(realpath "$BASELINE")" "$WORK/base"
done
stats "$WORK/floor" "floor (cat)"
stats "$WORK/new" "this build"
[ -n "$BASELINE" ] && stats "$WORK/base" "baseline"
if [ "$KEY_MODE" = help ]; then
    stats "$WORK/new.esc" "this build, Esc"
    [ -n "$BASELINE" ] && stats "$WORK/base.esc" "baseline, Esc"
fi
exit 0
