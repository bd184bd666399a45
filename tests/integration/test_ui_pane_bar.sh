#!/bin/bash
# Panes chosen by data (issue 26): a framework-only job opens on its Steps
# pane (System and Heatmap, which would be empty, give way); a system-only
# job on its System pane without Steps; the header's pane bar shows every
# pane's digit, bright when on screen, dim when hidden or without data.
source "$(dirname "$0")/ui_lib.sh"

# The SGR sequence right before digit $1 in the pane bar (row 2).
digit_sgr() { ui_screen_esc | sed -n 2p | grep -o $'\e\\[[0-9;]*m'"$1"$'\e' | head -1 | tr -d '\033'; }

ui_synth "$UI_WORK/sys" --nodes 2 --gpus 1 --minutes 2 --no-traces --start 1700000000
ui_start 80 24 "$SMTOP" "$UI_WORK/sys"
ui_wait '2 nodes' 20
ui_wait ' 1 2 3 4 5 6 *$' 10
ui_screen | sed -n 3p | grep -q '\[1 System' || ui_fail "system-only job does not open on System"
ui_screen | grep -q '3 Steps' && ui_fail "Steps shown on a job without traces"
on=$(digit_sgr 1) off=$(digit_sgr 3)
[ -n "$on" ] && [ -n "$off" ] && [ "$on" != "$off" ] || ui_fail "pane bar: shown '$on' and absent '$off' look alike"
ui_keys 3
ui_wait '3 Steps' 10
[ "$(digit_sgr 3)" != "$off" ] || ui_fail "digit 3 still dim once Steps is shown"
ui_quit

MT="${SMTOP_SAMPLES:-}/merge_traces"
[ -d "$MT" ] || { echo "ok: system-only job; SKIPPED the framework-only part: ../shared/samples not found"; exit 0; }
ui_start 80 24 "$SMTOP" "$MT"
ui_wait '1 node' 20
ui_wait '\[3 Steps' 10
ui_screen | sed -n 3p | grep -q '\[3 Steps' || ui_fail "framework-only job does not open on Steps"
ui_screen | grep -Eq '1 System|2 Heatmap|no system metrics' && ui_fail "empty System/Heatmap shown"
ui_quit
echo "ok: panes chosen by data (system-only: System; framework-only: Steps), pane bar dims absent panes"
