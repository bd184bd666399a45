#!/usr/bin/env bash
# bench_live_cycle_ui (issue 35): "a new cycle of a 1,024-rank job is
# decoded in parallel, and the UI never waits on it", the real binary in
# tmux. JOB holds two profiling cycles (two traces per writer, e.g.
#
#   smtop synth --out /tmp/live/j2 --kineto --kineto-only --nodes 128 \
#       --ranks 8 --gpus 8 --minutes 3 --kineto-plain --kineto-every 700 \
#       --kineto-active 70 --seed 3
#
# 2,048 plain traces, 7.8 GB). Each writer's newest trace (by the time in
# its name, algo-N_PID.TIME.pt.trace.json) is moved aside to ASIDE before
# each run, and the dashboard is started on the first cycle alone. Once
# its first read is done (the progress line gone) and SETTLE_S later, a
# key is sent KEYS times with nothing arriving: each time, the ms from
# send-keys until the screen shows the change (the idle latency). Then
# the second cycle is moved back in one `mv` (same filesystem: each file
# appears whole) and the key is sent again and again until the new cycle
# is read (the progress line seen, then gone for QUIET_S, which must be
# longer than the scan interval and a second: a listing that lands
# during the mv sees part of the cycle, and the next pass, an interval
# later, reads the rest; "reads seen" counts such reads): the same
# latency, for every key from the mv on (during the cycle) and for those
# sent once the scanner's pass had begun (while reading).
#
# The key (KEY): help (default), `?`, the help overlay on / off, a
# change over much of the screen that the UI thread draws alone; source,
# `o` in the Top functions pane (focused first with Tab): its next
# PyTorch profiler table, which the loader builds (a view request,
# answered between the files of a pass) for the UI to draw.
#
# Prints a row per run: the first read's seconds; idle, during-cycle and
# while-reading latency (median, max, keys); the keys over FREEZE_MS (a
# freeze); the seconds from the mv until the progress line shows, the
# Timeline's step range shows the new steps, and the cycle is read, and
# the reads seen (progress lines apart); the
# dashboard's CPU seconds (user + system) from the mv to the end (the
# cycle's read and QUIET_S of keys after it); the most threads it had
# (sampled after each key: the decode's helpers start for each round);
# its VmHWM after the first read and at the end, and its VmRSS at the
# end. With SMTOP_LOCK_STATS=1 the dashboard's own frame and key timings
# of each run (median, p95, max) follow the table.
#
#   SMTOP=build/smtop JOB=/tmp/live/j2 tests/bench/bench_live_cycle_ui.sh
#
# The traces must lie in one folder. ASIDE (default JOB.cycle2) must be
# on JOB's filesystem; the script leaves the second cycle back in JOB at
# the end. Env: REPS (3), KEYS (30), SETTLE_S (3), QUIET_S (8), GAP_S
# (0.2, between keys), FREEZE_MS (500), POLL_S (0.005, between screen
# captures), COLS/ROWS (200x50), CORES (taskset 0..CORES-1; default all),
# ARGS (more smtop options, e.g. "--interval 1"), KEY (help),
# LIMIT_S (300).
# The latencies include tmux's part (send-keys, the pty, capture-pane)
# and the poll step; the idle figures are the yardstick. Not a ctest test.
set -eu
SMTOP=${SMTOP:-build/smtop}
JOB=${JOB:?JOB (the job directory, two cycles) must be set}
JOB=${JOB%/}
ASIDE=${ASIDE:-$JOB.cycle2}
REPS=${REPS:-3} KEYS=${KEYS:-30}
SETTLE_S=${SETTLE_S:-3} QUIET_S=${QUIET_S:-8} GAP_S=${GAP_S:-0.2}
FREEZE_MS=${FREEZE_MS:-500} POLL_S=${POLL_S:-0.005}
COLS=${COLS:-200} ROWS=${ROWS:-50} LIMIT_S=${LIMIT_S:-300}
ARGS=${ARGS:-} KEY=${KEY:-help}
case $KEY in help | source) ;; *) echo "KEY must be help or source" >&2; exit 2 ;; esac
SOCK="smtop-lcui-$$"
STATS=$(mktemp "${TMPDIR:-/tmp}/smtop-lcui-stats.XXXXXX")
HELP='smtop keys'                       # the overlay's title
# a screen tmux has taken whole: the status line's end drawn (a frame is
# written in pieces; a capture between them may lack the status line)
whole() { grep -q 'q quit$' <<<"$1"; }
# the status line while a read goes on: a pass's progress line (a later
# pass shows it once it has run 1 s), "first scan in progress", and
# between two passes of one read "backfilling: N files left"
PROG='reading [0-9]+/[0-9]+ files|first scan in progress|backfilling: [0-9]+ file'
HZ=$(getconf CLK_TCK)
pin=()
[ -n "${CORES:-}" ] && pin=(taskset -c "0-$((CORES - 1))")
# ms since the epoch, with µs, without a fork
now_ms() { local t=${EPOCHREALTIME/[.,]/}; echo "$((t / 1000)).$(printf %03d $((t % 1000)))"; }
now_us() { echo "${EPOCHREALTIME/[.,]/}"; }
cap() { tmux -L "$SOCK" capture-pane -p 2>/dev/null || true; }

# --- the two cycles --------------------------------------------------------
mapfile -t traces < <(find "$JOB" -type f -name '*.pt.trace.json*' ! -name '*.tmp' | sort)
[ "${#traces[@]}" -gt 0 ] || { echo "no traces under $JOB" >&2; exit 1; }
TDIR=$(dirname "${traces[0]}")
for f in "${traces[@]}"; do
    [ "$(dirname "$f")" = "$TDIR" ] || { echo "traces in more than one folder: $f" >&2; exit 1; }
done
mkdir -p "$ASIDE"
[ "$(stat -c %d "$ASIDE")" = "$(stat -c %d "$TDIR")" ] ||
    { echo "$ASIDE is not on $TDIR's filesystem: mv would copy" >&2; exit 1; }
LIST="$ASIDE/.cycle2"
if [ ! -s "$LIST" ]; then
    # each writer's newest trace: the name's time, compared as digits
    printf '%s\n' "${traces[@]##*/}" | awk '
        { w = $0; sub(/\..*/, "", w); t = $0; sub(/^[^.]*\./, "", t); sub(/\..*/, "", t)
          n[w]++
          if (!(w in bt) || length(t) > length(bt[w]) || (length(t) == length(bt[w]) && t > bt[w])) {
              bt[w] = t; bf[w] = $0 } }
        END { for (w in n) { if (n[w] != 2) bad++; print bf[w] }
              if (bad) printf "%d writers without exactly 2 traces\n", bad > "/dev/stderr" }' \
        >"$LIST"
fi
NEW=$(wc -l <"$LIST")
# the listed files present in the current folder
present() { local f; while read -r f; do [ -e "$f" ] && echo "$f"; done <"$LIST"; return 0; }
aside() { (cd "$TDIR" && present | xargs -r mv -t "$ASIDE"); }
back_in() { (cd "$ASIDE" && xargs -a "$LIST" mv -t "$TDIR"); }   # one mv
cleanup() {
    tmux -L "$SOCK" kill-server 2>/dev/null || true
    (cd "$ASIDE" 2>/dev/null && present | xargs -r mv -t "$TDIR") || true
    rm -f "$STATS"
}
trap cleanup EXIT

# --- one key ----------------------------------------------------------------
# KEY=help: `?` toggles the help overlay, which the UI thread draws alone.
# KEY=source: `o` in the focused Top functions pane shows its next source
# (Kineto ops, kernels, Python functions, GPU idle: host, critical path),
# whose table the loader builds (a view request, answered between the
# files of a pass): the key counts as answered once the pane's first line
# names the new source (until then it says "reading the PyTorch profiler
# traces...").
SRC='(Kineto ops|kernels|Python functions|GPU idle: host|critical path) \| '
src_of() { grep -Eo "$SRC" <<<"$1" | head -1 || true; }
help_on=0
# press: sends the key, waits until the screen shows its change; sets LAT
# to the ms it took (LIMIT_S * 1000 when the screen never changed), SENT
# to when it was sent (µs), and leaves the last screen in $screen. Not
# in a $(...): it keeps help_on.
screen='' LAT='' SENT=0
press() {
    local t0 t1 want=$((1 - help_on)) lim=$(($(now_us) + LIMIT_S * 1000000)) from=''
    [ "$KEY" = source ] && from=$(src_of "$(cap)")
    t0=$(now_us)
    SENT=$t0
    if [ "$KEY" = source ]; then tmux -L "$SOCK" send-keys o; else tmux -L "$SOCK" send-keys '?'; fi
    while :; do
        screen=$(cap)
        if [ "$KEY" = source ]; then
            local now
            now=$(src_of "$screen")
            [ -n "$now" ] && [ "$now" != "$from" ] && break
        elif grep -q "$HELP" <<<"$screen"; then [ "$want" = 1 ] && break
        else [ "$want" = 0 ] && break; fi
        (($(now_us) > lim)) && break
        sleep "$POLL_S"
    done
    t1=$(now_us)
    [ "$KEY" = help ] && help_on=$want
    LAT=$(awk -v d=$((t1 - t0)) 'BEGIN { printf "%.1f", d / 1000 }')
}
# close the overlay if open (e.g. before the end)
close_help() { if ((help_on)); then press; fi; }
# KEY=source: Tab until Top functions has the focus ("[4 Top functions")
focus_top() {
    local i
    for i in $(seq 10); do
        grep -Eq '\[[0-9] Top functions' <<<"$(cap)" && [ -n "$(src_of "$(cap)")" ] && return 0
        tmux -L "$SOCK" send-keys Tab
        sleep 0.3
    done
    echo "KEY=source: no Top functions pane with a Kineto source to focus" >&2
    return 1
}

# median and max of the numbers in $@: "median max n over"
spread() {
    printf '%s\n' "$@" | sort -g | awk -v f="$FREEZE_MS" '
        { v[NR] = $1; if ($1 > f) o++ }
        END { if (!NR) { print "- - 0 0"; exit }
              m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
              printf "%.1f %.1f %d %d\n", m, v[NR], NR, o }'
}
secs() { awk -v a="$1" -v b="$2" 'BEGIN { if (b < 0) print -1; else printf "%.1f", (b - a) / 1e6 }'; }
steps_range() { grep -Eo 'step [0-9]+-[0-9]+ ' <<<"$1" | head -1 || true; }
# user + system CPU seconds of pid $1 so far
cpu_s() { awk -v hz="$HZ" '{ sub(/^.*\) /, ""); printf "%.2f", ($12 + $13) / hz }' "/proc/$1/stat" 2>/dev/null || echo -1; }
# VmHWM or VmRSS ($2) of pid $1, MB
mem() { awk -v k="$2:" '$1 == k {printf "%.1f", $2 / 1024}' "/proc/$1/status" 2>/dev/null || echo -1; }

# one run: prints "first_s idle_med idle_max idle_n cyc_med cyc_max cyc_n
# read_med read_max read_n freezes prog_s steps_s done_s reads cpu_s threads
# hwm_first hwm_end rss_end"
one() {
    local t0 t rlim pid s0 s tmv tprog=-1 tsteps=-1 tdone=-1 seen=0 im ix ik cm cx ck fc fk
    local -a idle=() cyc=() cyc_at=() rd=()
    tmux -L "$SOCK" kill-server 2>/dev/null || true
    help_on=0
    aside
    find "$TDIR" "$ASIDE" -maxdepth 1 -type f -name '*.pt.trace.json*' -exec cat {} + >/dev/null  # hot cache
    t0=$(now_us)
    tmux -L "$SOCK" -f /dev/null new-session -d -x "$COLS" -y "$ROWS" \
        "exec env LANG=C.UTF-8 SMTOP_LOCK_STATS=1 ${pin[*]} $SMTOP $ARGS $JOB 2>>$STATS"
    pid=$(tmux -L "$SOCK" display-message -p '#{pane_pid}')
    rlim=$((t0 + LIMIT_S * 1000000))
    while :; do                         # the first read
        screen=$(cap)
        if grep -q 'smtop | ' <<<"$screen" && whole "$screen" && ! grep -Eq "$PROG" <<<"$screen"; then break; fi
        (($(now_us) > rlim)) && { echo "first read not done in $LIMIT_S s" >&2; return 1; }
        sleep 0.02
    done
    local first
    first=$(secs "$t0" "$(now_us)")
    sleep "$SETTLE_S"
    local hwm_first
    hwm_first=$(mem "$pid" VmHWM)
    s0=$(steps_range "$(cap)")
    if [ "$KEY" = source ]; then focus_top || return 1; fi
    for _ in $(seq "$KEYS"); do         # idle: nothing arriving
        press
        idle+=("$LAT")
        sleep "$GAP_S"
    done
    close_help
    local cpu0 nthr=0
    local -a thr
    cpu0=$(cpu_s "$pid")
    tmv=$(now_us)
    back_in                             # the new cycle
    rlim=$((tmv + LIMIT_S * 1000000))
    while :; do                         # keys while the scanner reads it
        press
        cyc+=("$LAT")
        cyc_at+=("$SENT")
        thr=(/proc/"$pid"/task/*)       # the threads now (the decode's helpers)
        ((${#thr[@]} > nthr)) && nthr=${#thr[@]}
        if ((help_on == 0)) && whole "$screen"; then   # status line, Timeline uncovered
            t=$(now_us)
            if grep -Eq "$PROG" <<<"$screen"; then
                ((tprog < 0)) && tprog=$t
                ((tdone >= 0 || seen == 0)) && seen=$((seen + 1))
                tdone=-1
            elif ((tprog >= 0 && tdone < 0)); then
                tdone=$t
            fi
            s=$(steps_range "$screen")
            if ((tsteps < 0)) && [ -n "$s" ] && [ "$s" != "$s0" ]; then tsteps=$t; fi
            ((tdone >= 0 && t - tdone > QUIET_S * 1000000)) && break
        fi
        (($(now_us) > rlim)) && break
        sleep "$GAP_S"
    done
    close_help
    local hwm_end rss_end cpu
    cpu=$(awk -v a="$cpu0" -v b="$(cpu_s "$pid")" 'BEGIN { printf "%.1f", b - a }')
    hwm_end=$(mem "$pid" VmHWM)
    rss_end=$(mem "$pid" VmRSS)
    tmux -L "$SOCK" send-keys q 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    read -r im ix ik fk <<<"$(spread "${idle[@]}")"
    read -r cm cx ck fc <<<"$(spread "${cyc[@]}")"
    # the keys sent while the scanner read: from a second before the
    # progress line was first seen (it shows once a pass has run 1 s) to
    # the first screen without it
    local i rm rx rk
    if ((tprog >= 0 && tdone >= 0)); then
        for i in "${!cyc[@]}"; do
            if ((cyc_at[i] >= tprog - 1000000 && cyc_at[i] <= tdone)); then rd+=("${cyc[i]}"); fi
        done
    fi
    read -r rm rx rk _ <<<"$(spread "${rd[@]}")"
    echo "$first $im $ix $ik $cm $cx $ck $rm $rx $rk $((fk + fc)) $(secs "$tmv" "$tprog") $(secs "$tmv" "$tsteps") $(secs "$tmv" "$tdone") $seen $cpu $nthr $hwm_first $hwm_end $rss_end"
}

echo "job: $JOB ($(du -sbL "$JOB" "$ASIDE" | awk '{s += $1} END {printf "%.2f GB", s / 1e9}'), ${#traces[@]} traces, $NEW in the second cycle); load $(cut -d' ' -f1 /proc/loadavg)"
echo "| run | first read s | idle ms median | idle ms max | keys | during-cycle ms median | during-cycle ms max | keys | while reading ms median | while reading ms max | keys | keys > $FREEZE_MS ms | progress line seen s | new steps shown s | cycle read s | reads seen | CPU s from the mv on | threads (most seen) | VmHWM first read MB | VmHWM end MB | VmRSS end MB |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for r in $(seq "$REPS"); do
    echo "--- run $r" >>"$STATS"
    read -r f im ix ik cm cx ck rm rx rk fz tp ts td np c bz h1 h2 r2 <<<"$(one)"
    echo "| $r | $f | $im | $ix | $ik | $cm | $cx | $ck | $rm | $rx | $rk | $fz | $tp | $ts | $td | $np | $c | $bz | $h1 | $h2 | $r2 |"
done
echo "(during-cycle: every key from the mv until the cycle was read; while reading: those sent from 1 s"
echo "before the progress line was first seen until it went; cycle times from the mv; -1: not seen)"
echo "dashboard's own timings (SMTOP_LOCK_STATS=1), whole runs:"
grep -E '^(--- run|lock:|loader:)' "$STATS" || true
