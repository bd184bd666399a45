#!/usr/bin/env bash
# `report --json` is the same bytes however many threads ingest the job
# (SMTOP_INGEST_THREADS: 0 = the scanning thread alone, N = N threads,
# unset = one per core; the report's rules run on as many, issue 28): on
# synthetic jobs of several shapes, one of them
# with files that make warnings (corrupt and partial lines, a time out of
# range, an unknown name, an unplaced TF trace), whose order must not
# depend on which thread finished first; two PyTorch profiler jobs of
# several ranks over nodes (their rules run on the calling thread beside
# the others), one with plain traces of several pieces (streamed,
# scan_stream); and two traces-only jobs, decoded on the ingest workers
# and applied in list order (scan_traces.c, issue 35): 16 ranks over 4
# nodes and several cycles, and one whose traces make warnings of their
# own (a rank recorded twice, a .gz cut short, a JSON that is no trace),
# which must come in the order one thread says them. `report` (text) is
# compared too on the two jobs with warnings. The real samples:
# test_ingest_threads_samples.sh.
source "$(dirname "$0")/it_lib.sh"

synth() { # name options...
    local name=$1
    shift
    "$SMTOP" synth --out "$T/$name" --start 1700000000 "$@" >/dev/null 2>"$T/err" ||
        fail "synth $name: $(head -c 300 "$T/err")"
}
synth plain --nodes 3 --gpus 2 --cpus 4 --minutes 4 --seed 1
synth ranks --nodes 2 --flat --ranks 3 --slow-rank 1 --python-stats 20 --minutes 3 --seed 7
synth slow --nodes 5 --slow-node 2 --gpus 4 --cpus 16 --minutes 6 --interval-ms 1000 --seed 3
synth sysonly --nodes 9 --no-traces --gpus 8 --cpus 32 --minutes 3 --seed 2
synth warn --nodes 4 --gpus 1 --cpus 2 --minutes 3 --seed 5
synth kin --kineto --nodes 3 --ranks 2 --gpus 2 --minutes 4 --kineto-every 20 --kineto-active 10 --seed 9
synth kinplain --kineto --kineto-plain --kineto-python --nodes 2 --ranks 2 --gpus 2 --minutes 3 \
    --kineto-every 80 --kineto-active 60 --seed 11
synth kinonly --kineto --kineto-only --kineto-plain --nodes 4 --ranks 4 --gpus 2 --minutes 2 \
    --kineto-every 200 --kineto-active 20 --seed 13
synth kinwarn --kineto --kineto-only --nodes 2 --ranks 2 --minutes 3 --kineto-every 40 --seed 17

# Traces that make warnings: a copy of a rank's trace (the same rank twice:
# which one stands depends on the order), a .gz cut short (named, read
# again once it changes), a JSON file that is no trace.
kw=$T/kinwarn/tensorboard-output
traces=$(find "$kw" -name '*.pt.trace.json.gz' | sort)
first=$(echo "$traces" | head -1)
mkdir -p "$kw/copy" && cp "$first" "$kw/copy/"
last=$(echo "$traces" | tail -1)
head -c $(($(stat -c %s "$last") / 2)) "$last" >"$kw/cut_$(basename "$last")"
echo '{"not": "a trace"}' >"$kw/notes.json"

# Problems in several nodes' files: each is named in the warnings.
w=$T/warn
n=0
for f in $(find "$w/system" -name '*.json' | sort | awk 'NR % 5 == 1'); do
    n=$((n + 1))
    case $((n % 4)) in
    0) printf 'not json at all\n' >>"$f" ;;
    1) node=$(basename "$f" .json) node=${node#*.}
       printf '{"Type":"cpu","Name":"cpu0","Dimension":"CPUUtilization","Value":1,"NodeId":"%s","Timestamp":4200000000.5}\n' "$node" >>"$f" ;;
    2) printf '{"Type":"cpu","Name":"cpu0","Dim' >>"$f" ;;
    3) printf '{"broken": \n' >>"$f" ;;
    esac
done
mkdir -p "$w/framework/pevents/odd" "$w/framework/tensorflow/detailed_profiling/x/y/plugins/profile/2020_01_01_00_00_00"
echo '{}' >"$w/framework/pevents/odd/notes.txt"
echo '{"traceEvents": [{"ph": "X", "name": "op", "ts": 1, "dur": 2, "pid": 1, "tid": 1}]}' |
    gzip -c >"$w/framework/tensorflow/detailed_profiling/x/y/plugins/profile/2020_01_01_00_00_00/h.trace.json.gz"
[ "$n" -ge 4 ] || fail "the warn job has only $n system files to spoil"

big=$(find "$T/kinplain" -name '*.pt.trace.json' -size +1100k | wc -l)
[ "$big" -ge 4 ] || fail "kinplain has $big traces over a 1 MiB piece"
jobs="plain ranks slow sysonly warn kin kinplain kinonly kinwarn"
for job in $jobs; do
    env -u SMTOP_INGEST_THREADS "$SMTOP" report --json "$T/$job" >"$T/$job.ref" 2>"$T/err"
    rc=$?
    [ "$rc" = 0 ] || fail "$job: report exits $rc ($(head -c 300 "$T/err"))"
    case $job in warn | kinwarn) text=1 ;; *) text=0 ;; esac
    [ $text = 1 ] && env -u SMTOP_INGEST_THREADS "$SMTOP" report "$T/$job" >"$T/$job.txt" 2>/dev/null
    for t in 0 1 2 3 5; do
        SMTOP_INGEST_THREADS=$t "$SMTOP" report --json "$T/$job" >"$T/$job.$t" 2>/dev/null
        cmp -s "$T/$job.ref" "$T/$job.$t" ||
            fail "$job: report --json with SMTOP_INGEST_THREADS=$t differs from the default's"
        [ $text = 1 ] || continue
        SMTOP_INGEST_THREADS=$t "$SMTOP" report "$T/$job" >"$T/$job.$t.txt" 2>/dev/null
        cmp -s "$T/$job.txt" "$T/$job.$t.txt" ||
            fail "$job: report with SMTOP_INGEST_THREADS=$t differs from the default's"
    done
done
python3 - "$T/warn.ref" <<'PY' || fail "the warn job's report lacks its warnings"
import json, sys
r = json.load(open(sys.argv[1]))
w = r["warnings"]
assert w["corrupt_lines"] >= 2, w
assert w["partial_lines"] >= 1, w
text = json.dumps(w)
assert "2000-2100" in text and "notes.txt" in text, w
PY
python3 - "$T/kinwarn.ref" <<'PY' || fail "the kinwarn job's report lacks its traces' warnings"
import json, sys
text = json.dumps(json.load(open(sys.argv[1]))["warnings"])
assert "the same rank recorded twice" in text, text[:2000]
# the cut .gz is named with why: an ended job's is "truncated" (job_warn),
# a live one's is read again once it changes
assert "cut_algo-2" in text and "notes.json" in text, text[:2000]
assert "truncated" in text or "read again once it changes" in text, text[:2000]
PY
[ $fails = 0 ] && echo "report --json the same with 0, 1, 2, 3, 5 threads on 9 jobs (report too on 2)"
it_done
