#!/bin/bash
# Keys the way users expect (issue 14): h/l and the arrows move between
# panes everywhere (the Steps pane's phases are n/N), the status line names
# the focused pane's keys in plain words, Esc clears a kept node filter, the
# filter never cuts a number (/algo-1 is not algo-10), and a click selects
# the node under it in the System and Heatmap panes.
source "$(dirname "$0")/ui_lib.sh"

JOB="$UI_WORK/job"
ui_synth "$JOB" --nodes 12 --gpus 1 --cpus 2 --minutes 2 --start 1700000000

ui_start 200 50 "$SMTOP" "$JOB"
ui_wait '12 nodes'
ui_wait 'j/k node  c per core +\| \? help  q quit'    # System's hints
# A pane with no data yet gives its space away, and Tab skips it: until
# the trace files are read, Tab Tab would land past the Steps pane.
ui_wait '3 Steps'
ui_loaded 60                     # and the phases n/N cycle through are all read
ui_keys Tab Tab                                      # the Steps pane
ui_wait 'n/N phase  ,/\. step'
ui_wait 'TRAIN  \(1/[0-9]+, n/N\)'
ui_keys n
ui_wait_gone 'TRAIN  \(1/[0-9]+, n/N\)'
ui_keys N
ui_wait 'TRAIN  \(1/[0-9]+, n/N\)'
# l and Right leave the Steps pane (for the Timeline: this job has no
# Python stats, so that pane gave its space away); h and Left come back.
ui_keys l
ui_wait '\[5 Timeline\]'
ui_wait 'v view  j/k step'
ui_keys h
ui_wait '\[3 Steps - whole job\]'
ui_wait 'n/N phase'
ui_keys Right
ui_wait 'v view'
ui_keys Left
ui_wait 'n/N phase'
ui_keys BTab BTab
ui_wait 'c per core'
ui_quit

ui_start 120 40 "$SMTOP" "$JOB"
ui_wait '12 nodes'
ui_loaded 60                     # rows read off the screen for the clicks stay put


# The filter is anchored at numbers: /algo-1 keeps algo-1 only, not
# algo-10..12; alternatives with |; Esc clears the kept filter.
ui_keys / a l g o - 1 Enter
ui_wait '1/12 nodes match /algo-1'
ui_keys / BSpace BSpace BSpace BSpace BSpace BSpace a l g o - 1 '|' a l g o - 1 2 Enter
ui_wait '2/12 nodes match /algo-1\|algo-12'
ui_keys Escape
ui_wait 'node filter cleared'
ui_wait '12 nodes \|'

# Clicks: on the System pane's third node header (row 2 + 2 blocks), on
# the heatmap's fourth row. X10 mouse: button 0 + 32, column and row + 33.
ui_wait '^│  algo-2 '
row=$(ui_screen | grep -n '^│  algo-2 ' | head -1 | cut -d: -f1)   # 1-based screen row
printf -v ch '%b' "\\$(printf '%03o' $((row - 1 + 33)))"
ui_keys -l $'\e[M +'"$ch" $'\e[M#+'"$ch"
ui_wait '^│> algo-2 '
ui_wait '│ >algo-2 '
# A heatmap row (its cells are ramp glyphs) that is not selected.
line=$(ui_screen | grep -n -E '^│  algo-[0-9]+ +[▁▂▃▄▅▆▇█]' | head -1)
[ -n "$line" ] || ui_fail "no unselected heatmap row"
hrow=${line%%:*}
node=$(sed -E 's/^[0-9]+:│  (algo-[0-9]+) .*/\1/' <<<"$line")
printf -v cy '%b' "\\$(printf '%03o' $((hrow - 1 + 33)))"
ui_keys -l $'\e[M $'"$cy" $'\e[M#$'"$cy"           # column 3
ui_wait "│ >$node "
ui_quit
echo "ok: pane keys, hints, anchored filter, Esc, clicks"
