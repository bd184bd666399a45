#!/bin/bash
# A live job whose later cycles change bottleneck changes its verdict
# within one scan interval of the trace (issue 32, "Done when"). The job's
# first minute is the main-loader shape (the DataLoader on the main
# thread); its later cycles, held back, are the gloo shape's (DDP over
# gloo with CUDA tensors). Once the first verdict shows, the later traces
# are put in as tensorboard_trace_handler leaves them (each .gz whole, by
# a rename); the header's verdict must name gloo within --interval plus
# 1.5 s of slack (the screen polled every 0.1 s), and then read as the
# report of the whole folder does. The latency is printed.
source "$(dirname "$0")/ui_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
IV=2
SLACK_MS=1500
WITHIN=$(printf '%d.%03d' $(((IV * 1000 + SLACK_MS) / 1000)) $(((IV * 1000 + SLACK_MS) % 1000)))
JOB="$UI_WORK/job" LATER="$UI_WORK/later"
"$SMTOP" synth --out "$JOB" --shape main-loader --minutes 1 --seed 4 --start 1700000000 \
    >/dev/null || ui_fail "synth main-loader"
"$SMTOP" synth --out "$LATER" --shape gloo --minutes 1 --seed 4 --start 1700000100 \
    >/dev/null || ui_fail "synth gloo"
now_ms() { date +%s%3N; }
verdict() { ui_screen | sed -n 2p; }

ui_start 200 50 "$SMTOP" --no-config --interval "$IV" "$JOB"
ui_wait "$UI_FOLLOW" 30
ui_steady 'DataLoader on the main thread[^→]*→ num_workers' 30 >/dev/null || exit 1
ui_wait 'scanned [0-9]+ s ago' 30
TB="$JOB/tensorboard-output"
for f in "$LATER"/tensorboard-output/*; do
    cp "$f" "$TB/.$(basename "$f").part" && mv "$TB/.$(basename "$f").part" "$TB/$(basename "$f")"
done
t0=$(now_ms)
names_gloo() { verdict | grep -q 'gloo all-reduce on the host → use NCCL'; }
ui_poll -every 0.1 "$WITHIN" names_gloo ||
    ui_fail "the verdict did not change within ${IV} s + ${SLACK_MS} ms: $(verdict)"
dt=$(( $(now_ms) - t0 ))
echo "the later cycles' verdict in $dt ms (interval ${IV} s): $(verdict | sed -E 's/^ +//; s/  +.*//')"
# and it is the report's, once every trace is in (the report reads the
# same folder: the system metrics of the later cycles were never added)
want=$("$SMTOP" report --json "$JOB" | python3 -c '
import json, sys
f = json.load(sys.stdin)["verdict"]["findings"][0]
print(f["text"] + ": " + f["why"] + " → " + f["knob"])')
is_report() { verdict | grep -qF -- "$want"; }
ui_poll -every 0.3 20 is_report || ui_fail "the verdict '$(verdict)' is not the report's '$want'"
ui_quit
echo "ok: a new bottleneck named within one ${IV} s interval ($dt ms); the verdict is the report's: $want"
