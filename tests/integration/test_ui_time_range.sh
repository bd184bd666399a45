#!/bin/bash
# One time range (issue 14): the Timeline scrolls back through every
# retained step (not only the newest screenful), Home reaches the oldest,
# a click selects a bar, scrubbing `[` ends its bars at the selected
# window, and a step focused far back in the Steps pane (`,` then `f`) is
# the Timeline's selected bar, shown with that step's own window on its
# node (a few hundred ms, not the union over unsynchronised nodes).
source "$(dirname "$0")/ui_lib.sh"

JOB="$UI_WORK/job"
ui_synth "$JOB" --nodes 2 --gpus 1 --minutes 4 --start 1700000000

range() { ui_screen | grep -oE '[0-9]+-[0-9]+/[0-9]+\)? TRAIN' | head -1 | sed -E 's/\)? TRAIN//'; }
selected() { ui_screen | grep -oE '^│> +[0-9]+ ' | awk '{ print $2 }' | head -1; }

ui_start 120 40 env TZ=UTC "$SMTOP" "$JOB"
ui_wait '5 Timeline'
ui_loaded 60                     # the total counts every step only then
ui_focus Timeline
ui_keys Enter
ui_wait 'Timeline \(Esc: back\)'
ui_wait '[0-9]+-[0-9]+/[0-9]+\)? TRAIN'
r=$(range); total=${r#*/}; first=${r%%-*}
((total > 1000)) || ui_fail "only $total steps reachable (want every retained one)"
((first > 1)) || ui_fail "live view does not start at the newest steps: $r"
# Home: the oldest retained step; PgDn pages forward; End: the newest again.
ui_keys Home
ui_wait "[ (]1-[0-9]+/$total\\)? TRAIN"
ui_wait '^│> +[0-9]+ '
old=$(selected)
ui_keys NPage NPage
ui_wait_gone "[ (]1-[0-9]+/$total\\)? TRAIN"
ui_keys End
ui_wait "[0-9]+-$total/$total\\)? TRAIN"
echo "ok: scrolls from the newest to the oldest of $total steps (oldest shown: step $old)"

# A click selects the bar under the pointer (X10 mouse, column 5).
line=$(ui_screen | grep -n -E '^│  +[0-9]+ ' | sed -n 3p)
[ -n "$line" ] || ui_fail "no unselected bar to click"
crow=${line%%:*}
want=$(sed -E 's/^[0-9]+:│ +([0-9]+) .*/\1/' <<<"$line")
printf -v cy '%b' "\\$(printf '%03o' $((crow - 1 + 33)))"
ui_keys -l $'\e[M %'"$cy" $'\e[M#%'"$cy"
ui_wait "^│> +$want "
echo "ok: a click selects step $want"

# [ scrubs back half a span: the bars end at the window's last step.
ui_keys End Escape
ui_wait_gone 'Timeline \(Esc: back\)'
ui_keys '['
ui_wait 'HISTORY'
end=$((SECONDS + 20)) last=$total
while ((SECONDS < end)); do
    r=$(range); last=${r#*-}; last=${last%%/*}
    [ -n "$last" ] && ((last < total - 100)) && break
    sleep 0.2
done
((last < total - 100)) || ui_fail "after [ the timeline still ends at step $last of $total"
echo "ok: [ ends the timeline at the window ($r)"
ui_keys ']' ']'

# A click on the Steps pane's strip (zoomed: its last rows) puts the step
# cursor on the step under the pointer: an old one, at column 3.
ui_focus Steps
ui_keys Enter
ui_wait 'Steps \(Esc: back\)'
srow=$(($(ui_screen | grep -n '^└' | tail -1 | cut -d: -f1) - 1))
printf -v cy '%b' "\\$(printf '%03o' $((srow - 1 + 33)))"
ui_keys -l $'\e[M $'"$cy" $'\e[M#$'"$cy"
ui_wait 'step [0-9]+ \(f: focus\)'
clicked=$(ui_screen | grep -oE 'step [0-9]+ \(f: focus\)' | head -1 | awk '{ print $2 }')
((clicked < total - 20)) || ui_fail "a click on the strip's third column picked step $clicked of $total"
ui_keys Escape
ui_wait_gone 'Steps \(Esc: back\)'
echo "ok: a click on the strip picks step $clicked"

# A step far back, focused in the Steps pane, is the Timeline's selection.
ui_wait '(, ?/ ?\. o f|,/\. step)'
for _ in $(seq 1 60); do ui_keys ,; done
ui_wait 'step [0-9]+ \(f: focus\)'
ui_keys f
ui_wait 'STEP [0-9]+ \S*algo-[0-9]+  [0-9:.]+-[0-9:.]+ \([0-9.]+ ms\)  Esc: back'
N=$(ui_screen | sed -n 1p | sed -n 's/.*STEP \([0-9][0-9]*\) .*/\1/p')
ui_wait "^│> +$N "
ui_quit
echo "ok: the focused step $N is the Timeline's selected bar, with its own ms window"

# At 80x24 the Timeline's header keeps its range, mode and node: the tabs
# give way to the shown view's name (the range was cut before).
ui_start 80 24 env TZ=UTC "$SMTOP" "$JOB"
ui_wait '5 Timeline'
ui_wait "│steps  (step [0-9]+-[0-9]+|[0-9]+-$total/$total) TRAIN algo-1"
ui_screen | grep -q 'steps|loader|events  [0-9]*-' && ui_fail "narrow header still shows every tab"
ui_quit
echo "ok: at 80x24 the Timeline header keeps its range (N-$total/$total TRAIN algo-1)"
