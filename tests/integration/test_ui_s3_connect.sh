#!/bin/bash
# S3 at first contact, against the loopback rig and a closed port:
# - an S3 prefix with no objects yet: the dashboard opens, says it waits
#   for the first data there with the time waited, and shows the job as
#   soon as it is uploaded;
# - an endpoint nothing listens on: the dashboard draws at once and says
#   "connecting to 127.0.0.1:PORT (attempt N/5)", then the reason; q quits;
#   `report` fails within 10 s with the usual message, exit 1;
# - a slow but live endpoint (answers 2 s late, then 503s): report and
#   the dashboard still read the whole job.
source "$(dirname "$0")/ui_lib.sh"
. "$SMTOP_SRC/tests/s3/rig.sh"
rig_require
trap 'rig_stop; ui_cleanup' EXIT

rig_start "$UI_WORK/rig" || exit 1
rig_env
export XDG_CACHE_HOME="$UI_WORK/cache"
unset SMTOP_S3_BACKOFF_MS   # the default backoff: the 10 s bound is the user's
rig_s3env

# --- an empty prefix: wait, then show the data once it is there
mkdir -p "$UI_WORK/nothing"
rig_upload bkt other "$UI_WORK/nothing" >/dev/null || exit 1   # the bucket, empty
ui_start 160 40 "${S3ENV[@]}" "$SMTOP" --interval 1 --endpoint-url "$RIG_ENDPOINT" s3://bkt/newjob
ui_wait 'waiting for the first data \([0-9]+ s so far\) in s3://bkt/newjob' 15
ui_wait 'WAITING *$'
ui_wait 'waiting for the first data \([2-9] s so far\)' 15    # the clock runs
"$SMTOP" synth --out "$UI_WORK/job/profiler-output" --nodes 2 --minutes 2 --seed 5 >/dev/null
rig_upload bkt newjob "$UI_WORK/job" >/dev/null || exit 1
ui_wait '2 nodes' 30
ui_wait 's3://bkt/newjob/profiler-output'
ui_wait 'algo-2'
ui_wait_gone 'waiting for the first data'
ui_quit
echo "ok: empty S3 prefix waited for, then shown"

# --- nothing listens: draw at once, say what is happening
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
ui_start 160 40 "${S3ENV[@]}" "$SMTOP" --endpoint-url "http://127.0.0.1:$PORT" s3://bkt/job
ui_wait "connecting to 127.0.0.1:$PORT \\(attempt [1-5]/5" 5   # at once: not after the tries
ui_wait '^ smtop \| s3://bkt/job \|'
ui_wait "S3 unreachable \\(http://127.0.0.1:$PORT\\)" 20
ui_quit
echo "ok: unreachable endpoint: drawn at once, attempts shown"

start=$EPOCHREALTIME
"${S3ENV[@]}" "$SMTOP" report --endpoint-url "http://127.0.0.1:$PORT" s3://bkt/job \
    >/dev/null 2>"$UI_WORK/err"
rc=$?
stop=$EPOCHREALTIME   # read by bash itself: no process start-up in the figure
took=$(python3 -c "import sys; print(f'{float(sys.argv[2])-float(sys.argv[1]):.1f}')" "$start" "$stop")
[ "$rc" = 1 ] || { cat "$UI_WORK/err"; echo "FAIL: report on a closed port exited $rc, want 1"; exit 1; }
grep -q "S3 unreachable (http://127.0.0.1:$PORT): .* — check the network and --endpoint-url" \
    "$UI_WORK/err" || { cat "$UI_WORK/err"; echo "FAIL: report message"; exit 1; }
python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < 10 else 1)" "$took" ||
    { echo "FAIL: report took ${took}s on a closed port (want < 10 s)"; exit 1; }
echo "ok: report gave up after ${took}s: $(cat "$UI_WORK/err")"

# --- dead ends that never answer: SYNs dropped (a firewall, an unroutable
# address) and a connection accepted but never answered (a hung proxy);
# both on 127.0.0.1 (tests/s3/deadend.py). Same bounds as a closed port.
for kind in blackhole silent; do
    python3 "$SMTOP_SRC/tests/s3/deadend.py" "$kind" 90 >"$UI_WORK/port-$kind" 2>"$UI_WORK/err" &
    dead=$!
    end=$((SECONDS + 15))
    while [ ! -s "$UI_WORK/port-$kind" ] && kill -0 $dead 2>/dev/null && ((SECONDS < end)); do sleep 0.1; done
    DPORT=$(cat "$UI_WORK/port-$kind")
    [ -n "$DPORT" ] || { cat "$UI_WORK/err"; echo "FAIL: deadend.py $kind did not start"; exit 1; }
    ui_start 160 40 "${S3ENV[@]}" "$SMTOP" --endpoint-url "http://127.0.0.1:$DPORT" s3://bkt/job
    ui_wait "connecting to 127.0.0.1:$DPORT \\(attempt [1-5]/5" 5
    ui_wait '^ smtop \| s3://bkt/job \|'
    ui_wait "S3 unreachable \\(http://127.0.0.1:$DPORT\\)" 20
    ui_quit
    start=$EPOCHREALTIME
    "${S3ENV[@]}" "$SMTOP" report --endpoint-url "http://127.0.0.1:$DPORT" s3://bkt/job \
        >/dev/null 2>"$UI_WORK/err"
    rc=$?
    stop=$EPOCHREALTIME   # read by bash itself: no process start-up in the figure
    took=$(python3 -c "import sys; print(f'{float(sys.argv[2])-float(sys.argv[1]):.1f}')" "$start" "$stop")
    kill $dead 2>/dev/null
    wait $dead 2>/dev/null
    [ "$rc" = 1 ] || { cat "$UI_WORK/err"; echo "FAIL: report on a $kind endpoint exited $rc, want 1"; exit 1; }
    grep -q "S3 unreachable (http://127.0.0.1:$DPORT): .* — check the network and --endpoint-url" \
        "$UI_WORK/err" || { cat "$UI_WORK/err"; echo "FAIL: report message ($kind)"; exit 1; }
    python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < 10 else 1)" "$took" ||
        { echo "FAIL: report took ${took}s on a $kind endpoint (want < 10 s)"; exit 1; }
    echo "ok: $kind endpoint: drawn at once; report gave up after ${took}s: $(cat "$UI_WORK/err")"
done

# --- slow but live: late answers and a 503 storm are waited out
rig_upload bkt job "$UI_WORK/job" >/dev/null || exit 1
"$SMTOP" report --json "$UI_WORK/job/profiler-output" >"$UI_WORK/local.json" || exit 1
rig_reset
rig_fault '{"kind":"delay","count":3,"ms":2000}'
rig_fault '{"kind":"503","count":3}'
"${S3ENV[@]}" timeout 120 "$SMTOP" report --json --no-cache --endpoint-url "$RIG_ENDPOINT" \
    s3://bkt/job/profiler-output >"$UI_WORK/slow.json" 2>"$UI_WORK/err" ||
    { cat "$UI_WORK/err"; echo "FAIL: report on a slow endpoint"; exit 1; }
[ "$(rig_stat faults_fired)" -ge 6 ] || { echo "FAIL: the faults did not fire"; exit 1; }
"$SMTOP_SRC/tests/tools/schema_ok.sh" "$UI_WORK/local.json" "$UI_WORK/slow.json" || exit 1
python3 "$RIG_HOME/jsoncmp.py" "$UI_WORK/local.json" "$UI_WORK/slow.json" source ||
    { echo "FAIL: slow endpoint report differs from the local one"; exit 1; }
echo "ok: slow endpoint: report complete"

rig_reset
rig_fault '{"kind":"delay","count":3,"ms":2000}'
rig_fault '{"kind":"503","count":3}'
ui_start 160 40 "${S3ENV[@]}" "$SMTOP" --no-cache --endpoint-url "$RIG_ENDPOINT" s3://bkt/job
ui_wait '^ smtop \| s3://bkt/job' 5
ui_wait '2 nodes' 60
ui_wait 'algo-2'
ui_quit
echo "ok: slow endpoint: dashboard shows the job"
