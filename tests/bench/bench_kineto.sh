#!/usr/bin/env bash
# bench_kineto: the Kineto decoder's speed and memory (issue 25), against
# a plain read of the same files in the same run.
#
#   1. MB/s per core: bench_kineto (every file read in 1 MiB pieces and
#      decoded, one thread) against pread_all (every file read whole, no
#      decoding), CPU seconds (user + sys) and wall, medians of REPS runs,
#      hot page cache, on a trace set made of the real samples' own bytes
#      (kineto_bigset.py: SET_MB over SET_FILES plain pretty-printed files,
#      one per rank; generated once under SET_DIR, never committed).
#   2. the same with python_function skipping on (--keep-python 0; the
#      samples have none, so this is the parse cost alone).
#   3. peak RSS of one decode of the whole set (/usr/bin/time -v), and of
#      the same set gzip'd (-1).
#   4. `smtop report --json` end to end: its wall time and peak RSS
#      (/usr/bin/time), medians of REPS, on three plain synth --kineto
#      jobs of the same TRAIN steps (RSS_STEPS, with python_function
#      events: about 50 KB a step, 1 GB at the default 20000), generated
#      once under RSS_DIR:
#        one     one rank, one trace (--kineto-active RSS_STEPS)
#        traces  one rank, a trace every 100 steps
#        ranks   16 ranks on 4 nodes, one trace each of RSS_STEPS/16 steps
#      beside `cat` of the same files to /dev/null (hot cache), and
#      BASELINE (another smtop, e.g. main's) when set.
#
#   tests/bench/bench_kineto.sh
#   env: SET_DIR (default /tmp/smtop-kineto-set), SET_MB (1024),
#        SET_FILES (8), REPS (5), SAMPLES (../shared/samples/kineto),
#        ONLY (decode: parts 1-3, report: part 4; default both),
#        SMTOP (build/smtop), BASELINE, RSS_DIR (/tmp/smtop-kineto-rss),
#        RSS_STEPS (20000)
set -eu
SRC=$(realpath "$(dirname "$0")/../..")
. "$SRC/tests/bench/bench_lib.sh"
SET_DIR=${SET_DIR:-/tmp/smtop-kineto-set}
SET_MB=${SET_MB:-1024}
SET_FILES=${SET_FILES:-8}
REPS=${REPS:-5}
SAMPLES=${SAMPLES:-$SRC/../shared/samples/kineto}
ONLY=${ONLY:-}
[ -x /usr/bin/time ] || { echo "bench_kineto: needs /usr/bin/time (GNU time)" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/smtop-bench-kineto.XXXXXX")
trap 'rm -rf "$T"' EXIT

# ---- 4. report --json end to end --------------------------------------------
bench_report() {
    local smtop=${SMTOP:-$SRC/build/smtop} dir=${RSS_DIR:-/tmp/smtop-kineto-rss}
    local steps=${RSS_STEPS:-20000} name run
    mkdir -p "$dir"
    local common=(--kineto --kineto-only --kineto-plain --kineto-python --seed 5
                  --start 1700000000)
    # about 400 TRAIN steps a minute (120 ms steps and the eval phases);
    # one cycle of a trace a rank where the set has one (--kineto-every
    # past the job's end)
    local mins=$((steps * 11 / 4000 + 2)) rmins=$((steps / 16 * 11 / 4000 + 2))
    mk() { # name synth-options...
        local name=$1
        shift
        [ -f "$dir/$name.done" ] && return
        rm -rf "${dir:?}/$name"
        echo "generating $name: synth ${common[*]} $*" >&2
        "$smtop" synth --out "$dir/$name" "${common[@]}" "$@" >/dev/null
        touch "$dir/$name.done"
    }
    mk one --nodes 1 --minutes "$mins" --kineto-active "$steps" --kineto-every 1000000
    mk traces --nodes 1 --minutes $((steps * 10 / 4400)) --kineto-active 100 --kineto-every 101
    mk ranks --nodes 4 --ranks 4 --minutes "$rmins" --kineto-active $((steps / 16)) \
        --kineto-every 1000000
    # report RUN DIR: "wall_s rss_kb" of one report --json by smtop RUN
    report() { /usr/bin/time -f "%e %M" -o "$T/rt" "$1" report --json "$2" >/dev/null; cat "$T/rt"; }
    echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
    printf '%-8s %7s %9s %9s %12s %12s %12s %12s\n' set files MB cat_s report_s report_MB \
        base_s base_MB
    for name in one traces ranks; do
        local files bytes
        files=$(find "$dir/$name" -name '*.pt.trace.json' | wc -l)
        bytes=$(find "$dir/$name" -name '*.pt.trace.json' -exec cat {} + | wc -c)
        : >"$T/cat" && : >"$T/new" && : >"$T/base"
        for run in $(seq "$REPS"); do
            /usr/bin/time -f "%e" -o "$T/ct" sh -c 'find "$1" -name "*.pt.trace.json" \
                -exec cat {} + >/dev/null' sh "$dir/$name"
            cat "$T/ct" >>"$T/cat"
            report "$smtop" "$dir/$name" >>"$T/new"
            [ -n "${BASELINE:-}" ] && report "$BASELINE" "$dir/$name" >>"$T/base"
        done
        local bs="-" bm="-"
        if [ -s "$T/base" ]; then
            bs=$(cut -d' ' -f1 "$T/base" | median)
            bm=$(cut -d' ' -f2 "$T/base" | median | awk '{ printf "%.1f", $1 / 1024 }')
        fi
        printf '%-8s %7d %9.0f %9.3f %12.3f %12.1f %12s %12s\n' "$name" "$files" \
            "$(echo "$bytes / 1000000" | bc -l)" "$(median <"$T/cat")" \
            "$(cut -d' ' -f1 "$T/new" | median)" \
            "$(cut -d' ' -f2 "$T/new" | median | awk '{ print $1 / 1024 }')" "$bs" "$bm"
    done
    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
}
if [ "$ONLY" = report ]; then
    bench_report
    exit 0
fi
[ -d "$SAMPLES" ] || { echo "bench_kineto: no samples at $SAMPLES" >&2; exit 1; }

cc -O2 -std=c11 -D_GNU_SOURCE -I"$SRC" -o "$T/bench_kineto" "$SRC/tests/bench/bench_kineto.c" \
    "$SRC"/io/decode/kineto_*.c "$SRC/io/decode/jscan.c" "$SRC/model/util/sm_err.c" -lz -lm
cc -O2 -o "$T/pread_all" "$SRC/tests/bench/pread_all.c"

if [ ! -f "$SET_DIR.done" ]; then
    echo "generating $SET_MB MB in $SET_FILES files under $SET_DIR" >&2
    rm -rf "$SET_DIR"
    python3 "$SRC/tests/bench/kineto_bigset.py" "$SAMPLES" "$SET_DIR" "$SET_MB" "$SET_FILES"
    touch "$SET_DIR.done"
fi
bytes=$(cat "$SET_DIR"/*.json | wc -c)
"$T/pread_all" "$SET_DIR" >/dev/null   # warm the page cache

# cpu_wall CMD...: "user+sys wall" seconds of one run.
cpu_wall() {
    /usr/bin/time -f "%U %S %e" -o "$T/t" "$@" >/dev/null
    awk '{ printf "%.3f %.3f\n", $1 + $2, $3 }' "$T/t"
}
for r in $(seq "$REPS"); do
    cpu_wall "$T/pread_all" "$SET_DIR" >>"$T/read"
    cpu_wall "$T/bench_kineto" "$SET_DIR" >>"$T/dec"
    cpu_wall "$T/bench_kineto" --keep-python 0 "$SET_DIR" >>"$T/dec0"
done
"$T/bench_kineto" "$SET_DIR"
echo "load before/after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-28s %10s %10s %12s %12s\n' "reader ($((bytes / 1000000)) MB, $REPS runs)" \
    "cpu_s" "wall_s" "MB/s/core" "MB/s wall"
for k in read dec dec0; do
    c=$(cut -d' ' -f1 "$T/$k" | median)
    w=$(cut -d' ' -f2 "$T/$k" | median)
    name=$k
    [ $k = read ] && name="pread_all (read only)"
    [ $k = dec ] && name="kineto decode"
    [ $k = dec0 ] && name="kineto decode, no python"
    awk -v n="$name" -v c="$c" -v w="$w" -v b="$bytes" \
        'BEGIN { printf "%-28s %10.3f %10.3f %12.0f %12.0f\n", n, c, w, b / 1e6 / c, b / 1e6 / w }'
done

rss() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident/ { print $2 }'; }
echo "peak RSS, plain set: $(rss "$T/bench_kineto" "$SET_DIR") KB"
mkdir -p "$T/gz"
for f in "$SET_DIR"/*.json; do gzip -1 -c "$f" >"$T/gz/$(basename "$f").gz"; done
echo "peak RSS, gzip set ($(cat "$T"/gz/* | wc -c) bytes): $(rss "$T/bench_kineto" "$T/gz") KB"
cpu_wall "$T/bench_kineto" "$T/gz" | awk -v b="$bytes" '{ printf "gzip set: %.3f cpu_s, %.0f MB/s/core of JSON\n", $1, b / 1e6 / $1 }'
[ "$ONLY" = decode ] || bench_report
