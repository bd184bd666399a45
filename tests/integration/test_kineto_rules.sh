#!/bin/bash
# The rules on PyTorch profiler (Kineto) jobs, through `smtop report
# --json`: the four Kineto rules judge each rank (node, "rank N") and take
# their thresholds from --rule and rules.conf like any rule; StepOutlier
# and Straggler run on the ranks' ProfilerSteps as on smdebug's steps.
: "${SMTOP:?}"
source "$(dirname "$0")/it_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
W=$T
export XDG_CONFIG_HOME="$W/config"
synth() { "$SMTOP" synth --seed 7 --kineto --kineto-only "$@" >/dev/null || fail_now "synth $*"; }

synth --out "$W/hb" --host-bound
"$SMTOP" report "$W/hb" 2>/dev/null | grep -q '^time range: *no data' &&
    { echo "SKIPPED: this smtop does not place PyTorch profiler traces in the model yet"; exit 77; }

# rule NAME JOB [report options...]: "status violations datapoints node device"
rule() {
    local name=$1 job=$2
    shift 2
    "$SMTOP" report --json "$@" "$job" | python3 -c '
import json, sys
for r in json.load(sys.stdin)["rules"]:
    if r["name"] == sys.argv[1]:
        d = r["details"]
        print(r["status"], r["violations"], r["datapoints"], d["node"], d["device"])' "$name"
}
want() {   # want WHAT GOT PATTERN
    [[ "$2" =~ $3 ]] || fail_now "$1: got '$2', want /$3/"
    echo "ok: $1: $2"
}

want "GPUIdleHostBound on a host-bound job" "$(rule GPUIdleHostBound "$W/hb")" \
    '^triggered 2 2 algo-[12] rank [01]$'
want "--rule raises its threshold" \
    "$(rule GPUIdleHostBound "$W/hb" --rule GPUIdleHostBound.threshold=99)" '^ok 0 2 '
mkdir -p "$XDG_CONFIG_HOME/smtop"
echo 'GPUIdleHostBound.host_wait = 100' >"$XDG_CONFIG_HOME/smtop/rules.conf"
want "rules.conf raises host_wait" "$(rule GPUIdleHostBound "$W/hb")" '^ok 0 2 '
want "--no-rules-config ignores it" "$(rule GPUIdleHostBound "$W/hb" --no-rules-config)" \
    '^triggered 2 2 '
rm "$XDG_CONFIG_HOME/smtop/rules.conf"
want "KernelLaunchOverhead judges each rank" "$(rule KernelLaunchOverhead "$W/hb")" \
    '^(ok|triggered) [0-2] 2 algo-[12] rank [01]$'

synth --out "$W/slow" --nodes 3 --slow-node 2 --kineto-every 20 --kineto-active 10
want "Straggler on the ranks' ProfilerSteps" "$(rule Straggler "$W/slow")" \
    '^triggered 1 3 algo-3 '
synth --out "$W/out" --kineto-every 20 --kineto-active 10 --outlier-rate 0.05
want "StepOutlier on the ranks' ProfilerSteps" "$(rule StepOutlier "$W/out")" \
    '^triggered [0-9]+ [0-9]+ (algo-[12]|rank [01]) '
