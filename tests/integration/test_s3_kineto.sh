#!/usr/bin/env bash
# PyTorch profiler traces on S3 (the loopback rig): a job whose traces are
# in tensorboard-output/ beside profiler-output/ reads as it does from
# disk (same bytes, same report, nothing named), a job with nothing but
# tensorboard-output/ is found, a trace named by --traces s3://…/file is
# read, one uploaded later is found, and one of 24 MiB is read in 8 MiB
# ranged pieces to the same report. (Pass-by-pass reading, a half
# .gz read again once complete and never twice: unit_scan_kineto.)
: "${SMTOP:?SMTOP not set}"
source "$(dirname "$0")/it_lib.sh"
SRC=${SMTOP_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$SRC/tests/s3/rig.sh"
rig_require
it_on_exit rig_stop

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
it_check "job with tensorboard-output/ on S3 exits 0" test $? -eq 0
it_check "same report as from disk" python3 "$RIG_HOME/jsoncmp.py" "$T/local.json" "$T/s3.json" source
tb=$(cat "$T"/job/tensorboard-output/* | wc -c)
sys=$(find "$T/job/profiler-output" -type f -exec cat {} + | wc -c)
it_check "every trace byte read" test "$(field "$T/s3.json" bytes_read)" = $((tb + sys))
it_check "nothing named" test "$(field "$T/s3.json" unread_files)" = 0

s3report s3://bkt/only/ >"$T/only.json" 2>"$T/err"
it_check "traces-only job found on S3" test $? -eq 0
it_check "traces-only: every byte" test "$(field "$T/only.json" bytes_read)" = "$(cat "$T"/only/tensorboard-output/* | wc -c)"

one=$(cd "$T/only/tensorboard-output" && ls | head -1)
s3report s3://bkt/job/ --traces "s3://bkt/only/tensorboard-output/$one" >"$T/one.json" 2>"$T/err"
it_check "--traces s3://file exits 0" test $? -eq 0
it_check "--traces s3://file read" test "$(field "$T/one.json" bytes_read)" = \
    $((tb + sys + $(wc -c <"$T/only/tensorboard-output/$one")))

# a new cycle's trace uploaded later
mkdir -p "$T/late/tensorboard-output"
late=$(cd "$T/job/tensorboard-output" && ls | tail -1)
cp "$T/job/tensorboard-output/$late" "$T/late/tensorboard-output/algo-9_1.1795899999999999999.pt.trace.json.gz"
rig_upload bkt job "$T/late" >/dev/null || exit 1
s3report s3://bkt/job/ >"$T/after.json" 2>"$T/err"
it_check "a trace uploaded later is read" test "$(field "$T/after.json" bytes_read)" = \
    $((tb + sys + $(wc -c <"$T/late/tensorboard-output/"*)))

# a plain trace of several 8 MiB ranged reads (scan_stream), padded with
# JSON's trailing blanks to exactly three pieces: the fourth read starts
# at its end (416) and ends it
"$SMTOP" synth --kineto-only --kineto-plain --nodes 1 --minutes 4 --kineto-active 400 \
    --kineto-every 100000 --seed 6 --out "$T/big" >/dev/null || exit 1
bigf=$(find "$T/big" -name '*.pt.trace.json')
python3 - "$bigf" <<'PY' || exit 1
import os, sys
n = os.path.getsize(sys.argv[1])
assert 16 << 20 < n <= 24 << 20, n
with open(sys.argv[1], "ab") as f:
    f.write(b" " * ((24 << 20) - n))
PY
rig_upload bkt big "$T/big" >/dev/null || exit 1
timeout 60 "$SMTOP" report --json "$T/big" >"$T/big_local.json" || exit 1
s3report s3://bkt/big/ >"$T/big_s3.json" 2>"$T/err"
it_check "a 24 MiB trace in pieces: exits 0" test $? -eq 0
it_check "a 24 MiB trace in pieces: same report as from disk" \
    python3 "$RIG_HOME/jsoncmp.py" "$T/big_local.json" "$T/big_s3.json" source
it_check "a 24 MiB trace in pieces: every byte once" \
    test "$(field "$T/big_s3.json" bytes_read)" = $((24 << 20))
it_check "a 24 MiB trace in pieces: its steps" python3 -c '
import json, sys
g = json.load(open(sys.argv[1]))["gpu"]
assert len(g) == 1 and g[0]["traces"] == 1 and g[0]["steps"] >= 300, g' "$T/big_s3.json"

[ "$fails" = 0 ] && echo "PASS" || echo "$fails failure(s)"
[ "$fails" = 0 ]
