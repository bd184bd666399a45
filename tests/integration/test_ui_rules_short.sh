#!/bin/bash
# A rule on an ended job too short for it says so with numbers (issue 26):
# "job too short: 120 samples < patience 1000", never "waiting"; the
# report gives the same message.
source "$(dirname "$0")/ui_lib.sh"

"$SMTOP" synth --out "$UI_WORK/job" --nodes 2 --minutes 1 --interval-ms 500 \
    --start 1700000000 --seed 2 >/dev/null || ui_fail "synth"
"$SMTOP" report "$UI_WORK/job" >"$UI_WORK/r.txt" || ui_fail "report"
grep -Eq 'CPUBottleneck +no_data .*job too short: 120 samples < patience 1000$' "$UI_WORK/r.txt" ||
    ui_fail "report: $(grep CPUBottleneck "$UI_WORK/r.txt")"
! grep -q 'waiting' "$UI_WORK/r.txt" || ui_fail "report says waiting: $(grep waiting "$UI_WORK/r.txt")"

ui_start 200 60 "$SMTOP" "$UI_WORK/job"
ui_wait 'ENDED' 20
ui_wait 'CPUBottleneck +0/0 +job too short: 120' 20
! ui_screen | grep -q 'waiting' || ui_fail "an ended job shows waiting"
ui_quit
echo "ok: short ended job: rules say 'job too short' with numbers, in the report and the Alerts pane"
