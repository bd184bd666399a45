#!/bin/bash
# The PyTorch profiler sample `kineto/sampled_ranks` (two ranks of a real
# job, traces only) in a real terminal (tmux, 200x60): Steps shows its
# ProfilerSteps, the Timeline their GPU split, Top functions the traces'
# CPU ops and kernels, and Alerts the rules that fire on it
# (GPUIdleHostBound, CommNotOverlapped; test_rules_kineto checks their
# figures against the predicates).
source "$(dirname "$0")/ui_lib.sh"
SAMPLE="$SMTOP_SAMPLES/kineto/sampled_ranks"
[ -d "$SAMPLE" ] || { echo "SKIPPED: ../shared/samples not found"; exit 77; }
"$SMTOP" report "$SAMPLE" 2>/dev/null | grep -q '^time range: *[0-9]' ||
    { echo "SKIPPED: this smtop does not place PyTorch profiler traces in the model yet"; exit 77; }

ui_start 200 60 env TZ=UTC "$SMTOP" "$SAMPLE"
ui_wait '\[HIGH\] GPUIdleHostBound( [^ ]+)?( \+[0-9]+%)? +2/2' 30
ui_wait '\[MED \] CommNotOverlapped( [^ ]+)?( \+[0-9]+%)? +2/2'
ui_wait '\[ ok \] KernelLaunchOverhead( [^ ]+)?( \+[0-9]+%)? +0/2'
echo "ok: Alerts on the sample"
ui_wait 'TRAIN +\(1/[0-9]+, n/N\)'
ui_wait '│n 2 +mean [0-9.]+ ms'
echo "ok: Steps"
ui_wait 'GPU █ compute +░ comm +▒ memory +· idle'
ui_wait '│ +551 █+░+·+ +[0-9.]+ ms'
echo "ok: Timeline splits step 551 into compute, comm and idle"
ui_wait 'Kineto ops \| sort self \| all 2 ranks \| [0-9]+ of [0-9]+, self'
ui_wait 'aten::mm'
ui_focus Top
ui_keys o
ui_wait 'kernels \| sort total \| all 2 ranks \| [0-9]+ of [0-9]+, GPU'
echo "ok: Top functions: the traces' ops, then kernels"
ui_quit
