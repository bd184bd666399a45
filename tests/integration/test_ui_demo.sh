#!/bin/bash
# `smtop --demo` shows a live 4-node job and removes its directory on exit;
# `--demo --frames 50` runs the real UI headless and exits 0 (under the
# sanitizer build this is the ASan run of the dashboard).
source "$(dirname "$0")/ui_lib.sh"

export TMPDIR="$UI_WORK/tmp"
mkdir -p "$TMPDIR"

timeout 60 "$SMTOP" --demo --frames 50 </dev/null >/dev/null 2>"$UI_WORK/err" ||
    { cat "$UI_WORK/err"; echo "FAIL: --demo --frames 50 exited $?"; exit 1; }
[ -z "$(ls -A "$TMPDIR")" ] || { echo "FAIL: demo dir left: $(ls "$TMPDIR")"; exit 1; }
echo "ok: headless frames"

ui_start 200 60 env TMPDIR="$TMPDIR" "$SMTOP" --demo
ui_wait '4 nodes' 30
for n in algo-1 algo-2 algo-3 algo-4; do ui_wait "$n"; done
ui_wait 'LIVE'
ls "$TMPDIR" | grep -q '^smtop-demo-' || ui_fail "no demo directory while running"
ui_quit
[ -z "$(ls -A "$TMPDIR")" ] || { echo "FAIL: demo dir left: $(ls "$TMPDIR")"; exit 1; }
echo "ok: demo"
