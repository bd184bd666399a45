#!/bin/bash
# Fit to the job (issue 26): an ended job opens on the whole job, not on
# the last 5 minutes; `+` zooms, `0` returns to live at the home span (the
# whole job here), `[` scrubs back inside the job, `a` fits the window to the data from anywhere; the
# System pane's value column says "now" only while it shows a live job's
# newest data, else "last HH:MM:SS".
source "$(dirname "$0")/ui_lib.sh"
export TZ=UTC0

ui_synth "$UI_WORK/job" --nodes 2 --minutes 2 --interval-ms 1000 --start 1700000000
ui_start 200 60 env TZ=UTC0 "$SMTOP" "$UI_WORK/job"
ui_wait 'ENDED' 20
ui_wait '2023-11-14 22:13:20-22:15:19 UTC \(1 m 59 s\)' 10
ui_screen | grep -q 'last 22:15:19' || ui_fail "no 'last HH:MM:SS' on an ended job"
ui_screen | grep -Eq ' now│' && ui_fail "'now' on an ended job"
ui_keys +
ui_wait '\(59.6 s\)' 10
ui_keys 0
ui_wait '22:13:20-22:15:19 UTC \(1 m 59 s\)' 10
# [ keeps the window inside the job: from the whole job it has nowhere to
# go, so zoom first; half the 59.6 s span back ends near 22:14:49.
ui_keys +
ui_wait '\(59.6 s\)' 10
ui_keys [
ui_wait 'HISTORY' 10
ui_wait 'last 22:14:4[89]' 10
ui_keys a
ui_wait '22:13:20-22:15:19 UTC \(1 m 59 s\)' 10
ui_quit

# A live job: 0 resets the zoom to 5 minutes and the column says "now".
"$SMTOP" synth --out "$UI_WORK/live" --nodes 1 --minutes 1 --live --seed 3 >/dev/null 2>&1 &
writer=$!
trap 'kill $writer 2>/dev/null; ui_cleanup' EXIT
ui_start 200 60 "$SMTOP" --interval 1 "$UI_WORK/live"
ui_wait ' LIVE *$' 20
ui_wait '\(5 m 00 s\)' 10
ui_wait ' now│' 10
# Two zooms from 5 minutes, held to the job's extent (under a minute).
ui_keys + +
ui_wait '\([0-9.]+ s\)' 10
ui_keys [
ui_wait 'last [0-9]{2}:[0-9]{2}:[0-9]{2}' 10
ui_keys 0
ui_wait '\(5 m 00 s\)' 10
ui_wait ' now│' 10
kill $writer
ui_quit
echo "ok: an ended job opens on the whole job; + / 0 / [ / a; now vs last HH:MM:SS"
