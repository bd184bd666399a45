#!/bin/bash
# q leaves the dashboard and restores the terminal within 1 s whatever the
# network does: here an S3 endpoint on 127.0.0.1 that accepts connections
# and never answers, so the loader's pass hangs in a GET (curl would wait
# for its stall timeout). loader_stop cancels the pass through the source.
# Also a local job still being read (a big backfill): q ends it at once.
source "$(dirname "$0")/ui_lib.sh"
HANG_PID=
trap '[ -n "$HANG_PID" ] && kill "$HANG_PID" 2>/dev/null; ui_cleanup' EXIT

python3 "$SMTOP_SRC/tests/integration/hang_server.py" >"$UI_WORK/port" &
HANG_PID=$!
for _ in $(seq 100); do [ -s "$UI_WORK/port" ] && break; sleep 0.05; done
PORT=$(cat "$UI_WORK/port")
[ -n "$PORT" ] || { echo "FAIL: the hanging server did not start"; exit 1; }

S3ENV=(env AWS_ACCESS_KEY_ID=AKIDEXAMPLE AWS_SECRET_ACCESS_KEY=secret
       AWS_SHARED_CREDENTIALS_FILE=/nonexistent AWS_CONFIG_FILE=/nonexistent
       AWS_EC2_METADATA_DISABLED=true AWS_REGION=us-east-1 XDG_CACHE_HOME="$UI_WORK/cache")

# q_exit_ms: presses q, returns (prints) ms until the pane says SMTOP_EXIT.
q_exit_ms() {
    local t0 t1
    t0=$(date +%s%N)
    ui_keys q
    while ! ui_screen | grep -q 'SMTOP_EXIT='; do
        (( ($(date +%s%N) - t0) / 1000000 > 15000 )) && break
        sleep 0.02
    done
    t1=$(date +%s%N)
    echo $(( (t1 - t0) / 1000000 ))
}

ui_start 160 40 "${S3ENV[@]}" "$SMTOP" --endpoint-url "http://127.0.0.1:$PORT" s3://bkt/job
ui_wait '^ smtop \| s3://bkt/job' 5
sleep 1   # the first GET is in flight and hanging now
ms=$(q_exit_ms)
ui_screen | grep -q 'SMTOP_EXIT=0' || ui_fail "smtop did not exit 0 after q"
! ui_screen | grep -Eq 'help  q quit|smtop \|' || ui_fail "dashboard left on screen"
echo "q to exit with a hanging S3 GET: ${ms} ms"
(( ms < 1000 )) || { echo "FAIL: q took ${ms} ms with a hanging endpoint (want < 1000)"; exit 1; }

ui_synth "$UI_WORK/big" --nodes 32 --gpus 8 --minutes 10
ui_start 160 40 "$SMTOP" "$UI_WORK/big"
ui_wait '^ smtop \|' 5
ms=$(q_exit_ms)
ui_screen | grep -q 'SMTOP_EXIT=0' || ui_fail "smtop did not exit 0 after q"
echo "q to exit while backfilling a 32-node job: ${ms} ms"
(( ms < 1000 )) || { echo "FAIL: q took ${ms} ms during a backfill (want < 1000)"; exit 1; }
echo "ok: q exits within 1 s, network hanging or backfill running"
