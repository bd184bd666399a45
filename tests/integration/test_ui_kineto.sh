#!/bin/bash
# A PyTorch profiler job in a real terminal (tmux, 200x60): a Kineto-only,
# host-bound `smtop synth --kineto` job looks complete. Alerts fire
# GPUIdleHostBound and `:set` moves its threshold live; the Steps pane
# shows the ranks' ProfilerSteps; the Timeline splits each step into GPU
# compute / comm / memory / idle; the Top functions pane opens on the
# traces' CPU ops and `o` cycles kernels, Python functions, what the host
# did while the GPU was idle and the critical path; the System
# pane charts each rank's GPU memory from [memory]. A job with both
# sources shows the system metrics beside the ranks' steps.
source "$(dirname "$0")/ui_lib.sh"
"$SMTOP" synth --help 2>&1 | grep -q -- '--kineto-only' ||
    { echo "SKIPPED: this smtop has no synth --kineto"; exit 77; }

JOB="$UI_WORK/job"
"$SMTOP" synth --out "$JOB" --seed 7 --kineto --kineto-only --host-bound >/dev/null ||
    { echo "FAIL: synth"; exit 1; }
# Found and decoded, but not yet placed in the model by this build: nothing to show.
"$SMTOP" report "$JOB" 2>/dev/null | grep -q '^time range: *no data' &&
    { echo "SKIPPED: this smtop does not place PyTorch profiler traces in the model yet"; exit 77; }

ui_start 200 60 env TZ=UTC "$SMTOP" --interval 1 "$JOB"
ui_wait '\[HIGH\] GPUIdleHostBound( [^ ]+)?( \+[0-9]+%)? +2/2 +2 of 2 ranks; worst rank [01]: GPU i' 30
ui_wait '\[ ok \] CommNotOverlapped( [^ ]+)?( \+[0-9]+%)? +0/2'
echo "ok: Alerts fire GPUIdleHostBound on both ranks"

ui_wait 'algo-1 +TRAIN'
ui_wait '│n [0-9]+ +mean [0-9.]+ ms'
echo "ok: Steps shows the ranks' ProfilerSteps"

ui_wait 'GPU █ compute +░ comm +▒ memory +· idle'
ui_screen | grep -Eq '│ +[0-9]+ █+░*▒*·+ +[0-9.]+ ms' ||
    ui_fail "no step bar split into compute / idle"
echo "ok: the Timeline draws steps as GPU compute / comm / memory / idle"

ui_wait '4 Top functions - Kineto ops, whole job'
ui_wait 'Kineto ops \| sort self \| all 2 ranks \| [0-9]+ of [0-9]+, self'
ui_wait '  1 +[0-9]+ +[0-9.]+ [mu]?s +[0-9.]+% .*(Backward|aten::)'
ui_focus Top
ui_keys o
ui_wait 'kernels \| sort total \| all 2 ranks \| [0-9]+ of [0-9]+, GPU'
ui_wait '4 Top functions - kernels, whole job'
ui_keys o
ui_wait 'no python_function events in the traces'
ui_keys o
ui_wait 'GPU idle: host \| [0-9]+ steps: GPU idle [0-9.]+ %'
ui_keys o
ui_wait 'critical path \| [0-9]+ steps, path [0-9.]+ [mu]?s: [a-z_]+ [0-9]+ %'
ui_keys o
ui_wait 'Kineto ops \| sort self \| all 2 ranks'
echo "ok: Top functions: Kineto ops, o to kernels, Python functions, GPU idle: host, critical path and back"

# The System pane may give way on a job without system metrics: 1 shows it.
ui_screen | grep -q '1 System' || ui_keys 1
ui_wait 'algo-1  \(GPU memory from the PyTorch profiler only\)'
ui_wait 'gmem rank 0 .* [0-9.]+%'
echo "ok: System charts the ranks' GPU memory"

ui_keys ':' 'set GPUIdleHostBound.threshold=99' Enter
ui_wait '\[ ok \] GPUIdleHostBound( [^ ]+)?( \+[0-9]+%)? +0/2'
ui_keys ':' 'set GPUIdleHostBound.threshold=50' Enter
ui_wait '\[HIGH\] GPUIdleHostBound( [^ ]+)?( \+[0-9]+%)? +2/2'
echo "ok: :set moves GPUIdleHostBound's threshold live"
ui_quit

# Both sources: the system metrics' charts and the ranks' GPU split of the
# same steps, on one clock (the GPU memory chart is the system metric's).
"$SMTOP" synth --out "$UI_WORK/both" --seed 7 --kineto --host-bound >/dev/null ||
    { echo "FAIL: synth"; exit 1; }
ui_start 200 60 env TZ=UTC "$SMTOP" --interval 1 "$UI_WORK/both"
ui_wait 'algo-1  4 cpu  1 gpu'
ui_wait '│ gmem0 '
ui_wait 'GPU █ compute +░ comm +▒ memory +· idle'
ui_wait '\[HIGH\] GPUIdleHostBound( [^ ]+)?( \+[0-9]+%)? +2/2'
ui_screen | grep -q 'gmem rank' && ui_fail "a traces' memory chart beside the system metric's"
echo "ok: both sources on one screen"
ui_quit
