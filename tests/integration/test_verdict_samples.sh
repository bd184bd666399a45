#!/bin/bash
# The verdict on every job of ../shared/samples (issue 26): each folder
# smtop opens (merge_traces, test_traces, the Kineto trace sets and their
# parent) gets the findings verdict_check.py recomputes from report --json
# and the export's step events, numbers included: merge_traces' 9.02 s
# step among 84 ms ones is told although StepOutlier waits for 100 steps;
# a larger StepOutlier.stddev takes it away, as it does from the rule.
: "${SMTOP:?}" "${SMTOP_SRC:?}"
source "$(dirname "$0")/it_lib.sh"
S=${SMTOP_SAMPLES:-$SMTOP_SRC/../shared/samples}
[ -d "$S/merge_traces" ] || { echo "SKIPPED: ../shared/samples not found"; exit 77; }
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
check() {   # check NAME DIR [--rule X=V SIGMA]
    local name=$1 dir=$2 sigma=3 rule=()
    [ $# -gt 2 ] && { rule=(--rule "$3"); sigma=$4; }
    "$SMTOP" report --json "${rule[@]}" "$dir" >"$T/$name.json" 2>"$T/err" ||
        { fail "report $name: $(cat "$T/err")"; return; }
    "$SMTOP" export --perfetto "$T/$name.pf.json" "$dir" 2>"$T/err" >/dev/null ||
        { fail "export $name: $(cat "$T/err")"; return; }
    local out
    out=$(python3 "$SMTOP_SRC/tests/integration/verdict_check.py" "$T/$name.json" "$T/$name.pf.json" "$sigma") ||
        { fail "$name:"; echo "$out"; return; }
    echo "ok: $name: $out"
}
n=0
for d in "$S"/merge_traces "$S"/test_traces "$S"/kineto "$S"/kineto/*/; do
    [ -d "$d" ] || continue
    check "$(basename "$d")" "$d"
    n=$((n + 1))
done
[ "$n" -ge 12 ] || fail "only $n sample jobs"

# The one job a reader would have been told "no problem found": the slow
# step, in words and numbers, worst finding first.
line=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"]["line"])' "$T/merge_traces.json")
[ "$line" = "step 0 took 9.02 s, 107× the p50 (78 % of TRAIN time) → look at what ran in the step" ] ||
    fail "merge_traces: $line"
# The rule's own threshold: at 6 sigma a 30-step job has no outlier.
check merge_traces_6sigma "$S/merge_traces" StepOutlier.stddev=6 6
grep -q '"line": "no problem found' "$T/merge_traces_6sigma.json" ||
    fail "StepOutlier.stddev=6 still tells a slow step"
it_done
