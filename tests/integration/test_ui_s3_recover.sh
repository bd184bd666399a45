#!/bin/bash
# The status line tells the truth once S3 recovers: an AccessDenied (403)
# shown while a bucket policy denies, and "S3 unreachable" during an
# outage, both go away within a scan or two after S3 answers again, and
# the data written meanwhile is shown.
source "$(dirname "$0")/ui_lib.sh"
. "$SMTOP_SRC/tests/s3/rig.sh"
rig_require
trap 'rig_stop; ui_cleanup' EXIT

rig_start "$UI_WORK/rig" || exit 1
rig_env
export XDG_CACHE_HOME="$UI_WORK/cache"
rig_s3env SMTOP_S3_BACKOFF_MS=100 SMTOP_S3_CONNECT_TIMEOUT=1

"$SMTOP" synth --out "$UI_WORK/job/profiler-output" --nodes 2 --minutes 2 --seed 5 >/dev/null
rig_upload bkt job "$UI_WORK/job" >/dev/null || exit 1

# --- 403 while the policy denies, then allowed again
rig_fault '{"kind":"403","count":1000000}'
ui_start 200 40 "${S3ENV[@]}" "$SMTOP" --interval 1 --endpoint-url "$RIG_ENDPOINT" s3://bkt/job
ui_wait '403' 20
echo "ok: denied: $(ui_screen | grep -o '403.\{0,60\}' | head -1)"
rig_reset
ui_wait '2 nodes' 30
ui_wait_gone '403|AccessDenied|may not read' 10
echo "ok: the 403 left the status line once S3 allowed the reads"

# --- an outage (nothing listens), then the same endpoint back
rig_kill
ui_wait 'unreachable|connect|refused' 30
echo "ok: outage shown: $(ui_screen | grep -Eo '(S3 unreachable|connecting).{0,50}' | head -1)"
"$SMTOP" synth --out "$UI_WORK/job2/profiler-output" --nodes 3 --minutes 2 --seed 5 >/dev/null
rig_restart || exit 1
rig_upload bkt job "$UI_WORK/job2" >/dev/null || exit 1
ui_wait '3 nodes' 40
ui_wait_gone 'unreachable|connecting to|refused' 10
echo "ok: the outage left the status line once S3 was back, new data shown"
ui_quit
