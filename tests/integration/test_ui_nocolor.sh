#!/bin/bash
# NO_COLOR and --no-color produce no color escapes (capture-pane -e shows
# no SGR 30-37/40-47/90-97/38;5/38;2); without them colors are used, so
# the check can fail.
source "$(dirname "$0")/ui_lib.sh"

JOB="$UI_WORK/job"
ui_synth "$JOB" --nodes 2 --gpus 1 --minutes 2 --no-traces
COLOR_SGR=$'\e\\[([0-9;]*;)?(3[0-7]|4[0-7]|9[0-7]|10[0-7]|38;5;[0-9]+|38;2;[0-9;]+|48;5;[0-9]+|48;2;[0-9;]+)[;m]'

ui_start 160 48 env TERM=tmux-256color "$SMTOP" "$JOB"
ui_wait '2 nodes'
ui_screen_esc | grep -Eq "$COLOR_SGR" || ui_fail "no color escapes even with colors on"
ui_quit

ui_start 160 48 env NO_COLOR=1 TERM=tmux-256color "$SMTOP" "$JOB"
ui_wait '2 nodes'
ui_keys t                         # a theme switch must not bring colors back
ui_wait 'theme light'
if ui_screen_esc | grep -Eq "$COLOR_SGR"; then
    ui_screen_esc | grep -Eo "$COLOR_SGR" | sort | uniq -c | head
    ui_fail "NO_COLOR: color escapes on screen"
fi
ui_quit

ui_start 160 48 env TERM=tmux-256color "$SMTOP" --no-color "$JOB"
ui_wait '2 nodes'
! ui_screen_esc | grep -Eq "$COLOR_SGR" || ui_fail "--no-color: color escapes on screen"
ui_quit
echo "ok: no color"
