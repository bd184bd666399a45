#!/bin/bash
# A node id holding an escape sequence ("\u001b[31mEVIL") reaches the
# screen sanitized: the text shows, the sequence does not act.
source "$(dirname "$0")/ui_lib.sh"

JOB="$UI_WORK/job"
dir="$JOB/system/incremental/2023111422"
mkdir -p "$dir"
now=$(date +%s)
ts=$((now / 60 * 60))
for i in 0 1 2 3 4 5; do
    printf '{"Type":"cpu","Name":"cpu0","Dimension":"CPUUtilization","Value":%d.5,"NodeId":"\\u001b[31mEVIL\\u001b]0;pwned\\u0007","Timestamp":%d.25}\n' \
        $((40 + i)) $((ts + i))
done >"$dir/$ts.algo-1.json"

ui_start 160 48 env NO_COLOR=1 "$SMTOP" "$JOB"
ui_wait '1 node'
ui_wait 'EVIL'
ui_screen | grep -q $'\e' && ui_fail "raw ESC on screen"
ui_screen_esc | grep -q $'\e\\[31m' && ui_fail "the node id turned the text red"
ui_screen | grep -q 'pwned' && ui_fail "OSC payload shown"
ui_screen | grep -q '?EVIL' || ui_fail "escape sequence not replaced by '?'"
ui_quit
echo "ok: node id sanitized"
