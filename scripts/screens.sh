#!/bin/bash
# Captures the first screens in docs/screens/ at 80x24 and 200x60 with the
# real binary in tmux: the demo, a system-only job, a framework-only sample,
# an ended job with a straggler, a real PyTorch profiler sample, a job with
# both sources, a 256-node job, and the job list (30 jobs on the local API).
# usage: SMTOP=build/smtop scripts/screens.sh [OUTDIR]   (from the repo root;
# the sample screens need ../shared/samples, the list python3-botocore)
set -u
export SMTOP=${SMTOP:-build/smtop}
OUT=${1:-docs/screens}; mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
SAMPLES=${SMTOP_SAMPLES:-$(cd "$(dirname "$0")/.." && pwd)/../shared/samples}
source "$(dirname "$0")/../tests/integration/ui_lib.sh"
trap ui_cleanup EXIT
J=$UI_WORK/jobs
"$SMTOP" synth --out "$J/sysonly" --nodes 4 --minutes 5 --no-traces >/dev/null
"$SMTOP" synth --out "$J/ended" --nodes 4 --gpus 2 --minutes 2 --slow-node 2 \
    --start 1700000000 >/dev/null
"$SMTOP" synth --out "$J/both" --kineto --host-bound --nodes 2 --gpus 2 --minutes 3 >/dev/null
"$SMTOP" synth --out "$J/n256" --nodes 256 --gpus 8 --cpus 32 --minutes 5 --no-traces \
    --start 1700000000 >/dev/null
# shot NAME WAIT_PATTERN ARGS...: both sizes, once the pattern shows
shot() {
    local name=$1 pat=$2; shift 2
    for size in 80x24 200x60; do
        ui_start "${size%x*}" "${size#*x}" env TZ=UTC "$SMTOP" "$@"
        ui_wait "$pat" 60 && sleep 2
        ui_screen >"$OUT/${name}_$size.txt"
        ui_quit
    done
}
shot demo '4 nodes' --demo
shot system_only 'algo-4' "$J/sysonly"
shot ended 'ENDED' "$J/ended"
shot kineto_and_system 'GPU' "$J/both"
shot nodes256 'algo-1 ' "$J/n256"
if [ -d "$SAMPLES" ]; then
    shot framework_only 'ENDED' "$SAMPLES/merge_traces"
    shot kineto_sample 'ENDED' "$SAMPLES/kineto/sampled_ranks"
else
    echo "screens: $SAMPLES not found: the sample screens were not taken"
fi
if /usr/bin/python3 -c 'import botocore' 2>/dev/null; then
    SMTOP=$SMTOP OUT="$UI_WORK/list" bash "$(dirname "$0")/../tests/bench/jobs_captures.sh" \
        >/dev/null 2>&1
    for size in 80x24 200x60; do
        cp "$UI_WORK/list/jobs-30-$size.txt" "$OUT/jobs_list_$size.txt"
    done
else
    echo "screens: /usr/bin/python3 has no botocore: the job list was not taken"
fi
