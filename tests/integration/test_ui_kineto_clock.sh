#!/bin/bash
# The dashboard names a PyTorch profiler trace from another job, its clock
# five days before the job's system metrics, in the warnings view (`W`),
# with the count on the status line; the job's own ranks still show (issue
# 25, bad input; test_kineto_clock.sh checks report and the rule).
source "$(dirname "$0")/ui_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }

JOB="$UI_WORK/job"
ui_synth "$JOB" --kineto --nodes 1 --ranks 2 --minutes 3
python3 - "$JOB/tensorboard-output" <<'PY' || ui_fail "no far-off copy"
import gzip, os, re, sys
d = sys.argv[1]
s = gzip.open(os.path.join(d, sorted(os.listdir(d))[0]), "rt").read()
m = re.search(r'"baseTimeNanoseconds": (\d+)', s)
base = int(m.group(1)) - 5 * 86400 * 10**9
open(os.path.join(d, "algo-1_777.%d.pt.trace.json" % base), "w").write(
    s.replace(m.group(0), '"baseTimeNanoseconds": %d' % base))
PY

ui_start 200 50 "$SMTOP" --interval 1 "$JOB"
ui_wait '1 warning \(W\)' 30
ui_keys W
ui_wait 'warnings: 1 noted' 5
ui_wait '│ tensorboard-output/algo-1_777\.[0-9]+\.pt\.trace\.json: its clock lies 5\.0 days before the job.s system metrics: a trace from another job\?' 5
ui_keys q
ui_wait_gone 'warnings: 1 noted' 5
ui_wait 'algo-1 all 2 ranks' 10
ui_quit
echo "ok: the far-off trace is named in the W view; the ranks still show"
