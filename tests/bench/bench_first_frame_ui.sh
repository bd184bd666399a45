#!/usr/bin/env bash
# bench_first_frame_ui (issue 35): the dashboard's first frame on a big
# job, the real binary in tmux. Polls the screen every 20 ms and prints,
# per run, the ms from start until the header is drawn (the first frame),
# until the status line shows the progress line ("reading N/M files"),
# and until the first read is done (the line gone), and the dashboard's
# peak RSS (VmHWM) then. BASELINE (optional) gets the same runs, for the
# header's time (it has no progress line).
#
#   SMTOP=build/smtop JOB=/tmp/jobs/r1024 tests/bench/bench_first_frame_ui.sh
#
# Env: REPS (3), COLS/ROWS (200x50), CORES (taskset 0..CORES-1; default
# all), LIMIT_S (600). Not a ctest test.
set -eu
SMTOP=${SMTOP:-build/smtop}
BASELINE=${BASELINE:-}
JOB=${JOB:?JOB (the job directory) must be set}
REPS=${REPS:-3}
COLS=${COLS:-200} ROWS=${ROWS:-50} LIMIT_S=${LIMIT_S:-600}
SOCK="smtop-ffui-$$"
trap 'tmux -L "$SOCK" kill-server 2>/dev/null || true' EXIT
now_ms() { date +%s%3N; }
pin=()
[ -n "${CORES:-}" ] && pin=(taskset -c "0-$((CORES - 1))")

# one BIN: prints "header_ms progress_ms done_ms rss_mb" (-1: not seen)
one() {
    local bin=$1 t0 t h=-1 p=-1 d=-1 rss=-1 screen pid
    tmux -L "$SOCK" kill-server 2>/dev/null || true
    t0=$(now_ms)
    tmux -L "$SOCK" -f /dev/null new-session -d -x "$COLS" -y "$ROWS" \
        "env LANG=C.UTF-8 ${pin[*]} $bin $JOB"
    while :; do
        t=$(($(now_ms) - t0))
        ((t > LIMIT_S * 1000)) && break
        screen=$(tmux -L "$SOCK" capture-pane -p 2>/dev/null || true)
        if ((h < 0)) && grep -q 'smtop | ' <<<"$screen"; then h=$t; fi
        if ((p < 0)) && grep -Eq 'reading [0-9]+/[0-9]+ files' <<<"$screen"; then p=$t; fi
        if ((h >= 0)) && ! grep -Eq 'reading [0-9]+/|first scan in progress' <<<"$screen"; then
            d=$t
            break
        fi
        sleep 0.02
    done
    pid=$(pgrep -P "$(tmux -L "$SOCK" display-message -p '#{pane_pid}')" | head -1 || true)
    [ -n "$pid" ] && rss=$(awk '/VmHWM/ {printf "%.1f", $2 / 1024}' "/proc/$pid/status" 2>/dev/null || echo -1)
    tmux -L "$SOCK" send-keys q 2>/dev/null || true
    sleep 0.5
    echo "$h $p $d $rss"
}

echo "job: $JOB ($(du -sbL "$JOB" | awk '{printf "%.2f GB", $1 / 1e9}')); load $(cut -d' ' -f1 /proc/loadavg)"
find "$JOB" -type f -exec cat {} + >/dev/null   # hot cache
echo "| binary | run | first frame ms | progress line ms | first read done ms | peak RSS MB |"
echo "|---|---|---|---|---|---|"
for r in $(seq "$REPS"); do
    for b in "$SMTOP" $BASELINE; do
        read -r h p d rss <<<"$(one "$b")"
        echo "| $b | $r | $h | $p | $d | $rss |"
    done
done
