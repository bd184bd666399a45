#!/bin/bash
# The Python pane follows the selected time window (issue 14): with the
# window narrower than the job it merges only the stats windows that
# overlap it and its border names the range; zoomed out to hold every
# window, it merges them all and says "whole job"; scrubbed back to the
# job's start, it shows the early window's functions only. The merge is
# the loader's (the pane asks, the snapshot answers).
source "$(dirname "$0")/ui_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }

JOB="$UI_WORK/job"
S=1700000000                       # 2023-11-14 22:13:20 UTC
ui_synth "$JOB" --nodes 1 --gpus 1 --minutes 20 --interval-ms 1000 --no-traces --start $S
us() { echo $(((S + $1) * 1000000)); }
python3 "$SMTOP_SRC/tests/tools/pystats_fixture.py" timed "$JOB" \
    "algo-1:$(us 60):$(us 120):early_hot" "algo-1:$(us 1080):$(us 1140):late_hot" \
    || { echo "FAIL: fixture"; exit 1; }

py_rows() { ui_screen | grep -oE 'train\.py:1\((early|late)_hot\)' | sort -u | tr '\n' ' '; }
want_rows() {   # the hot functions shown, exactly
    local end=$((SECONDS + 20)) got
    while ((SECONDS < end)); do
        got=$(py_rows)
        [ "$got" = "$1" ] && return 0
        sleep 0.2
    done
    ui_fail "Python pane shows '$got', want '$1'"
}

ui_start 200 60 env TZ=UTC "$SMTOP" "$JOB"
# The ended job opens on its 20 minutes; `+ +` shows its last 5.
ui_wait 'UTC \(20 m 00 s\)|UTC \(19 m 59 s\)'
ui_keys + +
ui_wait 'UTC \(5 m 00 s\)|UTC \(4 m 59 s\)'
ui_wait 'Top functions'
ui_focus Top
ui_keys Enter
# The default 5-minute window at the job's end holds the late window only.
ui_wait 'Top functions \(Esc: back\) - 22:28:[0-9]{2}-22:33:[0-9]{2}'
ui_wait 'cProfile \| all windows, all nodes \| 1 window \|'
want_rows 'train.py:1(late_hot) '
echo "ok: a 5-minute window merges only the stats window inside it (late_hot)"

ui_keys - - -                       # the whole job (- stops at its 20 minutes): every window
ui_wait 'Top functions \(Esc: back\) - whole job'
ui_wait '\| 2 windows \|'
want_rows 'train.py:1(early_hot) train.py:1(late_hot) '
echo "ok: zoomed out over the whole job it merges both windows and says whole job"

ui_keys + +                         # back to 5 minutes, then half a span back at a time
for _ in 1 2 3 4 5 6; do ui_keys '['; done
ui_wait 'Top functions \(Esc: back\) - 22:1[0-9]:[0-9]{2}-22:18:[0-9]{2}'
ui_wait '\| 1 window \|'
want_rows 'train.py:1(early_hot) '
echo "ok: scrubbed back to the start it merges only the early window (early_hot)"
ui_quit
