#!/bin/bash
# The warnings view (issue 26): corrupt lines are named by file and line
# number ("…/x.json: lines 5, 9: 2 corrupt lines skipped"), in `report`
# and in a view `W` opens over the panes, one line per problem, scrolled
# sideways with l; the status line keeps the count; q closes the view.
# The view lists what the status line counts (issue 33): a trace cut
# short in the job, which ended long ago, is a file not read, named in
# the view as in `report`, truncated (not "still being written?"), and
# the report's header and verdict say that one trace was not read.
source "$(dirname "$0")/ui_lib.sh"

ui_synth "$UI_WORK/job" --nodes 2 --gpus 1 --minutes 2 --start 1700000000
f=$(find "$UI_WORK/job/system" -name '*.json' | sort | head -1)
sed -i '5s/.*/{garbage here/; 9s/.*/not json/' "$f"
rel=${f#"$UI_WORK/job/"}
"$SMTOP" synth --out "$UI_WORK/kin" --kineto-only --minutes 1 --start 1700000000 >/dev/null ||
    ui_fail "synth traces"
t=$(find "$UI_WORK/kin" -name '*.pt.trace.json.gz' | sort | head -1)
cut=tensorboard/${t##*/}
mkdir -p "$UI_WORK/job/tensorboard"
head -c $(($(stat -c %s "$t") / 2)) "$t" >"$UI_WORK/job/$cut"
"$SMTOP" report "$UI_WORK/job" >"$UI_WORK/r.txt" || ui_fail "report"
grep -qF "  $rel: lines 5, 9: 2 corrupt lines skipped (first: \"{garbage here\")" "$UI_WORK/r.txt" ||
    ui_fail "report: $(grep corrupt "$UI_WORK/r.txt")"
grep -qE "^  $cut: not read: gzip stream ends early .*: truncated" "$UI_WORK/r.txt" ||
    ui_fail "report: the cut trace: $(grep -F "$cut" "$UI_WORK/r.txt")"
grep -q 'still being written' "$UI_WORK/r.txt" && ui_fail "report: an ended job's file still being written"
grep -q '^traces: *0 read, 1 not read' "$UI_WORK/r.txt" || ui_fail "report header: $(grep '^traces' "$UI_WORK/r.txt")"
grep -q '^verdict:.*1 of 1 traces not read' "$UI_WORK/r.txt" || ui_fail "report verdict: $(grep '^verdict' "$UI_WORK/r.txt")"

ui_start 80 24 "$SMTOP" "$UI_WORK/job"
ui_wait '1 warning \(W\)' 20
ui_loaded 60                     # the cut trace may not be tried yet
ui_screen | tail -1 | grep -q '1 file not read, 1 warning (W)' || ui_fail "status line: the file not read"
ui_keys W
ui_wait 'warnings: 1 noted, 1 file not read \(1 trace\), 2 corrupt lines' 5
ui_wait "^│ ${rel:0:60}" 5
# the two lines the status line counts: the noted problem, the file not read
ui_screen | grep -qF "│ ${cut:0:60}" || ui_fail "the file not read is not in the view"
ui_keys l l l l l l
ui_wait 'truncated' 5
ui_screen | grep -q 'still being written' && ui_fail "the view: an ended job's file still being written"
ui_keys h h h h h h
ui_screen | grep -qF "json: lines 5, 9: 2 corrupt" || ui_fail "no file: line in the view"
ui_keys l l
ui_wait_gone "^│ ${rel:0:20}" 5          # 40 columns further along the line
ui_wait '^│ [^ ].*json: lines 5, 9' 5
ui_screen | tail -1 | grep -q '1 warning (W)' || ui_fail "status line lost the count"
ui_keys q
ui_wait_gone 'warnings: 1 noted' 5
ui_screen | grep -q '1 of 1 traces not read\|1 traces not read\|+[0-9] more' ||
  ui_fail "the verdict line does not say the trace not read (nor +N more)"
ui_screen | grep -q 'SMTOP_EXIT' && ui_fail "q in the warnings view quit smtop"
ui_quit
echo "ok: corrupt lines by file and line number, in report and the W view; count on the status line"
