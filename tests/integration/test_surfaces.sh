#!/usr/bin/env bash
# One truth on every surface (issue 33), the command-line surfaces: for
# each job shape the tests make (Debugger system metrics on 2 nodes, an
# ended one, Kineto beside them, Kineto only, a host-bound Kineto job, one
# with a trace cut in half) and the Kineto sample folders `smtop jobs`
# lists, the report's text, the report's JSON and the job's row of
# `smtop jobs --json DIR` must say the same alerts, step p50, nodes,
# traces read, idle GPU-hours and time range, and the text's "newest 5
# min" line the summary's GPU/CPU/MEM % to the 0.1 it prints, "-" for
# null (surfaces.py); `smtop diff`'s
# text must count what its JSON counts, for each shape against itself and
# against another. The
# checker is shown each figure mutated on one surface and must catch it.
set -o pipefail
: "${SMTOP:?}" "${SMTOP_SRC:?}"
source "$(dirname "$0")/it_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
CHECK="$SMTOP_SRC/tests/integration/surfaces.py"
D="$T/jobs"
"$SMTOP" synth --out "$D/sys/profiler-output" --nodes 2 --minutes 2 >/dev/null || fail "synth sys"
"$SMTOP" synth --out "$D/ended/profiler-output" --nodes 1 --minutes 1 >/dev/null || fail "synth ended"
touch "$D/ended/profiler-output/system/training_job_end.ts"
"$SMTOP" synth --out "$D/kin" --kineto --gpus 2 --minutes 2 >/dev/null || fail "synth kin"
"$SMTOP" synth --out "$D/kinonly" --kineto-only --minutes 2 >/dev/null || fail "synth kinonly"
"$SMTOP" synth --out "$D/hostb" --kineto --host-bound --nodes 2 --gpus 2 --minutes 2 --seed 5 \
    >/dev/null || fail "synth hostb"
"$SMTOP" synth --out "$D/cut" --kineto --gpus 2 --minutes 2 --seed 7 >/dev/null || fail "synth cut"
# a trace cut in half: read by none of the surfaces, counted by all
gz=$(find "$D/cut" -name '*.json.gz' | sort | head -1)
[ -n "$gz" ] && head -c "$(($(stat -c %s "$gz") / 2))" "$gz" >"$T/half" && mv "$T/half" "$gz" ||
    fail "no trace to cut in $D/cut"

"$SMTOP" jobs --json "$D" >"$T/jobs.json" 2>"$T/err" || fail "jobs --json: $(cat "$T/err")"
names="sys ended kin kinonly hostb cut"
check_jobs() {   # check_jobs LIST_JSON DIR NAME...
    local list=$1 dir=$2 n f
    shift 2
    for n in "$@"; do
        f="$T/$(echo "$n" | tr -c 'a-z0-9\n' _)"
        "$SMTOP" report "$dir/$n" >"$f.txt" 2>/dev/null || fail "report $n"
        "$SMTOP" report --json "$dir/$n" >"$f.json" 2>/dev/null || fail "report --json $n"
        python3 "$CHECK" selftest "$f.txt" "$f.json" "$list" "$n" || fails=$((fails + 1))
    done
}
check_jobs "$T/jobs.json" "$D" $names
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["warnings"]; sys.exit(0 if r["traces_unread"] >= 1 else "FAIL: the cut trace is not counted unread")' \
    "$T/cut.json" || fails=$((fails + 1))

set -- $names
last=${*: -1}
for a in "$@"; do   # each shape against itself and against the one before
    for b in "$a" "$last"; do
        "$SMTOP" diff --threshold 0 "$D/$a" "$D/$b" >"$T/d.txt" 2>/dev/null || { fail "diff $a $b"; continue; }
        "$SMTOP" diff --json "$D/$a" "$D/$b" >"$T/d.json" 2>/dev/null || { fail "diff --json $a $b"; continue; }
        python3 "$CHECK" diff "$T/d.txt" "$T/d.json" || fail "diff $a $b"
    done
    last=$a
done

S=${SMTOP_SAMPLES:-}/kineto
if [ -n "${SMTOP_SAMPLES:-}" ] && [ -d "$S" ]; then
    "$SMTOP" jobs --json "$S" >"$T/samples.json" 2>"$T/err" || fail "jobs --json samples: $(cat "$T/err")"
    listed=$(python3 -c 'import json,sys; print(" ".join(j["name"] for j in json.load(open(sys.argv[1]))["jobs"]))' "$T/samples.json")
    [ -n "$listed" ] || fail "no sample folder listed"
    check_jobs "$T/samples.json" "$S" $listed
    # `smtop jobs` finds a traces-only job by tensorboard_trace_handler's
    # file names, which 12 of the 14 sample folders do not use: each
    # folder's traces, under such names, make a job of the same shape, so
    # every sample goes through the list as well
    renamed=""
    for dir in "$S"/*/; do
        n=$(basename "$dir") i=0
        for f in "$dir"*.json "$dir"*.json.gz; do
            [ -f "$f" ] || continue
            i=$((i + 1))
            gz=""; case $f in *.gz) gz=.gz ;; esac
            mkdir -p "$T/sj/$n/tensorboard-output"
            ln -s "$f" "$T/sj/$n/tensorboard-output/w${i}_1.$((1700000000000 + i)).pt.trace.json$gz"
        done
        [ "$i" -gt 0 ] && renamed="$renamed $n"
    done
    "$SMTOP" jobs --json "$T/sj" >"$T/sj.json" 2>"$T/err" || fail "jobs --json renamed samples: $(cat "$T/err")"
    got=$(python3 -c 'import json,sys; print(" ".join(sorted(j["name"] for j in json.load(open(sys.argv[1]))["jobs"])))' "$T/sj.json")
    [ "$got" = "$(echo $renamed | tr ' ' '\n' | sort | xargs)" ] ||
        fail "the renamed sample jobs: listed '$got', want '$renamed'"
    check_jobs "$T/sj.json" "$T/sj" $renamed
    listed="$listed (and as named by the trace handler:$renamed)"
    "$SMTOP" diff --json "$S/trace_diff_control" "$S/trace_diff_test" >"$T/d.json" 2>/dev/null &&
        "$SMTOP" diff --threshold 0 "$S/trace_diff_control" "$S/trace_diff_test" >"$T/d.txt" 2>/dev/null &&
        python3 "$CHECK" diff "$T/d.txt" "$T/d.json" || fail "diff of the trace_diff samples"
else
    echo "note: ../shared/samples not found: the sample folders are skipped"
fi

[ "$fails" = 0 ] && echo "PASS: $names${listed:+ $listed}: report text = report --json = jobs --json; diff text = diff --json" ||
    echo "$fails failure(s)"
it_done
