#!/usr/bin/env bash
# End to end: `smtop report --json s3://...` against the loopback rig
# (s3rver behind the strict SigV4 front) must equal the report of the same
# job read from disk — cold, from the cache, with a corrupted cache entry,
# through a 503 storm, and with the server killed mid-scan and restarted.
# Also: a wrong secret gives one clear message and never prints the secret.
: "${SMTOP:?SMTOP not set}"
source "$(dirname "$0")/it_lib.sh"
SRC=${SMTOP_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$SRC/tests/s3/rig.sh"
rig_require
it_on_exit rig_stop

rig_start "$T/rig" || exit 1
rig_env
export XDG_CACHE_HOME="$T/cache" SMTOP_S3_BACKOFF_MS=100
"$SMTOP" synth --out "$T/job/profiler-output" --nodes 2 --minutes 3 --seed 7 >/dev/null || exit 1
rig_upload bkt job "$T/job" >/dev/null || exit 1
URL=s3://bkt/job/profiler-output
s3report() { timeout 120 "$SMTOP" report --json "$URL" --endpoint-url "$RIG_ENDPOINT" "$@"; }
same() { "$SMTOP_SRC/tests/tools/schema_ok.sh" "$1" && python3 "$RIG_HOME/jsoncmp.py" "$T/local.json" "$1" source; }

timeout 60 "$SMTOP" report --json "$T/job/profiler-output" >"$T/local.json" || exit 1

# cold, no cache
rig_reset
s3report --no-cache >"$T/cold.json" 2>"$T/cold.err"
it_check "cold report exits 0" test $? -eq 0
it_check "cold report equals local report" same "$T/cold.json"
cold_bytes=$(rig_stat bytes)

# the cache: first open fills it, second transfers <= 5 %
s3report >"$T/c1.json" 2>/dev/null
rig_reset
s3report >"$T/c2.json" 2>/dev/null
warm_bytes=$(rig_stat bytes)
echo "bytes from server: cold $cold_bytes, from cache $warm_bytes"
it_check "cached report equals local report" same "$T/c2.json"
it_check "second open transfers <= 5 % of the first" test $((warm_bytes * 20)) -le "$cold_bytes"
it_check "second open sends no object GET" test "$(rig_stat get_object)" -eq 0

# a corrupted entry is dropped and refetched, result unchanged. The entry
# must hold an object, not the cached listing (its id starts "\001listing";
# its file name hashes the rig's random port, so `ls` order alone picked it
# now and then, and no GET followed)
entry=
for f in "$XDG_CACHE_HOME"/smtop/*.zst; do
    grep -qaF $'\001listing' "$f" || { entry=$f; break; }
done
it_check "the cache holds an object entry to corrupt" test -n "$entry"
printf 'garbage' | dd of="$entry" bs=1 seek=40 conv=notrunc status=none
rig_reset
s3report >"$T/c3.json" 2>/dev/null
it_check "corrupted entry refetched (exactly one GET)" test "$(rig_stat get_object)" -eq 1
it_check "report after corruption equals local report" same "$T/c3.json"

# 503 storm (5 in a row, below the 8 attempts a request gets): backoff
# and still the same answer
rig_reset
rig_fault '{"kind":"503","count":3}'
rig_fault '{"kind":"slowdown","count":2}'
s3report --no-cache >"$T/storm.json" 2>"$T/storm.err"
it_check "503 storm: report exits 0" test $? -eq 0
it_check "503 storm: all five faults were served" test "$(rig_stat faults_fired)" -eq 5
it_check "503 storm: report equals local report" same "$T/storm.json"

# server killed mid-scan (while a GET stalls), restarted 1 s later
rig_reset
rig_fault '{"kind":"stall","count":1,"after":3}'
SMTOP_S3_STALL_TIMEOUT=2 s3report --no-cache --s3-parallel 2 >"$T/kill.json" 2>"$T/kill.err" &
rp=$!
for _ in $(seq 1 200); do
    [ "$(rig_stat get_object 2>/dev/null || echo 0)" -ge 1 ] 2>/dev/null && break
    sleep 0.05
done
rig_kill
sleep 1
rig_restart || exit 1
wait "$rp"
rc=$?
it_check "killed+restarted server: report exits 0" test "$rc" -eq 0
it_check "killed+restarted server: totals equal a clean run" same "$T/kill.json"

# wrong secret: one clear message, exit 1, secret never printed
AWS_SECRET_ACCESS_KEY='Wr0ng/Secret+Value' s3report --no-cache >/dev/null 2>"$T/bad.err"
rc=$?
it_check "wrong secret exits 1" test "$rc" -eq 1
it_check "wrong secret names the cause" grep -q "SignatureDoesNotMatch from S3: the secret key for the environment variables is wrong" "$T/bad.err"
it_check "secret not printed" bash -c "! grep -rq 'Wr0ng/Secret' '$T/bad.err' '$T/kill.err' '$T/cold.err'"

if [ "$fails" -ne 0 ]; then
    echo "stderr of the wrong-secret run:"; cat "$T/bad.err"
    echo "$fails check(s) failed"
    exit 1
fi
echo "all S3 end-to-end checks passed"
