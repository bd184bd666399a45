# dash_bench_lib.sh: what the dashboard benchmarks (bench_idle.sh,
# bench_tail.sh, bench_backfill.sh) share, sourced by them. The functions
# below expect SOCK (the tmux socket name) and WORK (a scratch dir holding
# cfg/), which dash_bench_init sets.

. "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

# dash_bench_init NAME: WORK, a scratch dir with cfg/, and SOCK, a tmux
# server for the dashboards; both are removed at exit. tmux exits with its
# last session: one idle session keeps the server up between runs, so a
# new session never races the old server's exit.
dash_bench_init() {
    WORK=$(mktemp -d "${TMPDIR:-/tmp}/smtop-$1.XXXXXX")
    SOCK="smtop-$1-$$"
    trap 'tmux -L "$SOCK" kill-server 2>/dev/null || true; rm -rf "$WORK"' EXIT
    mkdir -p "$WORK/cfg"
    tmux -L "$SOCK" -f /dev/null new-session -d -s hold "sleep 86400"
}

cpu_ticks() {   # utime + stime of PID (fields 14 and 15 of /proc/PID/stat)
    awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"
}

# Starts binary $2 on job $3 with --interval $4 in tmux session $1; prints
# its pid (the pane runs smtop itself through exec).
start_dash() {
    tmux -L "$SOCK" -f /dev/null new-session -d -s "$1" -x 200 -y 60 \
        "exec env LANG=C.UTF-8 XDG_CONFIG_HOME=$WORK/cfg $2 --no-config --no-rules-config --interval $4 $3"
    tmux -L "$SOCK" list-panes -t "$1" -F '#{pane_pid}'
}

# 0 once the session's status line reports a finished pass and no backfill.
scanned() {
    local s
    s=$(tmux -L "$SOCK" capture-pane -p -t "$1" 2>/dev/null) || return 1
    grep -q "scanned .* ago" <<<"$s" && ! grep -q "backfilling" <<<"$s"
}


# Waits until session "new" (and "base" when $1 is not empty) finished
# its backfill, at most $2 s (exits 1 then, naming job $3); prints the
# seconds it took.
wait_backfill() {
    local t_start
    t_start=$(date +%s)
    until { [ -z "$1" ] || scanned base; } && scanned new; do
        if [ $(($(date +%s) - t_start)) -gt "$2" ]; then
            echo "backfill of $3 did not finish within $2 s" >&2
            exit 1
        fi
        sleep 1
    done
    echo $(($(date +%s) - t_start))
}

# CPU share in % of one core of the base (ticks $1 -> $2) and new ($3 ->
# $4) processes between times $5 and $6 (s.ns): prints "base new".
cpu_shares() {
    echo "$@" | awk -v hz="$(getconf CLK_TCK)" '{
        s = $6 - $5; printf "%.3f %.3f\n", 100 * ($2 - $1) / hz / s, 100 * ($4 - $3) / hz / s }'
}
