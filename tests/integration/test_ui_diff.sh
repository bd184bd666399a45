#!/bin/bash
# Diff mode in the dashboard (issue 7): `smtop --baseline BASE SRC` adds a
# Diff pane (and only then) comparing SRC with the baseline read once. A
# job against a copy whose Step durations were scaled by 1.5 shows the
# +50 % TRAIN slowdown, marked as `smtop diff` marks it; a job against
# itself shows no change; a bad BASE fails before the screen (exit 1).
source "$(dirname "$0")/ui_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
: "${SMTOP_SRC:?}"
export XDG_CONFIG_HOME="$UI_WORK/config"
ui_synth "$UI_WORK/base" --nodes 2 --gpus 1 --cpus 2 --minutes 2
cp -r "$UI_WORK/base" "$UI_WORK/slow"
python3 "$SMTOP_SRC/tests/integration/make_slow_copy.py" "$UI_WORK/slow" ||
    { echo "FAIL: make_slow_copy.py"; exit 1; }

err=$("$SMTOP" --baseline "$UI_WORK/nope" "$UI_WORK/slow" 2>&1 </dev/null); rc=$?
[ "$rc" = 1 ] || { echo "FAIL: missing baseline exited $rc, want 1"; exit 1; }
grep -q "baseline $UI_WORK/nope" <<<"$err" || { echo "FAIL: message: $err"; exit 1; }
err=$("$SMTOP" "$UI_WORK/slow" --baseline 2>&1 </dev/null); rc=$?
[ "$rc" = 2 ] || { echo "FAIL: --baseline without BASE exited $rc, want 2"; exit 1; }

# without --baseline there is no Diff pane
ui_start 200 60 "$SMTOP" "$UI_WORK/slow"
ui_wait ' [0-9] Alerts '
ui_screen | grep -q ' [0-9] Diff ' && ui_fail "Diff pane shown without --baseline"
ui_quit

# the slowed job against the baseline: focus the Diff pane (the last), zoom
ui_start 200 60 "$SMTOP" --baseline "$UI_WORK/base" "$UI_WORK/slow"
ui_wait ' [0-9] Diff '
ui_keys BTab Enter
ui_wait 'Diff \(Esc: back\)'
ui_wait 'changed, [0-9]+ under the noise floor, vs baseline'
ui_wait 'algo-1 TRAIN p50 .*ms → .*ms +\+(49\.[5-9]|50\.[0-4]) % ▲'
ui_wait 'algo-2 TRAIN p95 .*\+(49\.[5-9]|50\.[0-4]) % ▲'
ui_wait 'algo-1 Forward p50 .*ms +=( |$)'
ui_wait 'Per TRAIN step by category'
ui_wait 'algo-1 other .*% ▲'
ui_wait 'Mean utilization'
ui_screen | grep -q 'algo-1 TRAIN mean' && ui_fail "mean row shown (pane shows percentiles)"
ui_quit

# 80x24: the unzoomed Diff pane keeps the current value and the mark (the
# baseline value too when it gets a full-width row: this job has no Python
# stats, so that pane gave its space away)
ui_start 80 24 "$SMTOP" --baseline "$UI_WORK/base" "$UI_WORK/slow"
ui_wait ' 7 Diff |[0-9] Diff '
ui_wait 'algo-1 TRAIN p50 +([0-9.]+ ms → )?[0-9.]+ ms +\+(49\.[5-9]|50\.[0-4]) % ▲'
ui_quit

# the same job against itself: nothing changed
ui_start 200 60 "$SMTOP" --baseline "$UI_WORK/base" "$UI_WORK/base"
ui_wait '[^0-9]0 changed, [0-9]+ under the noise floor, vs baseline'
ui_wait 'algo-1 TRAIN p50 .*ms +=( |$)'
ui_quit

# ASCII: --symbols ascii gives the text diff's ASCII marks
ui_start 200 60 "$SMTOP" --symbols ascii --baseline "$UI_WORK/base" "$UI_WORK/slow"
ui_wait 'algo-1 TRAIN p50 .*ms -> .*ms +\+(49\.[5-9]|50\.[0-4]) % \+'
ui_quit
echo "ok: diff mode"
