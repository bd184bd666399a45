#!/bin/bash
# A fatal signal (SEGV, ABRT, QUIT, PIPE) while the dashboard owns the
# terminal leaves it usable: alternate screen left, cursor shown, mouse
# reporting and keypad mode off (tmux reports each mode of the pane), and
# the process still dies of that signal (exit status 128+N). A --demo
# killed with SIGKILL leaves its directory, which the next --demo removes.
source "$(dirname "$0")/ui_lib.sh"
JOB="$UI_WORK/job/profiler-output"
ui_synth "$JOB" --nodes 2 --minutes 2

modes() {
    tm display-message -p 'alt=#{alternate_on} cursor=#{cursor_flag} mouse=#{mouse_any_flag}#{mouse_button_flag}#{mouse_standard_flag}#{mouse_all_flag} keypad=#{keypad_cursor_flag}'
}

for sig in SEGV ABRT QUIT PIPE; do
    ui_start 160 40 "$SMTOP" "$JOB"
    ui_wait '2 nodes' 15
    m=$(modes)
    [[ $m == alt=1*mouse=*1* ]] || ui_fail "$sig: the dashboard did not set the modes under test: $m"
    kill -"$sig" "$(ui_smtop_pid)"
    st=$(ui_exit_status 10)
    n=$(kill -l "$sig")
    [ "$st" = $((128 + n)) ] || ui_fail "$sig: exit status $st is not 128+$n"
    m=$(modes)
    [ "$m" = "alt=0 cursor=1 mouse=0000 keypad=0" ] || ui_fail "$sig: terminal left as $m"
    ! ui_screen | grep -Eq '^ smtop \|' || ui_fail "$sig: dashboard left on screen"
    echo "ok: $sig: terminal restored ($m), exit $((128 + n))"
done

# --- a --demo killed outright leaves its directory; the next start removes it
export TMPDIR="$UI_WORK/tmp"
mkdir -p "$TMPDIR"
ui_start 160 40 env TMPDIR="$TMPDIR" "$SMTOP" --demo
ui_wait 'nodes' 20
pid=$(ui_smtop_pid)
kill -KILL "$pid"
ui_exit_status 10 >/dev/null
left=$(ls -d "$TMPDIR"/smtop-demo-* 2>/dev/null)
[ -n "$left" ] || ui_fail "SIGKILL left no demo directory to clean (the test lost its point)"
mkdir "$TMPDIR/smtop-demo-1-keepme"                     # pid 1 is alive: kept
mkdir "$TMPDIR/smtop-demo-other"                        # not ours by name: kept
ui_start 160 40 env TMPDIR="$TMPDIR" "$SMTOP" --demo
ui_wait 'nodes' 20
[ -e "$left" ] && ui_fail "the dead demo's directory $left is still there"
[ -d "$TMPDIR/smtop-demo-1-keepme" ] && [ -d "$TMPDIR/smtop-demo-other" ] ||
    ui_fail "a directory that is not a dead demo's was removed"
ui_quit
[ "$(ls -d "$TMPDIR"/smtop-demo-*-* | wc -l)" = 1 ] || ui_fail "the demo did not remove its own directory"
echo "ok: a dead demo's directory is removed by the next --demo"
