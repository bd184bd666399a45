#!/bin/bash
# Keys: help overlay, pause/resume, scrub and back to live, time zoom,
# pane focus and zoom, the node filter, and quitting (q, and SIGTERM)
# with the terminal restored.
source "$(dirname "$0")/ui_lib.sh"

JOB="$UI_WORK/job"
ui_synth "$JOB" --nodes 3 --gpus 1 --minutes 3 --no-traces
ui_start 200 60 "$SMTOP" "$JOB"
ui_wait '3 nodes'
ui_wait "$UI_FOLLOW"

ui_keys '?'
ui_wait 'smtop keys'
for k in 'quit' 'pause / resume' 'filter nodes' 'zoom time range' \
         'scrub back' 'live, zoom reset' 'fit window to the job' 'theme / graph symbols' \
         'next / previous phase' 'callers, callees' 'jump / focus the step'; do
    ui_wait "$k" 2
done
ui_keys x   # only ? q Esc close it (issue 33)
sleep 0.3
ui_screen | grep -q 'smtop keys' || ui_fail "x closed the help"
ui_keys Escape
ui_wait_gone 'smtop keys'

ui_keys Space
ui_wait 'PAUSED'
ui_keys Space
ui_wait "$UI_FOLLOW"

ui_keys '['
ui_wait 'HISTORY'
ui_keys '0'
ui_wait "$UI_FOLLOW"
ui_keys '[' ']' ']'
ui_wait "$UI_FOLLOW"

# the scrub keys left the window inside the 3-minute job (issue 33): no
# wider than its data; + halves it, - doubles it back to the job, no more
JOBSPAN='\((2 m 5[0-9]|3 m 0[0-9]) s\)'
ui_wait "$JOBSPAN"
ui_keys '+'
ui_wait '\(1 m [23][0-9] s\)'
ui_keys '-' '-'
ui_wait "$JOBSPAN"
ui_screen | grep -q '(6 m\|(5 m 00 s)' && ui_fail "- widened the window past the job"

ui_keys Enter
ui_wait 'Esc: back'
ui_wait_gone 'Heatmap'
ui_keys Escape
ui_wait 'Heatmap'
ui_keys Tab Enter
ui_wait '2 Heatmap \(Esc: back\)'
ui_keys Escape
ui_wait_gone 'Esc: back'

ui_keys / a l g o - 2
ui_wait 'filter nodes: /algo-2'
ui_keys Enter
ui_wait '1/3 nodes match /algo-2'
ui_keys / BSpace BSpace BSpace BSpace BSpace BSpace Enter
ui_wait '3 nodes \|'

ui_keys t
ui_wait 'theme light'
ui_keys g
ui_wait 'graph symbols: block'

ui_quit
echo "ok: keys"

# SIGTERM also restores the terminal and exits cleanly.
ui_start 120 40 "$SMTOP" "$JOB"
ui_wait '3 nodes'
pid=$(tm list-panes -F '#{pane_pid}')
spid=$(pgrep -P "$pid" -f smtop | head -1)
[ -n "$spid" ] || ui_fail "cannot find the smtop process"
kill -TERM "$spid"
ui_wait 'SMTOP_EXIT=0' 10
! ui_screen | grep -q 'help  q quit' || ui_fail "dashboard left after SIGTERM"
echo "ok: SIGTERM"

# Ctrl-C (SIGINT from the terminal) likewise.
ui_start 120 40 "$SMTOP" "$JOB"
ui_wait '3 nodes'
ui_keys C-c
ui_wait 'SMTOP_EXIT=0' 10
! ui_screen | grep -q 'help  q quit' || ui_fail "dashboard left after Ctrl-C"
echo "ok: Ctrl-C"

# Mouse: a click (X10 encoding, as tmux forwards it) focuses the pane under
# the pointer; Enter then zooms that pane. (This job has system metrics
# only: System on top, Heatmap and Alerts side by side below.)
ui_start 80 24 "$SMTOP" "$JOB"
ui_wait '3 nodes'
ui_wait '6 Alerts'
# ESC [ M, button 1 press then release, column 51 (33+50='S'), row 16 (33+15='0')
ui_keys -l $'\e[M S0'
ui_keys -l $'\e[M#S0'
ui_wait '\[6 Alerts - whole job\]'
ui_keys Enter
ui_wait '6 Alerts \(Esc: back\)'
ui_quit
echo "ok: mouse"

# On the minimum 80x24 terminal the help does not fit: its lines flow
# down two columns, each of its own width, and j/k and the page keys
# scroll it through every pane's keys (all generated from the panes' key
# tables); ? closes it.
ui_start 80 24 "$SMTOP" "$JOB"
ui_wait '3 nodes'
ui_keys '?'
ui_wait 'smtop keys'
for k in 'quit' 'repaint the screen' 'click selects, wheel' '1 System' \
         'CPU total / per core' 'j/k PgUp/PgDn scroll'; do
    ui_wait "$k" 2
done
ui_keys PageDown
ui_wait '3 Steps' 3 && ui_wait 'next / previous phase' 3 && ui_wait 'focus step in all panes' 3
ui_keys PageDown
ui_wait '5 Timeline' 3 && ui_wait '6 Alerts' 3 && ui_wait 'jump / focus the step' 3
ui_keys PageUp PageUp
ui_wait 'lines 1-' 3
ui_keys '?'
ui_wait_gone 'smtop keys'
ui_quit
echo "ok: help at 80x24"
