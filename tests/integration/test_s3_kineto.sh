#!/usr/bin/env bash
# PyTorch profiler traces on S3 (the loopback rig): a job whose traces are
# in tensorboard-output/ beside profiler-output/ reads as it does from
# disk (same bytes, same report, nothing named), a job with nothing but
# tensorboard-output/ is found, a trace named by --traces s3://…/file is
# read, and one uploaded later is found. (Pass-by-pass reading, a half
# .gz read again once complete and never twice: unit_scan_kineto.)
set -u
SRC=${SMTOP_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$SRC/tests/s3/rig.sh"
rig_require
[ -x "${SMTOP:-}" ] || { echo "SMTOP not set"; exit 1; }

T=$(mktemp -d /tmp/smtop-it-s3k-XXXXXX)
trap 'rig_stop; rm -rf "$T"' EXIT
fails=0
check() { # check NAME COMMAND...
    if "${@:2}"; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi
}

rig_start "$T/rig" || exit 1
rig_env
export XDG_CACHE_HOME="$T/cache" SMTOP_S3_BACKOFF_MS=100
"$SMTOP" synth --kineto --nodes 2 --ranks 2 --minutes 2 --seed 3 --out "$T/job" >/dev/null || exit 1
"$SMTOP" synth --kineto-only --nodes 1 --minutes 2 --seed 4 --out "$T/only" >/dev/null || exit 1
rig_upload bkt job "$T/job" >/dev/null || exit 1
rig_upload bkt only "$T/only" >/dev/null || exit 1
s3report() { timeout 120 "$SMTOP" report --json "$1" --endpoint-url "$RIG_ENDPOINT" --no-cache "${@:2}"; }
field() { python3 -c 'import json,sys; w=json.load(open(sys.argv[1]))["warnings"]; print(w[sys.argv[2]])' "$1" "$2"; }

timeout 60 "$SMTOP" report --json "$T/job" >"$T/local.json" || exit 1
s3report s3://bkt/job/ >"$T/s3.json" 2>"$T/err"
check "job with tensorboard-output/ on S3 exits 0" test $? -eq 0
check "same report as from disk" python3 "$RIG_HOME/jsoncmp.py" "$T/local.json" "$T/s3.json" source
tb=$(cat "$T"/job/tensorboard-output/* | wc -c)
sys=$(find "$T/job/profiler-output" -type f -exec cat {} + | wc -c)
check "every trace byte read" test "$(field "$T/s3.json" bytes_read)" = $((tb + sys))
check "nothing named" test "$(field "$T/s3.json" unread_files)" = 0

s3report s3://bkt/only/ >"$T/only.json" 2>"$T/err"
check "traces-only job found on S3" test $? -eq 0
check "traces-only: every byte" test "$(field "$T/only.json" bytes_read)" = "$(cat "$T"/only/tensorboard-output/* | wc -c)"

one=$(cd "$T/only/tensorboard-output" && ls | head -1)
s3report s3://bkt/job/ --traces "s3://bkt/only/tensorboard-output/$one" >"$T/one.json" 2>"$T/err"
check "--traces s3://file exits 0" test $? -eq 0
check "--traces s3://file read" test "$(field "$T/one.json" bytes_read)" = \
    $((tb + sys + $(wc -c <"$T/only/tensorboard-output/$one")))

# a new cycle's trace uploaded later
mkdir -p "$T/late/tensorboard-output"
late=$(cd "$T/job/tensorboard-output" && ls | tail -1)
cp "$T/job/tensorboard-output/$late" "$T/late/tensorboard-output/algo-9_1.1795899999999999999.pt.trace.json.gz"
rig_upload bkt job "$T/late" >/dev/null || exit 1
s3report s3://bkt/job/ >"$T/after.json" 2>"$T/err"
check "a trace uploaded later is read" test "$(field "$T/after.json" bytes_read)" = \
    $((tb + sys + $(wc -c <"$T/late/tensorboard-output/"*)))

[ "$fails" = 0 ] && echo "PASS" || echo "$fails failure(s)"
[ "$fails" = 0 ]
