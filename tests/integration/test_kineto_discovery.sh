#!/usr/bin/env bash
# PyTorch profiler traces are found wherever a real job leaves them and
# named when not read (SPEC §1b): in tensorboard-output/ beside
# profiler-output/ (and a job with nothing else is a job), at any depth
# under profiler-output/ (framework/ included: no "unknown file name"),
# under the job prefix; another JSON is a trace only if its head says
# so; a half-written .gz is named; --traces adds a directory or a file
# (report and export), and a bad --traces is an error that says so.
source "$(dirname "$0")/it_lib.sh"
SAMPLES=${SMTOP_SAMPLES:-}
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }

report() { # out source args...
    local out=$1
    shift
    "$SMTOP" report --json "$@" >"$out" 2>"$T/err" || fail "report $*: $(cat "$T/err")"
}
unread() { # report.json → "key<TAB>why" lines
    python3 -c 'import json,sys
for u in json.load(open(sys.argv[1]))["warnings"]["unread"]: print(u["key"] + "\t" + u["why"])' "$1"
}
bytes() {
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["warnings"]["bytes_read"])' "$1"
}

# --- a job with only traces, in tensorboard-output/ -------------------------
"$SMTOP" synth --kineto-only --nodes 1 --ranks 2 --minutes 2 --out "$T/only" || fail "synth"
tb_bytes=$(cat "$T"/only/tensorboard-output/*.gz | wc -c)
report "$T/r1.json" "$T/only"
[ -z "$(unread "$T/r1.json")" ] || fail "traces-only job: unread $(unread "$T/r1.json")"
[ "$(bytes "$T/r1.json")" = "$tb_bytes" ] || fail "traces-only job: read $(bytes "$T/r1.json") of $tb_bytes bytes"
# the trace folder itself is a source too
report "$T/r1b.json" "$T/only/tensorboard-output"
[ "$(bytes "$T/r1b.json")" = "$tb_bytes" ] || fail "trace folder: read $(bytes "$T/r1b.json") of $tb_bytes bytes"

# --- under profiler-output/framework/, beside system metrics ---------------
"$SMTOP" synth --kineto --nodes 1 --minutes 2 --kineto-dir profiler-output/framework/kineto \
    --kineto-plain --out "$T/fw" || fail "synth framework"
report "$T/r2.json" "$T/fw"
unread "$T/r2.json" | grep -q "unknown file name" && fail "a trace under framework/ is an unknown file name"
[ -z "$(unread "$T/r2.json")" ] || fail "framework: unread $(unread "$T/r2.json")"
n=$(ls "$T/fw/profiler-output/framework/kineto" | wc -l)
[ "$n" -ge 5 ] || fail "framework: only $n traces written"

# --- other JSON, a half-written .gz, the job prefix -------------------------
mkdir -p "$T/only/tensorboard-output/run2" "$T/only/output"
first=$(ls "$T"/only/tensorboard-output/*.gz | head -1)
cp "$first" "$T/only/tensorboard-output/run2/renamed.json.gz"          # a trace by its head
echo '{"loss": [1, 2]}' >"$T/only/tensorboard-output/run2/metrics.json" # not one
half="$T/only/tensorboard-output/algo-1_9.1795802781336108651.pt.trace.json.gz"
head -c 2000 "$first" >"$half"
cp "$first" "$T/only/algo-1_8.1795802781336108652.pt.trace.json.gz"    # job prefix
echo '{}' >"$T/only/output/model.json"                                 # not profiler data
report "$T/r3.json" "$T/only"
unread "$T/r3.json" >"$T/u3"
grep -q "^tensorboard-output/run2/metrics.json	not read: not a PyTorch profiler trace" "$T/u3" ||
    fail "other JSON not named: $(cat "$T/u3")"
grep -q "^tensorboard-output/algo-1_9.*ends early" "$T/u3" || fail "half .gz not named: $(cat "$T/u3")"
grep -q "model.json\|renamed" "$T/u3" && fail "named what it should read or skip: $(cat "$T/u3")"
# the job prefix's copy is found and read, and, as the same rank over the
# same time as the trace it copies, named rather than counted twice
grep -Eq "algo-1_8.*not read: claims rank 0 of algo-1 like .* recorded twice" "$T/u3" ||
    fail "job-prefix copy not found, or counted twice: $(cat "$T/u3")"
[ "$(wc -l <"$T/u3")" = 3 ] || fail "unread: $(cat "$T/u3")"
want=$((tb_bytes + 2 * $(wc -c <"$first") + $(wc -c <"$half") + $(wc -c <"$T/only/tensorboard-output/run2/metrics.json")))
[ "$(bytes "$T/r3.json")" = "$want" ] || fail "read $(bytes "$T/r3.json") bytes, want $want"

# --- --traces: a directory, a file; report and export ------------------------
"$SMTOP" synth --nodes 1 --minutes 2 --out "$T/sys" || fail "synth system"
report "$T/r4.json" "$T/sys"
base=$(bytes "$T/r4.json")
report "$T/r5.json" "$T/sys" --traces "$T/only/tensorboard-output"
unread "$T/r5.json" | grep -q "^$T/only/tensorboard-output/run2/metrics.json	" ||
    fail "--traces: unread not named under its path: $(unread "$T/r5.json")"
[ "$(bytes "$T/r5.json")" -gt "$base" ] || fail "--traces DIR read nothing more"
report "$T/r6.json" "$T/sys" --traces "$first"
[ "$(bytes "$T/r6.json")" = $((base + $(wc -c <"$first"))) ] || fail "--traces FILE: $(bytes "$T/r6.json")"
"$SMTOP" report "$T/sys" --traces "$T/nope" >/dev/null 2>"$T/err"
[ $? = 1 ] && grep -q -- "--traces" "$T/err" || fail "bad --traces: $(cat "$T/err")"
"$SMTOP" export --perfetto "$T/p.json" --traces "$first" "$T/sys" 2>"$T/err" || fail "export --traces: $(cat "$T/err")"
"$SMTOP" report --help | grep -q -- "--traces" || fail "report --help lacks --traces"

# --- the real samples: each is a trace by its head -----------------------------
if [ -n "$SAMPLES" ] && [ -d "$SAMPLES/kineto" ]; then
    report "$T/r7.json" "$T/sys" --traces "$SAMPLES/kineto"
    # every trace read; the JSON files beside them that are not traces
    # (HTA's expected.json, critical_path.json) named, with why
    want_unread=$(find "$SAMPLES/kineto" -maxdepth 1 -name '*.json' | sort)
    [ -n "$want_unread" ] || fail "samples: no top-level JSON to name"
    [ "$(unread "$T/r7.json" | cut -f1 | sort)" = "$want_unread" ] ||
        fail "samples: unread $(unread "$T/r7.json")"
    unread "$T/r7.json" | cut -f2 | grep -qv "not a PyTorch profiler trace" &&
        fail "samples: a top-level JSON named for the wrong reason: $(unread "$T/r7.json")"
    sz=$(find "$SAMPLES/kineto" -name '*.gz' -exec cat {} + | wc -c)
    for j in $want_unread; do sz=$((sz + $(wc -c <"$j"))); done
    [ "$(bytes "$T/r7.json")" = $((base + sz)) ] || fail "samples: read $(bytes "$T/r7.json"), want $((base + sz))"
else
    echo "note: ../shared/samples not found: the samples part is skipped"
fi

[ "$fails" = 0 ] && echo "PASS" || echo "$fails failure(s)"
it_done
