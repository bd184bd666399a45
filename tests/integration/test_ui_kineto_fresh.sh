#!/bin/bash
# A job seen through PyTorch profiler traces alone writes once a profiling
# cycle, so its header badge follows the cycle, not the 500 ms system
# sampling: LIVE while the newest trace is within 1.5 cycles (at least
# 2 minutes), STALE after that, "LAST TRACE N ago" while only one cycle
# was seen (the cadence is unknown), ENDED after an hour. The badge used
# to say STALE 15 s after every cycle.
source "$(dirname "$0")/ui_lib.sh"

now=$(date +%s)
# The newest trace's time, from tensorboard_trace_handler's name
# (algo-1_PID.<ns>.pt.trace.json.gz).
newest_trace() {
    find "$1/tensorboard-output" -name '*.pt.trace.json.gz' |
        sed -E 's/.*\.([0-9]{19})\.pt\.trace\.json\.gz$/\1/' | sort -n | tail -1 |
        awk '{ printf "%d\n", $1 / 1e9 }'
}
badge() { ui_screen | head -1 | grep -oE '(LIVE|STALE [0-9]+ [smhdy]|(ENDED|LAST TRACE) [0-9]+ [smhdy] ago) *$'; }
look() {   # JOB: the badge once the traces are read
    ui_start 120 30 "$SMTOP" --interval 1 "$1"
    ui_wait 'Kineto ops \| .*all [0-9]+ ranks' 30   # the traces are read
    ui_wait "$UI_FOLLOW" 20
}

# Cycles every 700 steps (about 90 s): the newest trace may be up to a
# cycle old while the job runs.
ui_synth_k() { "$SMTOP" synth --out "$1" --seed 3 --kineto-only --outlier-rate 0 "${@:2}" \
    >/dev/null || ui_fail "synth"; }
ui_synth_k "$UI_WORK/cycles" --minutes 5 --kineto-every 700
t=$(newest_trace "$UI_WORK/cycles")
while (($(date +%s) - t < 20)); do sleep 1; done   # past the old 15 s limit
look "$UI_WORK/cycles"
age=$(($(date +%s) - t))
b=$(badge)
if ((age <= 120)); then
    [[ $b == LIVE* ]] || ui_fail "newest trace ${age}s old, cycles ~90 s apart: '$b', want LIVE"
    echo "ok: LIVE with the newest trace ${age} s old (cycles about 90 s apart)"
else
    echo "note: newest trace already ${age}s old; the LIVE case was not checked"
fi
ui_quit

# The same job 6 minutes later: more than 1.5 cycles late.
ui_synth_k "$UI_WORK/late" --minutes 5 --start $((now - 660)) --kineto-every 700
look "$UI_WORK/late"
[[ $(badge) == STALE* ]] || ui_fail "a trace 4+ cycles late: '$(badge)', want STALE"
echo "ok: STALE past 1.5 cycles"
ui_quit

# One cycle, 2.5 minutes ago: no cadence to be late against.
ui_synth_k "$UI_WORK/one" --minutes 5 --start $((now - 390)) --kineto-every 2000
look "$UI_WORK/one"
[[ $(badge) =~ ^LAST\ TRACE\ [0-9]+\ m\ ago ]] ||
    ui_fail "one cycle 2+ minutes old: '$(badge)', want 'LAST TRACE N m ago'"
echo "ok: $(badge) for a single cycle"
ui_quit

# Two hours ago: ENDED.
ui_synth_k "$UI_WORK/old" --minutes 5 --start $((now - 7200)) --kineto-every 700
look "$UI_WORK/old"
[[ $(badge) == ENDED* ]] || ui_fail "traces 2 h old: '$(badge)', want ENDED"
echo "ok: ENDED after an hour"
ui_quit
