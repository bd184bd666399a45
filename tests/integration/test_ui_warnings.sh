#!/bin/bash
# The warnings view (issue 26): corrupt lines are named by file and line
# number ("…/x.json: lines 5, 9: 2 corrupt lines skipped"), in `report`
# and in a view `W` opens over the panes, one line per problem, scrolled
# sideways with l; the status line keeps the count; q closes the view.
source "$(dirname "$0")/ui_lib.sh"

ui_synth "$UI_WORK/job" --nodes 2 --gpus 1 --minutes 2 --start 1700000000
f=$(find "$UI_WORK/job/system" -name '*.json' | sort | head -1)
sed -i '5s/.*/{garbage here/; 9s/.*/not json/' "$f"
rel=${f#"$UI_WORK/job/"}
"$SMTOP" report "$UI_WORK/job" >"$UI_WORK/r.txt" || ui_fail "report"
grep -qF "  $rel: lines 5, 9: 2 corrupt lines skipped (first: \"{garbage here\")" "$UI_WORK/r.txt" ||
    ui_fail "report: $(grep corrupt "$UI_WORK/r.txt")"

ui_start 80 24 "$SMTOP" "$UI_WORK/job"
ui_wait '1 warning \(W\)' 20
ui_keys W
ui_wait 'warnings: 1 noted, 2 corrupt lines' 5
ui_wait "^│ ${rel:0:60}" 5
ui_screen | grep -qF "json: lines 5, 9: 2 corrupt" || ui_fail "no file: line in the view"
ui_keys l l
ui_wait '^│ [^ ].*json: lines 5, 9' 5    # 40 columns further along the line
ui_screen | grep -q "^│ ${rel:0:20}" && ui_fail "l did not scroll sideways"
ui_screen | tail -1 | grep -q '1 warning (W)' || ui_fail "status line lost the count"
ui_keys q
ui_wait_gone 'warnings: 1 noted' 5
ui_screen | grep -q 'SMTOP_EXIT' && ui_fail "q in the warnings view quit smtop"
ui_quit
echo "ok: corrupt lines by file and line number, in report and the W view; count on the status line"
