# ui_lib.sh: helpers for the tmux UI tests (sourced by test_ui_*.sh).
# Each test gets its own tmux server socket and work directory, both
# removed on exit whatever happens.
set -u
: "${SMTOP:?SMTOP (the binary) must be set}"
# One tmux server per ui_start (a fresh socket each time, so a server
# still shutting down can never race the next one).
UI_SOCK=""
UI_SOCKS=()
UI_WORK=$(mktemp -d "${TMPDIR:-/tmp}/smtop-ui.XXXXXX")
ui_cleanup() {
    local s
    for s in "${UI_SOCKS[@]}"; do tmux -L "$s" kill-server 2>/dev/null; done
    rm -rf "$UI_WORK"
}
trap ui_cleanup EXIT
# The user's smtop.conf and rules.conf must not change what a test sees,
# and the dashboard saves its layout, theme and symbols to smtop.conf on
# exit: every test gets its own config directory (a test may point it
# elsewhere, or write its own files under it).
export XDG_CONFIG_HOME="$UI_WORK/config"

tm() { tmux -L "$UI_SOCK" -f /dev/null "$@"; }

# ui_start COLS ROWS COMMAND... : runs COMMAND in a fresh detached session;
# when it ends the pane prints SMTOP_EXIT=<status> and stays open.
ui_start() {
    local cols=$1 rows=$2
    shift 2
    local cmd
    printf -v cmd '%q ' "$@"
    [ -n "$UI_SOCK" ] && tm kill-server 2>/dev/null
    UI_SOCK="smtop-ui-$$-${#UI_SOCKS[@]}-${RANDOM}"
    UI_SOCKS+=("$UI_SOCK")
    local status_file
    printf -v status_file '%q' "$UI_WORK/exit-status"
    rm -f "$UI_WORK/exit-status"
    tm new-session -d -x "$cols" -y "$rows" \
        "env LANG=C.UTF-8 LC_ALL=C.UTF-8 $cmd; st=\$?; echo \$st >$status_file; echo SMTOP_EXIT=\$st; sleep 120"
}

# ui_exit_status [SECONDS]: polls until the command of the last ui_start has
# ended and prints its exit status. Read from a file, not the screen: the
# shell's own "Segmentation fault <command>" line can wrap SMTOP_EXIT= over
# two rows when the paths are long.
ui_exit_status() {
    local limit=${1:-15} end=$((SECONDS + ${1:-15}))
    while ((SECONDS < end)); do
        [ -s "$UI_WORK/exit-status" ] && { cat "$UI_WORK/exit-status"; return 0; }
        sleep 0.1
    done
    ui_fail "timed out after ${limit}s waiting for the command to end"
}

# The header badge while the view follows the newest data: LIVE, or how old
# that data is when the job stopped writing (a finished synthetic job goes
# from LIVE to STALE within seconds, so a test that means "following again"
# must accept every one of them; a traces-only job of one profiling cycle
# says when its last trace came instead of STALE).
UI_FOLLOW='(LIVE|STALE [0-9]+ [smhdy]|(ENDED|LAST TRACE) [0-9]+ [smhdy] ago) *$'

ui_screen() { tm capture-pane -p; }
ui_screen_esc() { tm capture-pane -p -e; }
ui_keys() { tm send-keys "$@"; }

# ui_smtop_pid: the smtop process in the current tmux pane (a child of the
# pane's shell), waited for up to 10 s.
ui_smtop_pid() {
    local pane pid end=$((SECONDS + 10))
    pane=$(tm display-message -p '#{pane_pid}')
    while ((SECONDS < end)); do
        pid=$(pgrep -P "$pane" | head -1)
        [ -n "$pid" ] && { echo "$pid"; return 0; }
        sleep 0.05
    done
    ui_fail "no smtop process under the pane"
}

ui_fail() {
    echo "FAIL: $*"
    echo "----- screen -----"
    ui_screen
    echo "------------------"
    exit 1
}

# ui_wait PATTERN [SECONDS]: polls the screen until grep -E PATTERN matches.
ui_wait() {
    local pat=$1 limit=${2:-20} end=$((SECONDS + ${2:-20}))
    while ((SECONDS < end)); do
        ui_screen | grep -Eq -- "$pat" && return 0
        sleep 0.2
    done
    ui_fail "timed out after ${limit}s waiting for /$pat/"
}

# ui_wait_gone PATTERN [SECONDS]: polls until PATTERN is no longer shown.
ui_wait_gone() {
    local pat=$1 limit=${2:-20} end=$((SECONDS + ${2:-20}))
    while ((SECONDS < end)); do
        ui_screen | grep -Eq -- "$pat" || return 0
        sleep 0.2
    done
    ui_fail "timed out after ${limit}s: /$pat/ still shown"
}

# ui_poll [-every S] SECONDS CMD...: runs CMD (in this shell: what it sets
# stays set) until it succeeds, every S seconds (0.2 unless told), for at
# most SECONDS (fractions allowed, "3.5"); returns 1 when time ran out with
# CMD failing still. CMD is tried before the clock is read, so it runs at
# least once. The caller says what failed:
#   ui_poll 20 row_is_report || ui_fail "row '$row' is not '$want'"
ui_poll() {
    local every=0.2
    [ "$1" = -every ] && { every=$2; shift 2; }
    local limit=$1
    shift
    local t0=${EPOCHREALTIME/[^0-9]/} now
    local limit_us
    limit_us=$(awk -v s="$limit" 'BEGIN { printf "%d", s * 1000000 }')
    while :; do
        "$@" && return 0
        now=${EPOCHREALTIME/[^0-9]/}
        ((now - t0 > limit_us)) && return 1
        sleep "$every"
    done
}

# ui_loaded [SECONDS]: waits until the first read is over: no first scan,
# no backfill and no "reading N/M files" line. Traces are still arriving
# while the progress line shows, so a figure read then can count half the
# ranks.
ui_loaded() {
    ui_wait_gone 'first scan in progress|backfilling|reading [0-9]+/[0-9]+ files' "${1:-60}"
}

# ui_steady PATTERN [SECONDS]: the text PATTERN matches once it has read the
# same for 2 s. A live job's traces arrive one file a tick, so a figure read
# the moment it first shows can belong to half the ranks. Call it as
# v=$(ui_steady ...) || exit 1: its failure exits only the subshell.
ui_steady() {
    local pat=$1 limit=${2:-30} end=$((SECONDS + ${2:-30})) last="" now same=0
    while ((SECONDS < end)); do
        now=$(ui_screen | grep -oE -- "$pat" | head -1)
        if [ -n "$now" ] && [ "$now" = "$last" ]; then
            same=$((same + 1))
            ((same >= 4)) && { echo "$now"; return 0; }
        else
            same=0
        fi
        last=$now
        sleep 0.5
    done
    ui_fail "timed out after ${limit}s: /$pat/ never held still (last: $last)" >&2
}

# The focused pane's title: "[3 Steps]" in its border.
ui_focused() { ui_screen | grep -oE '\[[0-9] [A-Z][A-Za-z ]*' | head -1; }

# ui_focus TITLE: Tab until the pane titled TITLE ("Timeline") has the
# focus, whatever its number and whichever panes are hidden. Each Tab waits
# for the focus mark to move before the next.
ui_focus() {
    local title=$1 end=$((SECONDS + 40)) before
    while ((SECONDS < end)); do
        before=$(ui_focused)
        [[ "$before" =~ ^\[[0-9]\ $title ]] && return 0
        ui_keys Tab
        while ((SECONDS < end)) && [ "$(ui_focused)" = "$before" ]; do sleep 0.1; done
    done
    ui_fail "could not focus the $title pane"
}

# ui_quit: q must end smtop with status 0 and leave no dashboard behind.
ui_quit() {
    ui_keys q
    ui_wait 'SMTOP_EXIT=' 15
    ui_screen | grep -q 'SMTOP_EXIT=0' || ui_fail "smtop did not exit 0"
    ! ui_screen | grep -Eq 'help  q quit|smtop \|' || ui_fail "dashboard left on screen"
}

# ui_synth DIR ARGS...: a finished synthetic job.
ui_synth() {
    local dir=$1
    shift
    "$SMTOP" synth --out "$dir" --seed 7 "$@" >/dev/null || { echo "FAIL: synth"; exit 1; }
}
