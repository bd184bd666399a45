#!/bin/bash
# The verdict on synthetic jobs of every shape (issue 26): system metrics
# only, PyTorch profiler traces only (GPU-bound and host-bound), both
# sources, a straggler node, a slow rank, many and no outlier steps, a
# Kineto rank straggler, and each job shape with a known cause (synth
# --shape, issue 32). verdict_check.py recomputes each finding, with its
# numbers and its cause, from report --json and the export's step events.
: "${SMTOP:?}" "${SMTOP_SRC:?}"
source "$(dirname "$0")/it_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
job() {   # job NAME SYNTH-OPTIONS...
    local name=$1
    shift
    "$SMTOP" synth --out "$T/$name" --minutes 3 --start 1700000000 "$@" >/dev/null 2>"$T/err" ||
        { fail "synth $name: $(cat "$T/err")"; return; }
    "$SMTOP" report --json "$T/$name" >"$T/$name.json" 2>"$T/err" ||
        { fail "report $name: $(cat "$T/err")"; return; }
    "$SMTOP" export --perfetto "$T/$name.pf.json" "$T/$name" >/dev/null 2>"$T/err" ||
        { fail "export $name: $(cat "$T/err")"; return; }
    local out
    out=$(python3 "$SMTOP_SRC/tests/integration/verdict_check.py" "$T/$name.json" "$T/$name.pf.json") ||
        { fail "$name:"; echo "$out"; return; }
    echo "ok: $name: $out"
}
has() {   # has NAME SOURCE: the verdict holds a finding of SOURCE
    python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))["verdict"]
sys.exit(0 if any(f["source"] == sys.argv[2] for f in v["findings"]) else 1)' "$T/$1.json" "$2" ||
        fail "$1 has no $2 finding"
}
job system_only --nodes 4 --no-traces
job kineto_only --kineto --kineto-only --nodes 1 --ranks 2 --seed 4
job kineto_host_bound --kineto --kineto-only --host-bound --nodes 1 --ranks 2 --seed 4
job both --kineto --host-bound --nodes 2 --ranks 2 --seed 4
job straggler --nodes 4 --gpus 2 --slow-node 2 --seed 7
job slow_rank --nodes 1 --ranks 4 --slow-rank 2
job kineto_straggler --kineto --kineto-only --nodes 1 --ranks 4 --slow-rank 1 --seed 4
job many_outliers --nodes 2 --outlier-rate 0.1
job no_outliers --nodes 2 --outlier-rate 0
for shape in gloo main-loader launch-bound nccl-exposed memory-full; do
    job "$shape" --shape "$shape"
done
# The shapes say what they were made to say (the checker tells the rest).
has straggler straggler
has slow_rank straggler
has kineto_straggler straggler
has kineto_host_bound kineto
has both kineto
has many_outliers outlier_steps
# each shape's first finding names its cause and its fix
lead() {  # lead NAME RULE WHY KNOB
    python3 - "$T/$1.json" "$2" "$3" "$4" <<'PY' || fail "$1's lead finding"
import json, sys
v = json.load(open(sys.argv[1]))["verdict"]
f = v["findings"][0]
assert f["rule"] == sys.argv[2] and (f["why"] or "").startswith(sys.argv[3]) and \
    f["knob"] == sys.argv[4], f
assert v["line"].startswith(f["text"] + ": " + f["why"] + " \u2192 " + f["knob"]), v["line"]
PY
}
lead gloo GlooWithCUDA "gloo all-reduce on the host" "use NCCL"
lead main-loader Dataloader "DataLoader on the main thread (train.py:12 __getitem__)" num_workers
lead launch-bound KernelLaunchOverhead "kernel launches" "CUDA graphs / torch.compile"
lead nccl-exposed CommNotOverlapped "all-reduce after backward" "smaller DDP buckets"
lead memory-full GPUMemoryNearCapacity "activations fill the GPU" "checkpointing / bf16"
it_done
