#!/usr/bin/env bash
# A reopened S3 job (dashboard-style: passes repeat) draws its first frame
# from the cached listing and cached objects, with no ListObjects and no
# GET; the next pass lists for real, so an object added between the runs
# appears, and a one-pass `report` never trusts the cached listing.
: "${SMTOP:?SMTOP not set}"
source "$(dirname "$0")/it_lib.sh"
SRC=${SMTOP_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$SRC/tests/s3/rig.sh"
rig_require
PASSES=${SMTOP_BUILD:-$SRC/build}/tests/s3_list_passes
[ -x "$PASSES" ] || { echo "s3_list_passes not built: $PASSES"; exit 1; }

it_on_exit rig_stop
field() { sed -n "s/.*$2=\([0-9]*\).*/\1/p" "$1"; }

rig_start "$T/rig" || exit 1
rig_env
export XDG_CACHE_HOME="$T/cache" SMTOP_S3_BACKOFF_MS=100
"$SMTOP" synth --out "$T/job/profiler-output" --nodes 2 --minutes 3 --seed 7 \
    --no-traces >/dev/null || exit 1
rig_upload bkt job "$T/job" >/dev/null || exit 1
URL=s3://bkt/job/profiler-output
hook="curl -s http://127.0.0.1:$RIG_CTL/stats >$T/at_first_frame.json"
stat_at() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }

# First open: nothing cached, the first pass lists for real.
timeout 120 "$PASSES" "$URL" "$RIG_ENDPOINT" 2 "$hook" >"$T/run1.out" 2>&1
it_check "first open runs" test $? -eq 0
it_check "first open's first pass is not from a cache" grep -q "^pass=1 .*cached=0" "$T/run1.out"
it_check "first open lists" test "$(stat_at "$T/at_first_frame.json" list)" -gt 0

# A third node's metrics arrive between the runs.
"$SMTOP" synth --out "$T/job3/profiler-output" --nodes 3 --minutes 3 --seed 7 \
    --no-traces >/dev/null || exit 1
mkdir -p "$T/add"
(cd "$T/job3" && find . -type f -name '*algo-3*' | while read -r f; do
    mkdir -p "$T/add/$(dirname "$f")" && cp "$f" "$T/add/$f"; done)
it_check "the added node has files" test "$(find "$T/add" -type f | wc -l)" -gt 0
rig_upload bkt job "$T/add" >/dev/null || exit 1

# Reopen: the first frame comes from the cache alone.
rig_reset
timeout 120 "$PASSES" "$URL" "$RIG_ENDPOINT" 2 "$hook" >"$T/run2.out" 2>&1
it_check "reopen runs" test $? -eq 0
cat "$T/run2.out"
it_check "reopen: first pass from the cached listing" grep -q "^pass=1 .*cached=1" "$T/run2.out"
it_check "reopen: no ListObjects before the first frame" \
    test "$(stat_at "$T/at_first_frame.json" list)" -eq 0
it_check "reopen: no GET before the first frame" \
    test "$(stat_at "$T/at_first_frame.json" get_object)" -eq 0
it_check "reopen: the first frame shows the cached nodes" \
    test "$(grep '^pass=1' "$T/run2.out" | field /dev/stdin nodes)" -eq 2
it_check "reopen: the second pass revalidates" grep -q "^pass=2 .*cached=0" "$T/run2.out"
it_check "reopen: the second pass listed" test "$(rig_stat list)" -gt 0
it_check "reopen: the added node appears after revalidation" \
    test "$(grep '^pass=2' "$T/run2.out" | field /dev/stdin nodes)" -eq 3

# The revalidated listing was saved: a third open starts with 3 nodes.
timeout 120 "$PASSES" "$URL" "$RIG_ENDPOINT" 1 true >"$T/run3.out" 2>&1
it_check "third open: the saved listing has the added node" \
    grep -q "^pass=1 nodes=3 .*cached=1" "$T/run3.out"

# A report is one pass: it lists for real and sees all three nodes.
rig_reset
timeout 120 "$SMTOP" report --json "$URL" --endpoint-url "$RIG_ENDPOINT" >"$T/r.json" 2>/dev/null
it_check "report lists for real" test "$(rig_stat list)" -gt 0
it_check "report sees the added node" \
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if len({u["node"] for u in r["device_usage"]})==3 else 1)' "$T/r.json"

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "all passed"
