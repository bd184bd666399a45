#!/usr/bin/env bash
# bench_s3: time to a complete `smtop report --json` for a 2,000-object job
# served by the loopback S3 rig (s3rver behind the SigV4-verifying front),
# side by side in one run:
#   parallel  cold open, --no-cache, default 8 transfers
#   serial    cold open, --no-cache --s3-parallel 1 (the baseline)
#   cache     second open of the finished job from the zstd cache
#   local     the same tree read from disk (floor)
#   server    the same GETs issued by curl itself (`--parallel-max 8`,
#             `--aws-sigv4`, no listing, no decoding) through the same
#             verifying front: the floor any client gets from this rig
#   reopen    time to the dashboard's first frame with every node's newest
#             minute (bench_first_frame, a loader as the dashboard runs it)
#             on a reopen whose objects are cached; with BASE_BUILD=DIR
#             (a baseline tree's build directory) the baseline's loader is
#             timed in the same run, alternating
# Prints per-mode medians of RUNS runs and the ratios.
#   usage: tests/bench/bench_s3.sh [BUILD_DIR] [RUNS]   (default build, 5)
set -eu
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$SRC/build}
RUNS=${2:-5}
SMTOP=${SMTOP:-$BUILD/smtop}
. "$SRC/tests/s3/rig.sh"
rig_require
T=$(mktemp -d /tmp/smtop-bench-s3-XXXXXX)
trap 'rig_stop; rm -rf "$T"' EXIT
RIG_MAX_RUNTIME=1800 rig_start "$T/rig"
rig_env
export XDG_CACHE_HOME="$T/cache"

# 8 nodes x 250 minutes = 2,000 system-metrics objects (5 s sampling keeps
# the upload small: ~12 samples x 7 series per object).
"$SMTOP" synth --out "$T/job/profiler-output" --nodes 8 --minutes 250 \
    --interval-ms 5000 --no-traces --start 1700000000 >/dev/null
NEWEST=$((1700000000 + 249 * 60))
n=$(find "$T/job" -type f | wc -l)
bytes=$(du -sb "$T/job" | cut -f1)
rig_upload bkt job "$T/job" >/dev/null
echo "job: $n objects, $bytes bytes; $RUNS runs per mode; $(nproc) cores"

URL=s3://bkt/job/profiler-output
secs() { # secs CMD... -> wall seconds of one run
    local s e
    s=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    e=$(date +%s.%N)
    echo "$e - $s" | bc -l
}
median() { sort -g | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.3f", m}'; }

run_mode() { # run_mode NAME CMD...
    local name=$1 i
    shift
    for i in $(seq 1 "$RUNS"); do secs "$@"; done | median
}
rep() { "$SMTOP" report --json "$URL" --endpoint-url "$RIG_ENDPOINT" "$@"; }

local_t=$(run_mode local "$SMTOP" report --json "$T/job/profiler-output")
{
    echo "aws-sigv4 = \"aws:amz:us-east-1:s3\""
    echo "user = \"$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY\""
    echo "header = \"x-amz-content-sha256: UNSIGNED-PAYLOAD\""
    (cd "$T" && find job -type f | sort) |
        sed "s|^|url = \"$RIG_ENDPOINT/bkt/|; s|\$|\"\noutput = \"/dev/null\"|"
} >"$T/urls.cfg"
server_t=$(run_mode server curl -s --parallel --parallel-max 8 -K "$T/urls.cfg")
# The listing alone, as curl issues it: ListObjectsV2 pages of 1,000 keys,
# each page starting after the last key of the previous one (what a cache
# open cannot skip: it must learn whether the job has new objects).
{
    echo "aws-sigv4 = \"aws:amz:us-east-1:s3\""
    echo "user = \"$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY\""
    echo "header = \"x-amz-content-sha256: UNSIGNED-PAYLOAD\""
    after=""
    (cd "$T" && find job -type f | LC_ALL=C sort) | awk 'NR % 1000 == 0' >"$T/pagekeys"
    while :; do
        q="list-type=2&max-keys=1000&prefix=job%2Fprofiler-output%2F"
        [ -n "$after" ] && q="$q&start-after=$(printf '%s' "$after" | sed 's|/|%2F|g')"
        echo "url = \"$RIG_ENDPOINT/bkt?$q\""
        echo "output = \"/dev/null\""
        after=$(sed -n "$((${page:-0} + 1))p" "$T/pagekeys")
        page=$((${page:-0} + 1))
        [ -z "$after" ] && break
    done
} >"$T/list.cfg"
codes=$(curl -s -K "$T/list.cfg" -w '%{http_code}\n' | sort -u | tr '\n' ' ')
[ "$codes" = "200 " ] || { echo "bench_s3: listing with curl got HTTP $codes" >&2; exit 1; }
list_t=$(run_mode listing curl -s -K "$T/list.cfg")
par_t=$(run_mode parallel rep --no-cache)
ser_t=$(run_mode serial rep --no-cache --s3-parallel 1)
rep >/dev/null # fill the cache
rig_reset
cache_t=$(run_mode cache rep)
cache_bytes=$(( $(rig_stat bytes) / RUNS ))
rig_reset
rep --no-cache >/dev/null
cold_bytes=$(rig_stat bytes)

# Reopen to the first frame: each side's loader on its own cache, filled
# by one full open of that side first.
LIBS="$(pkg-config --libs jansson libzstd libcurl zlib) -lm -lpthread"
ff() { # ff BUILD NAME -> builds $T/ff_NAME
    # shellcheck disable=SC2086
    cc -O2 -I"$SRC" -o "$T/ff_$2" "$SRC/tests/bench/bench_first_frame.c" \
        "$1/libsmtop_io.a" "$1/libsmtop_model.a" $LIBS
}
frame_ms() { # frame_ms NAME -> all_nodes_ms of one reopen
    AWS_ENDPOINT_URL=$RIG_ENDPOINT XDG_CACHE_HOME="$T/cache_$1" \
        "$T/ff_$1" "$URL" 8 "$NEWEST" 60 | sed -n 's/.*all_nodes_ms=\([-0-9]*\).*/\1/p'
}
sides="new"
ff "$BUILD" new
if [ -n "${BASE_BUILD:-}" ]; then
    ff "$BASE_BUILD" base
    sides="base new"
fi
for side in $sides; do
    XDG_CACHE_HOME="$T/cache_$side" rep >/dev/null
    frame_ms "$side" >/dev/null # the loader's own run also saves the listing
done
for i in $(seq 1 "$RUNS"); do
    for side in $sides; do echo "$side $(frame_ms "$side")"; done
done >"$T/frames"
reopen_new=$(awk '$1 == "new" {print $2 / 1000}' "$T/frames" | median)

printf '%-34s %8s s\n' "local directory (floor)" "$local_t"
printf '%-34s %8s s\n' "curl alone, signed, 8 parallel" "$server_t"
printf '%-34s %8s s\n' "listing alone, curl, $page pages" "$list_t"
printf '%-34s %8s s\n' "S3 cold, serial (--s3-parallel 1)" "$ser_t"
printf '%-34s %8s s\n' "S3 cold, parallel (8)" "$par_t"
printf '%-34s %8s s\n' "S3 from cache" "$cache_t"
printf '%-34s %8s s\n' "reopen, first frame (cached)" "$reopen_new"
if [ -n "${BASE_BUILD:-}" ]; then
    reopen_base=$(awk '$1 == "base" {print $2 / 1000}' "$T/frames" | median)
    printf '%-34s %8s s   (base / new = %.1fx)\n' "reopen, first frame, baseline" \
        "$reopen_base" "$(echo "$reopen_base / $reopen_new" | bc -l)"
fi
printf 'serial / parallel = %.1fx, parallel / cache = %.1fx, parallel / curl alone = %.2fx\n' \
    "$(echo "$ser_t / $par_t" | bc -l)" "$(echo "$par_t / $cache_t" | bc -l)" \
    "$(echo "$par_t / $server_t" | bc -l)"
printf 'bytes from server per open: cold %d, from cache %d (%.2f %%)\n' \
    "$cold_bytes" "$cache_bytes" "$(echo "100 * $cache_bytes / $cold_bytes" | bc -l)"
