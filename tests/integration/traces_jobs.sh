# traces_jobs.sh: job folders of PyTorch profiler traces only, each with
# the trace modification times of a state a user must be told apart
# (sourced by test_jobs_traces_status.sh and test_ui_jobs_traces.sh).
#   traces_jobs DIR   writes DIR/{cadence,copied,stalled,once,ended,ended_po,old}
# - cadence: two ranks, a trace every 15 minutes, the last 10 minutes ago
#   (training: minutes between traces are the profiler's schedule);
# - copied: the same cadence in the traces' names, every mtime 10 minutes
#   ago (a batched upload or a copy): training too;
# - stalled: a trace every 5 minutes until 20 minutes ago (stale);
# - once: one profiling cycle, 7 minutes ago (no cadence yet: its age);
# - ended: traces and training_job_end.ts beside them (completed);
# - ended_po: the same with the marker where SageMaker writes it
#   (profiler-output/framework/);
# - old: one cycle 3 hours ago (no longer in progress).
traces_jobs() {
    local dir=$1 tpl n
    "$SMTOP" synth --out "$dir/.tpl" --kineto-only --minutes 1 --seed 5 >/dev/null ||
        { echo "FAIL: synth"; return 1; }
    tpl=$(find "$dir/.tpl" -name '*.pt.trace.json*' | head -1)
    local now
    now=$(date +%s)
    # trace JOB RANK AGE_MIN [MTIME_AGE_MIN]: rank's trace, its name's time
    # (and its mtime, unless given) AGE_MIN and a half ago (the half: a
    # whole minute whatever the test's own time)
    trace() {
        local t=$((now - $3 * 60 - 30)) m=$((now - ${4:-$3} * 60 - 30)) f
        f="$dir/$1/tensorboard-output/algo-$2_$((100 + $2)).${t}000000000.pt.trace.json.gz"
        mkdir -p "${f%/*}" && cp "$tpl" "$f" && touch -d "@$m" "$f"
    }
    for n in 40 25 10; do trace cadence 1 $n; trace cadence 2 $n; done
    for n in 40 25 10; do trace copied 1 $n 10; done
    for n in 35 30 25 20; do trace stalled 1 $n; done
    trace once 1 7; trace once 2 7
    trace ended 1 30; trace ended 1 20
    touch -d "@$((now - 19 * 60))" "$dir/ended/training_job_end.ts"
    trace ended_po 1 30; trace ended_po 1 20
    mkdir -p "$dir/ended_po/profiler-output/framework"
    touch -d "@$((now - 19 * 60))" "$dir/ended_po/profiler-output/framework/training_job_end.ts"
    trace old 1 180
    rm -rf "$dir/.tpl"
}
