#!/usr/bin/env bash
# `smtop synth --kineto`: PyTorch profiler traces laid out and formatted as
# tensorboard_trace_handler writes them, checked with Python's json module
# (check_kineto_trace.py says what is checked): the three forms, gz and
# plain, ranks over nodes, NCCL args, [memory], python_function, the
# host-bound scenario, CPU-only, another folder, same seed = same bytes,
# and --live adding one cycle at a time.
source "$(dirname "$0")/it_lib.sh"
SRC=${SMTOP_SRC:-.}
CHECK="$SRC/tests/integration/check_kineto_trace.py"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
LIVE_PID=
it_on_exit '[ -n "$LIVE_PID" ] && kill "$LIVE_PID" 2>/dev/null'

expect_rc() { # want_rc description cmd...
    local want=$1 what=$2
    shift 2
    "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    [ "$rc" = "$want" ] || fail "$what: exit $rc, want $want ($(head -c 300 "$T/err"))"
}
check() { # what dir args...
    local what=$1
    shift
    python3 "$CHECK" "$@" >"$T/check" 2>&1 || fail "$what: $(grep -m3 FAIL "$T/check")"
}

# --- usage ---------------------------------------------------------------
expect_rc 2 "--host-bound without --kineto" "$SMTOP" synth --out "$T/u" --host-bound
grep -q -- "--kineto" "$T/err" || fail "--host-bound alone not explained: $(cat "$T/err")"
expect_rc 2 "--kineto-form bad" "$SMTOP" synth --out "$T/u" --kineto --kineto-form 2019
expect_rc 2 "--kineto-dir absolute" "$SMTOP" synth --out "$T/u" --kineto --kineto-dir /tmp
expect_rc 2 "--kineto-dir escaping" "$SMTOP" synth --out "$T/u" --kineto --kineto-dir ../x
expect_rc 2 "--kineto-every <= active" "$SMTOP" synth --out "$T/u" --kineto --kineto-every 3
[ -e "$T/u" ] && fail "a usage error wrote $T/u"
"$SMTOP" synth --help | grep -q -- "--kineto-form" || fail "--help lacks --kineto-form"

# --- batch: modern .gz, 2 nodes x 2 ranks, beside profiler-output ---------
common=(--kineto --nodes 2 --ranks 2 --minutes 3 --start 1767225600 --seed 5)
expect_rc 0 "modern batch" "$SMTOP" synth "${common[@]}" --out "$T/m"
ls "$T"/m/profiler-output/system/incremental/*/*.algo-2.json >/dev/null 2>&1 ||
    fail "no system metrics beside the traces"
[ -e "$T/m/profiler-output/framework" ] && fail "smdebug framework traces written with --kineto"
ls "$T"/m/tensorboard-output/algo-2_*.pt.trace.json.gz >/dev/null 2>&1 ||
    fail "no algo-2_<pid>.<ns>.pt.trace.json.gz in tensorboard-output/"
check "modern" "$T/m/tensorboard-output" modern 4
grep -q "GPU busy in steps: median [6-9][0-9]%" "$T/check" || fail "GPU-bound: $(tail -2 "$T/check")"
n=$(ls "$T/m/tensorboard-output" | wc -l)
[ "$n" -ge 40 ] || fail "modern: $n traces for 4 ranks x 3 minutes, want one per cycle (>= 40)"
# a file per rank per cycle: 4 workers (host_pid), each with the same count
workers=$(ls "$T/m/tensorboard-output" | sed 's/\..*//' | sort | uniq -c | awk '{print $1}' | sort -u | wc -l)
[ "$(ls "$T/m/tensorboard-output" | sed 's/\..*//' | sort -u | wc -l)" = 4 ] || fail "not 4 workers"
[ "$workers" = 1 ] || fail "workers wrote different numbers of cycles"

expect_rc 0 "same seed again" "$SMTOP" synth "${common[@]}" --out "$T/m2"
diff -r "$T/m" "$T/m2" >/dev/null || fail "same options and seed gave other bytes"

# --- 2024 and legacy forms, plain JSON, python_function -------------------
for form in 2024 legacy; do
    expect_rc 0 "$form" "$SMTOP" synth --kineto --kineto-form "$form" --kineto-plain \
        --kineto-python --nodes 2 --minutes 2 --out "$T/$form"
    check "$form" "$T/$form/tensorboard-output" "$form" 2 --python
    ls "$T/$form/tensorboard-output" | grep -q '\.tmp$' && fail "$form: a .tmp left behind"
done

# --- host-bound, Kineto only, inside profiler-output ----------------------
expect_rc 0 "host-bound" "$SMTOP" synth --kineto-only --host-bound --nodes 1 --ranks 2 \
    --minutes 2 --kineto-dir profiler-output/tensorboard --out "$T/h"
[ -e "$T/h/profiler-output/system" ] && fail "--kineto-only wrote system metrics"
check "host-bound" "$T/h/profiler-output/tensorboard" modern 2 --host-bound

# --- CPU only (no GPUs): gloo, no GPU events ---------------------------------
expect_rc 0 "cpu only" "$SMTOP" synth --kineto-only --gpus 0 --nodes 2 --minutes 2 --out "$T/c"
check "cpu only" "$T/c/tensorboard-output" modern 2 --gpus 0
zcat "$T"/c/tensorboard-output/*.gz | grep -q '"backend": "gloo"' || fail "cpu only: backend not gloo"

# --- job shapes with a known cause (--shape) -------------------------------
expect_rc 2 "--shape unknown" "$SMTOP" synth --out "$T/u" --shape fast
expect_rc 2 "--shape gloo, one rank" "$SMTOP" synth --out "$T/u" --shape gloo --ranks 1
grep -q "two ranks" "$T/err" || fail "--shape gloo --ranks 1 not explained: $(cat "$T/err")"
expect_rc 2 "--kineto-worker with ranks" "$SMTOP" synth --out "$T/u" --kineto --ranks 2 \
    --kineto-worker main
expect_rc 2 "--kineto-worker bad" "$SMTOP" synth --out "$T/u" --kineto --kineto-worker 'a/b'
"$SMTOP" synth --help | grep -q -- "--shape S" || fail "--help lacks --shape"
shape() { # name world extra-check-args...
    local s=$1 w=$2
    shift 2
    expect_rc 0 "shape $s" "$SMTOP" synth --shape "$s" --minutes 2 --seed 3 --out "$T/s_$s"
    check "shape $s" "$T/s_$s/tensorboard-output" modern "$w" --shape "$s" "$@"
}
shape gloo 2
shape main-loader 1 --python
shape launch-bound 1
shape nccl-exposed 2 --gpus 2
shape memory-full 1
ls "$T/s_main-loader/tensorboard-output" | grep -qv '^algo-1_main\.' &&
    fail "main-loader: a trace not named algo-1_main.*"
ls "$T"/s_gloo/profiler-output/system/incremental/*/*.algo-1.json >/dev/null 2>&1 ||
    fail "gloo: no system metrics beside the traces"
# an option after --shape changes the shape's default
expect_rc 0 "shape + option" "$SMTOP" synth --shape gloo --ranks 3 --minutes 2 --out "$T/s3"
check "gloo over 3 ranks" "$T/s3/tensorboard-output" modern 3 --shape gloo

# --- live: one cycle at a time ---------------------------------------------
"$SMTOP" synth --kineto-only --live --minutes 1 --nodes 1 --step-ms 20 --kineto-every 10 \
    --kineto-active 2 --out "$T/l" 2>"$T/live_err" &
LIVE_PID=$!
sleep 1.5
n1=$(ls "$T/l/tensorboard-output" 2>/dev/null | wc -l)
sleep 1.5
n2=$(ls "$T/l/tensorboard-output" 2>/dev/null | wc -l)
kill -TERM "$LIVE_PID"
wait "$LIVE_PID"
rc=$?
LIVE_PID=
[ "$rc" = 0 ] || fail "live: exit $rc after SIGTERM ($(cat "$T/live_err"))"
[ "$n1" -ge 1 ] && [ "$n2" -gt "$n1" ] || fail "live: $n1 then $n2 traces, want a growing count"
check "live" "$T/l/tensorboard-output" modern 1

[ "$fails" = 0 ] && echo "PASS" || echo "$fails failure(s)"
it_done
