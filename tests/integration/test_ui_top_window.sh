#!/bin/bash
# Top's traces tables follow the time window (issue 32 point 5): zoomed
# in, the Top pane's Kineto ops are those of the steps that start in the
# window, its border names the same range as the Steps pane's, and its
# first row counts fewer calls than over the whole job; `a` (fit the job)
# brings back "whole job" and the whole job's count.
source "$(dirname "$0")/ui_lib.sh"
"$SMTOP" synth --out "$UI_WORK/g" --shape gloo --minutes 2 --seed 4 --start 1700000000 \
    >/dev/null || ui_fail "synth"
ui_start 200 50 "$SMTOP" "$UI_WORK/g"
ui_wait "$UI_FOLLOW" 30
# the first row's count ("│  1       23    269 ms ..." of the Top pane),
# once it holds still: the traces arrive one file a tick
first_count() { ui_steady '││  1 +[0-9]+ ' 30 | awk '{print $3}'; }
ui_wait 'Top functions - Kineto ops, whole job' 20
n_whole=$(first_count)
[ -n "$n_whole" ] || ui_fail "no first row in Top"
ui_keys + +
ui_wait 'Top functions - Kineto ops, [0-9:]+-[0-9:]+' 15
range=$(ui_steady 'Top functions - Kineto ops, [0-9:]+-[0-9:]+' 15) || exit 1
range=${range##*, }
ui_screen | grep -q "Steps - $range" || ui_fail "Top shows $range, the Steps pane another range"
n_zoom=$(first_count)
[ -n "$n_zoom" ] && ((n_zoom < n_whole)) ||
    ui_fail "zoomed to $range, Top's first row counts ${n_zoom:-nothing}, the whole job $n_whole"
echo "ok: whole job $n_whole calls; $range $n_zoom"
ui_keys a
ui_wait 'Top functions - Kineto ops, whole job' 15
[ "$(first_count)" = "$n_whole" ] || ui_fail "back to the whole job, Top counts $(first_count), not $n_whole"
ui_quit
echo "ok: a brings back the whole job ($n_whole)"
