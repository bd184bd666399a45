#!/bin/bash
# The progress line of a long read (issue 35 point 4), with the real binary
# in tmux over the loopback S3 rig answering every request 500 ms late (a
# read of some seconds, on any machine):
#  - `report --json` with stderr a terminal shows "reading N/M files, a/b
#    GB, rate, time left" while it reads, wipes it at the end, and its JSON
#    is the same as a quick read's;
#  - with stderr a file, stderr stays empty;
#  - the dashboard's first frame is up while the read runs, its status
#    line shows the same words, and they go once the read is done.
source "$(dirname "$0")/ui_lib.sh"
. "$SMTOP_SRC/tests/s3/rig.sh"
rig_require
trap 'rig_stop; ui_cleanup' EXIT

rig_start "$UI_WORK/rig" || exit 1
rig_env
export XDG_CACHE_HOME="$UI_WORK/cache"
rig_s3env
ui_synth "$UI_WORK/job" --kineto --nodes 2 --ranks 2 --minutes 3 --kineto-every 100 --kineto-active 3
rig_upload bkt job "$UI_WORK/job" >/dev/null || exit 1
URL=s3://bkt/job
LINE='reading [0-9]+/[0-9]+ files, [0-9.]+/[0-9.]+ [kMGT]?B(, [0-9.]+ [kMGT]?B/s, [0-9.]+ [a-z]+( [0-9]+ [a-z]+)? left)?'

"${S3ENV[@]}" "$SMTOP" report --json --no-cache --endpoint-url "$RIG_ENDPOINT" "$URL" \
    >"$UI_WORK/quick.json" 2>/dev/null || { echo "FAIL: quick report"; exit 1; }
slow() { rig_reset; rig_fault '{"kind":"delay","count":1000000,"ms":500}'; }

# --- report, stderr a terminal
slow
ui_start 160 12 "${S3ENV[@]}" sh -c '"$0" report --json --no-cache --endpoint-url "$1" "$2" >"$3"' \
    "$SMTOP" "$RIG_ENDPOINT" "$URL" "$UI_WORK/slow.json"
ui_wait "$LINE" 60
echo "ok: report's stderr: $(ui_screen | grep -Eo "$LINE" | head -1)"
[ "$(ui_exit_status 180)" = 0 ] || ui_fail "the slow report failed"
! ui_screen | grep -Eq 'reading [0-9]+/' || ui_fail "the progress line was left on the terminal"
cmp -s "$UI_WORK/quick.json" "$UI_WORK/slow.json" ||
    ui_fail "the report's JSON differs when the progress line was shown"
echo "ok: the line wiped at the end, the JSON the same bytes"

# --- report, stderr not a terminal: nothing
slow
"${S3ENV[@]}" "$SMTOP" report --json --no-cache --endpoint-url "$RIG_ENDPOINT" "$URL" \
    >"$UI_WORK/piped.json" 2>"$UI_WORK/piped.err" || { echo "FAIL: piped report"; exit 1; }
[ "$(rig_stat faults_fired)" -gt 4 ] || { echo "FAIL: the read was not slowed"; exit 1; }
[ ! -s "$UI_WORK/piped.err" ] || { echo "FAIL: stderr not a terminal got:"; cat "$UI_WORK/piped.err"; exit 1; }
cmp -s "$UI_WORK/quick.json" "$UI_WORK/piped.json" || { echo "FAIL: piped JSON differs"; exit 1; }
echo "ok: stderr to a file stays empty"

# --- the dashboard: first frame while the read runs, the line in the status
slow
ui_start 200 50 "${S3ENV[@]}" "$SMTOP" --no-cache --endpoint-url "$RIG_ENDPOINT" "$URL"
ui_wait 'smtop \| ' 5
ui_wait "$LINE" 60
ui_screen | grep -q 'help  q quit' || ui_fail "no status line with the progress"
echo "ok: dashboard: $(ui_screen | grep -Eo "$LINE" | head -1)"
rig_reset   # full speed again: the read ends
ui_wait_gone 'reading [0-9]+/' 60
ui_wait '2 nodes' 30
echo "ok: the line goes once the read is done"
ui_quit
