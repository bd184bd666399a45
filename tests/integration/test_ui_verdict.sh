#!/bin/bash
# The header's second row is the job's verdict (issue 26): the worst
# findings in words with numbers, the same ones `report --summary` and
# `report --json` (.verdict) give, in the colour of the worst; at 80
# columns whole findings give way to "+N more"; a node filter changes the
# view, never the verdict.
source "$(dirname "$0")/ui_lib.sh"

"$SMTOP" synth --out "$UI_WORK/job" --nodes 4 --gpus 2 --minutes 2 --interval-ms 1000 \
    --slow-node 2 --seed 7 --start 1700000000 >/dev/null || ui_fail "synth"
want=$("$SMTOP" report --summary "$UI_WORK/job" | sed -n 's/^verdict: *//p')
[ -n "$want" ] || ui_fail "report --summary has no verdict line"
[[ "$want" == *"straggler algo-3 +"*" %"* ]] || ui_fail "report verdict lacks the straggler: $want"
"$SMTOP" report --json "$UI_WORK/job" >"$UI_WORK/r.json" || ui_fail "report --json"
grep -q '"verdict": {' "$UI_WORK/r.json" || ui_fail "report --json has no verdict"

# The same line on the screen, " · " where the report says "; ".
ui_start 200 60 "$SMTOP" "$UI_WORK/job"
ui_wait 'straggler algo-3' 20
# (the row ends with the pane bar: every pane's digit). The nodes' files
# arrive over the first read, the verdict's figures with them: the row is
# polled until it reads as the finished report does.
row_is_report() {
    row=$(ui_screen | sed -n 2p | sed -E 's/^ *//; s/( +[1-9])+ *$//')
    [ "$row" = "${want//; / · }" ]
}
ui_poll -every 0.3 30 row_is_report || ui_fail "header verdict '$row' is not the report's '$want'"
# Coloured as its worst finding, not as plain header text.
ui_screen_esc | sed -n 2p | grep -q $'\e\\[' || ui_fail "verdict row has no colour"
# A filter hides algo-3 from the panes; the verdict stays.
ui_keys / a l g o - 1 Enter
ui_wait '1/4 nodes match' 10
ui_screen | sed -n 2p | grep -q 'straggler algo-3' || ui_fail "the filter changed the verdict"
ui_quit

ui_start 80 24 "$SMTOP" "$UI_WORK/job"
ui_wait 'straggler algo-3' 20
ui_loaded 60
first=${want%%; *}
row_has_first() { row=$(ui_screen | sed -n 2p); [[ "$row" == *"$first"* ]]; }
ui_poll -every 0.3 30 row_has_first
[ "$(printf '%s' "$row" | wc -m)" -le 80 ] || ui_fail "verdict row wider than 80"
[[ "$row" == *"$first"* ]] || ui_fail "80 columns lost the worst finding '$first': $row"
ui_quit
echo "ok: header verdict = report's ($want); kept under a filter; fits 80 columns"
