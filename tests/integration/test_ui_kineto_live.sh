#!/bin/bash
# Live PyTorch profiler traces (issue 25, "Live"): a dashboard open on a
# Kineto job shows each new profiling cycle within one scan interval. The
# job's last cycles are held back, then put in one at a time as
# tensorboard_trace_handler leaves them (a plain trace renamed from .tmp,
# a .gz whole); after each, the Steps pane's step count must grow within
# --interval plus 1.5 s of slack (the screen polled every 0.1 s). The
# latencies are printed.
source "$(dirname "$0")/ui_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
IV=2
SLACK_MS=1500
WITHIN=$(printf '%d.%03d' $(((IV * 1000 + SLACK_MS) / 1000)) $(((IV * 1000 + SLACK_MS) % 1000)))

JOB="$UI_WORK/job"
ui_synth "$JOB" --kineto --kineto-only --nodes 1 --ranks 1 --minutes 2
TB="$JOB/tensorboard-output"
mkdir "$UI_WORK/held"
held=$(ls "$TB" | sort | tail -3)
for f in $held; do mv "$TB/$f" "$UI_WORK/held/"; done
# one of them plain, as a plain trace is written (.tmp, then a rename)
first=$(echo "$held" | head -1)
gunzip "$UI_WORK/held/$first"

steps_n() {     # the Steps pane's count of TRAIN steps: "n 21  mean …"
    ui_screen | grep -oE '│n [0-9]+ +mean' | head -1 | grep -oE '[0-9]+'
}
now_ms() { date +%s%3N; }
steps_grew() { m=$(steps_n); [ -n "$m" ] && [ "$m" -gt "$n" ]; }

ui_start 200 50 "$SMTOP" --no-config --interval "$IV" "$JOB"
ui_wait '│n [0-9]+ +mean' 30
ui_wait 'scanned [0-9]+ s ago' 30
# The count to grow from, once it holds still: the panes may draw the
# pass before last for a moment after the status line says "scanned".
s=$(ui_steady '│n [0-9]+ +mean' 30) || exit 1
n=$(grep -oE '[0-9]+' <<<"$s")
worst=0
for f in $held; do
    if [ -e "$UI_WORK/held/$f" ]; then
        cp "$UI_WORK/held/$f" "$TB/.$f.part" && mv "$TB/.$f.part" "$TB/$f"
    else
        f=${f%.gz}
        cp "$UI_WORK/held/$f" "$TB/$f.tmp" && mv "$TB/$f.tmp" "$TB/$f"
    fi
    t0=$(now_ms)
    ui_poll -every 0.1 "$WITHIN" steps_grew ||
        ui_fail "cycle $f not shown within ${IV} s + ${SLACK_MS} ms (steps still $m)"
    dt=$(( $(now_ms) - t0 ))
    echo "cycle $f: steps $n -> $m in $dt ms (interval ${IV} s)"
    (( dt > worst )) && worst=$dt
    n=$m
done
# the count is the whole job's once every cycle is in
want=$("$SMTOP" report --json "$JOB" | python3 -c '
import json, sys
r = json.load(sys.stdin)
print(sum(s["count"] for s in r["steps"] if s["phase"] == "Step:ModeKeys.TRAIN" and s["process"] is None))')
[ "$n" = "$want" ] || ui_fail "Steps shows $n steps, the report $want"
ui_quit
echo "ok: 3 new cycles each shown within one ${IV} s scan interval (worst $worst ms)"
