#!/bin/bash
# The timeline pane in a real terminal (tmux): on a synthetic job with
# traces, the step view shows the selected node's newest steps as bars
# split into data / forward / backward (with the phase legend), the newest
# bar selected; `f` ties the dashboard to the selected step; `v` switches to
# the data-loader view (data-loading time and share per step, GetNext
# histogram, workers) — whose j/k select the node — and to the events
# list, which `s` orders by duration and the pane's own `/` prompt
# narrows by name. Hand-made traces check the loader view without loader
# events and with parallel workers; a system-metrics-only job gets a calm
# message.
source "$(dirname "$0")/ui_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }

JOB="$UI_WORK/job"
ui_synth "$JOB" --nodes 2 --gpus 1 --minutes 3

ui_start 200 60 "$SMTOP" --interval 1 "$JOB"
ui_wait '[0-9] Timeline'
ui_loaded 60                     # the newest rows move while traces arrive
# Focus the pane whatever its place (panes without data are hidden), zoom it.
idx=$(ui_screen | grep -oE '[0-9] Timeline' | head -1 | cut -c1)
ui_focus Timeline
ui_keys Enter
ui_wait "$idx Timeline \\(Esc: back\\)"

# --- steps view ---------------------------------------------------------
ui_wait 'steps\|loader\|events  (step [0-9]+-[0-9]+|[0-9]+-[0-9]+/[0-9]+)( \([0-9]+-[0-9]+/[0-9]+\))? TRAIN algo-1  f focus'
ui_wait 'data  .*forward  .*backward  .*comm  .*other  ! slow'
# The header names the rows' own step numbers, then their place among the
# retained steps (issue 26: "3999-4000/4096" beside steps 4402-4403).
first=$(ui_screen | grep -oE 'events  step [0-9]+-' | grep -oE '[0-9]+' | head -1)
last=$(ui_screen | grep -oE 'events  step [0-9]+-[0-9]+' | grep -oE '[0-9]+$' | head -1)
top=$(ui_screen | grep -E '^│[>* ] +[0-9]+ ▒' | head -1 | grep -oE '[0-9]+' | head -1)
bottom=$(ui_screen | grep -E '^│[>* ] +[0-9]+ ▒' | tail -1 | grep -oE '[0-9]+' | head -1)
[ -n "$first" ] && [ "$first" = "$top" ] && [ "$last" = "$bottom" ] ||
    ui_fail "header steps $first-$last, rows $top-$bottom"
# Bars: step number, then data (▒), forward (█) and backward (▓) parts, in
# that order, then the duration; every row that fits (a zoomed 60-row
# terminal has room for 50+).
bars() { ui_screen | grep -cE '^│[>* ] +[0-9]+ ▒+█+▓+[░·]* +[0-9.]+ [mµ]?s'; }
end=$((SECONDS + 10))
while ((SECONDS < end)) && (($(bars) < 40)); do sleep 0.2; done
(($(bars) >= 40)) || ui_fail "expected >= 40 step bars split into phases, got $(bars)"
# The newest step is selected, at the bottom; k moves the selection up.
last=$(ui_screen | grep -E '^│[>* ] +[0-9]+ ▒' | tail -1)
[[ "$last" == "│>"* ]] || ui_fail "newest bar not selected: $last"
ui_keys k
end=$((SECONDS + 10))
while ((SECONDS < end)); do
    sel=$(ui_screen | grep -E '^│> +[0-9]+ ▒' | awk '{ print $2 }')
    newest=$(ui_screen | grep -E '^│[>* ] +[0-9]+ ▒' | tail -1 | awk '{ print $2 }')
    [ -n "$sel" ] && [ "$sel" -lt "$newest" ] && break
    sleep 0.2
done
[ -n "$sel" ] && [ "$sel" -lt "$newest" ] || ui_fail "k did not select an older step ($sel, newest $newest)"
# f: every pane now shows that step's window (the header says which step).
ui_keys f
ui_wait "STEP $sel\\b"
# ...the events list too: that step's own four events, from its start.
ui_keys v v
ui_wait ' 4 events│'
ui_wait "^│ +\\+0\\.000s +[0-9.]+ [mµ]?s +$sel Step:ModeKeys.TRAIN"
ui_keys v
ui_keys Escape Escape                     # leave the step, keep the zoom off
ui_wait_gone "STEP $sel\\b"
ui_keys Enter
ui_wait "$idx Timeline \\(Esc: back\\)"

# --- loader view --------------------------------------------------------
ui_keys v
ui_wait 'steps\|loader\|events  algo-1 data loading'
ui_wait 'data [0-9.]+ [mµ]?s/step, [0-9.]+% of step time \(last [0-9]+ steps\)'
share=$(ui_screen | grep -oE '[0-9.]+% of step time' | head -1 | cut -d% -f1)
python3 -c "import sys; sys.exit(not 1.0 < $share < 60.0)" ||
    ui_fail "data-loading share $share% is not plausible for the synthetic job"
ui_wait 'workers: (none seen|up to [0-9]+ in parallel)'
ui_wait 'GetNext latency \([0-9]+ calls\)'
ui_wait '^│ +[0-9]+ +[0-9.]+ [mµ]?s +[0-9.]+% ▒'   # per-step data time and share
ui_keys j                                  # not taken by this view: next node
ui_wait 'algo-2 data loading'
ui_keys k
ui_wait 'algo-1 data loading'

# --- events view --------------------------------------------------------
ui_keys v
ui_wait 'steps\|loader\|events  algo-1  by start \(s\)'
ui_wait '[0-9]+ events'
ui_wait 'Step:ModeKeys.TRAIN'
ui_wait 'Backward\(post-forward\)'
ui_wait 'dataset::GetNext'
count() { ui_screen | grep -oE '[0-9]+ events' | head -1 | cut -d' ' -f1; }
all=$(count)
ui_keys / G e t N e x t
ui_wait 'filter events: /GetNext_'
ui_keys Enter
ui_wait_gone 'filter events:'
ui_wait 'by start \(s\)  /GetNext'
n=$(count)
[ -n "$n" ] && [ "$n" -gt 0 ] && [ "$n" -lt "$all" ] || ui_fail "filter did not narrow $all events (got $n)"
ui_screen | grep -E '^│ +[+-][0-9.]+s ' | grep -vq 'dataset::GetNext' &&
    ui_fail "filtered list shows other events"
# s: longest first — the listed durations do not increase.
ui_keys s
ui_wait 'by duration \(s\)  /GetNext'
ui_screen | python3 -c '
import re, sys
unit = {"s": 1e6, "ms": 1e3, "µs": 1.0, "us": 1.0}
d = [float(m.group(1)) * unit[m.group(2)] for m in
     (re.match(r"^│ +[+-][0-9.]+s +([0-9.]+) (s|ms|µs|us) ", l) for l in sys.stdin) if m]
sys.exit(0 if len(d) > 5 and all(a >= b for a, b in zip(d, d[1:])) else 1)' ||
    ui_fail "events not ordered by duration"
ui_quit
echo "ok: timeline steps / loader / events, $all events, $n GetNext"

# Hand-made traces (tests/integration has no generator for these shapes):
# `noload` has steps and forward passes only; `workers` adds three
# DataLoaderWorker spans in parallel per step and a DataLoaderIter::GetNext.
trace_job() {
    python3 - "$1" "$2" <<'PY'
import json, os, sys, time
out, kind = sys.argv[1], sys.argv[2]
t0 = int((time.time() - 120) * 1e6)
names = ["Step:ModeKeys.TRAIN", "Forward", "DataLoader"]
evs = [{"name": "process_name", "ph": "M", "pid": 0,
        "args": {"start_time_since_epoch_in_micros": t0}}]
evs += [{"name": "process_name", "ph": "M", "pid": i + 1, "args": {"name": n}}
        for i, n in enumerate(names)]
for i in range(60):
    at, step = i * 100000, {"step_num": str(i)}
    evs.append({"name": "Step", "ph": "X", "pid": 1, "ts": at, "dur": 90000, "args": step})
    evs.append({"name": "fwd", "ph": "X", "pid": 2, "ts": at + 1000, "dur": 50000, "args": step})
    if kind == "workers":
        for k in range(3):
            evs.append({"name": "DataLoaderWorker", "ph": "X", "pid": 3,
                        "ts": at + 1000 * k, "dur": 80000})
        evs.append({"name": "DataLoaderIter::GetNext", "ph": "X", "pid": 3,
                    "ts": at + 85000, "dur": 2000 + 100 * i})
end = t0 + 59 * 100000 + 90000
d = os.path.join(out, "profiler-output/framework/pevents",
                 time.strftime("%Y%m%d%H", time.gmtime(end / 1e6)))
os.makedirs(d)
with open(os.path.join(d, "%d_1-algo-1_pythontimeline.json" % end), "w") as f:
    f.write("[\n" + ",\n".join(json.dumps(e) for e in evs) + "\n]\n")
PY
}
trace_job "$UI_WORK/noload" noload || { echo "FAIL: fixture"; exit 1; }
trace_job "$UI_WORK/workers" workers || { echo "FAIL: fixture"; exit 1; }
for job in noload workers; do
    ui_start 120 40 "$SMTOP" --interval 1 "$UI_WORK/$job"
    ui_wait '[0-9] Timeline'
    ui_focus Timeline
    ui_keys Enter v
    ui_wait 'algo-1 data loading'
    if [ $job = noload ]; then
        ui_wait 'no data-loader events \(framework profiling off, or not a PyTorch/TF data pipeline\)'
    else
        ui_wait 'workers: up to 3 in parallel, 180 events, 1 label'
        ui_wait 'GetNext latency \(60 calls\)'
    fi
    ui_quit
done
echo "ok: data-loader view without loader events, and with three workers"

# Nothing to show: a system-metrics-only job. The pane gives its space
# away; shown on request (5), it says why it is empty.
ui_synth "$UI_WORK/sys" --nodes 1 --gpus 1 --minutes 2 --no-traces
ui_start 120 40 "$SMTOP" "$UI_WORK/sys"
ui_wait 'no framework traces'
ui_wait_gone '5 Timeline'
ui_keys 5
ui_wait '5 Timeline'
ui_wait 'steps\|loader\|events'
ui_wait 'no framework trace events in this job'
ui_quit
echo "ok: metrics-only job"
