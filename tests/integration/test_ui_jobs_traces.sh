#!/bin/bash
# `smtop jobs DIR` in tmux over jobs of PyTorch profiler traces only
# (traces_jobs.sh), at 80x24 and 160x40: a job tracing every 15 minutes
# shows Training, not Stale; one cycle seen shows "trace 7 m ago";
# the end marker Completed; `f` keeps the stalled job alone; q quits, 0.
source "$(dirname "$0")/ui_lib.sh"
. "$SMTOP_SRC/tests/integration/traces_jobs.sh"
traces_jobs "$UI_WORK/jobs" || exit 1
for size in "80 24" "160 40"; do
  ui_start $size "$SMTOP" jobs "$UI_WORK/jobs"
  ui_wait '7 jobs'
  ui_wait '^cadence +Training '
  ui_wait '^copied +Training '
  ui_wait '^once +trace 7 m ago '
  ui_wait '^stalled +Stale '
  ui_wait '^ended +Completed '
  ui_wait '^old +trace 3 h ago '
  ui_screen | grep -E '^(cadence|copied|once|ended) ' | grep -q Stale && ui_fail "a false Stale ($size)"
  ui_keys f
  ui_wait '\(1 shown\)'
  ui_wait '^stalled +Stale '
  ui_quit
  echo "ok: $size: Training, trace 7 m ago, Stale, Completed; f: stalled"
done
