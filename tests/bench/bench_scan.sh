#!/usr/bin/env bash
# bench_scan: the scanner's figures for issues 15 and 17, the baseline
# tree and this tree side by side in one run, medians of REPS runs.
#
#   1. first frame: ms until every node shows its newest minute of system
#      metrics (bench_first_frame: the real job + loader, as the dashboard
#      opens it), 16 nodes x 24 h (8 GPUs, 32 CPUs, 500 ms, traces) and
#      256 nodes x 24 h (8 GPUs, 8 CPUs, one sample a minute, no traces:
#      369k files, small so the disk holds it; the file count is what the
#      first frame pays for).
#   2. pass-side CPU of an idle job (bench_pass_cpu: the real loader, no
#      drawing) at --interval 5 and 1: 64 nodes x 24 h hourly and 16 nodes
#      x 24 h flat (one sample a minute, no traces).
#   3. ingest: hot-cache `smtop report` wall against pread_all (every file
#      read whole with pread, nothing else) of the same job.
#
# The two bench programs are compiled against each tree's static libraries.
#
#   tests/bench/bench_scan.sh BASE_TREE [NEW_TREE]
#   env: BASE_BUILD, NEW_BUILD (build dirs in each tree, default build:
#        configure both Release), REPS (3),
#        JOBS_DIR (reuse jobs there, default a temp dir), SECTIONS ("1 2 3"),
#        IDLE_S (seconds measured per idle run, 20)
set -eu
BASE=$(realpath "$1")
NEW=$(realpath "${2:-$(dirname "$0")/../..}")
BASE_BUILD=${BASE_BUILD:-build}
NEW_BUILD=${NEW_BUILD:-build}
REPS=${REPS:-3}
SECTIONS=${SECTIONS:-1 2 3}
IDLE_S=${IDLE_S:-20}
T=$(mktemp -d "${TMPDIR:-/tmp}/smtop-bench-scan.XXXXXX")
trap 'rm -rf "$T"' EXIT
JOBS_DIR=${JOBS_DIR:-$T/jobs}
mkdir -p "$JOBS_DIR"
LIBS="$(pkg-config --libs jansson libzstd libcurl zlib) -lm -lpthread"
for side in base new; do
    tree=$BASE/$BASE_BUILD
    [ $side = new ] && tree=$NEW/$NEW_BUILD
    for prog in bench_first_frame bench_pass_cpu; do
        # shellcheck disable=SC2086
        cc -O2 -I"$tree/.." -o "$T/${prog}_$side" "$NEW/tests/bench/$prog.c" \
            "$tree/libsmtop_io.a" "$tree/libsmtop_model.a" $LIBS
    done
done
cc -O2 -o "$T/pread_all" "$NEW/tests/bench/pread_all.c"
SMTOP_BASE=$BASE/$BASE_BUILD/smtop
SMTOP_NEW=$NEW/$NEW_BUILD/smtop

# job NAME SYNTH_OPTS...: makes $JOBS_DIR/NAME once (start 1700000000).
job() {
    local name=$1
    shift
    [ -e "$JOBS_DIR/$name/.done" ] && return
    "$SMTOP_NEW" synth --out "$JOBS_DIR/$name" --start 1700000000 --seed 1 "$@" >/dev/null
    echo "smtop synth --out $JOBS_DIR/$name --start 1700000000 --seed 1 $*" >"$JOBS_DIR/$name/.cmd"
    touch "$JOBS_DIR/$name/.done"
}

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

# runs KEY CMD...: REPS runs of CMD printing KEY=VALUE; the median VALUE.
runs() {
    local key=$1
    shift
    for _ in $(seq "$REPS"); do "$@" | tr ' ' '\n' | sed -n "s/^$key=//p"; done | median
}

echo "load: $(uptime)"
if [[ " $SECTIONS " == *" 1 "* ]]; then
    echo "== 1. first frame with every node's newest minute (ms, median of $REPS)"
    job 16n_1440m --nodes 16 --gpus 8 --cpus 32 --minutes 1440
    job 256n_1440m_tiny --nodes 256 --gpus 8 --cpus 8 --minutes 1440 --interval-ms 60000 --no-traces
    newest=$((1700000000 + 1439 * 60))
    for j in 16n_1440m:16 256n_1440m_tiny:256; do
        name=${j%%:*} n=${j#*:}
        b=$(runs all_nodes_ms "$T/bench_first_frame_base" "$JOBS_DIR/$name" "$n" $newest 120)
        w=$(runs all_nodes_ms "$T/bench_first_frame_new" "$JOBS_DIR/$name" "$n" $newest 120)
        echo "$name: baseline $b ms, new $w ms"
    done
fi
if [[ " $SECTIONS " == *" 2 "* ]]; then
    echo "== 2. idle pass-side CPU (% of one core over ${IDLE_S} s, median of $REPS)"
    job 64n_1440m_tiny --nodes 64 --gpus 8 --cpus 8 --minutes 1440 --interval-ms 60000 --no-traces
    job 16n_1440m_flat_tiny --nodes 16 --flat --gpus 8 --cpus 8 --minutes 1440 --interval-ms 60000 --no-traces
    for name in 64n_1440m_tiny 16n_1440m_flat_tiny; do
        for iv in 5 1; do
            b=$(runs cpu_pct "$T/bench_pass_cpu_base" "$JOBS_DIR/$name" $iv "$IDLE_S")
            w=$(runs cpu_pct "$T/bench_pass_cpu_new" "$JOBS_DIR/$name" $iv "$IDLE_S")
            echo "$name --interval $iv: baseline $b %, new $w %"
        done
    done
fi
if [[ " $SECTIONS " == *" 3 "* ]]; then
    echo "== 3. hot-cache ingest: report wall vs pread_all (s, median of $REPS)"
    job 16n_60m --nodes 16 --gpus 8 --cpus 32 --minutes 60
    d=$JOBS_DIR/16n_60m
    "$T/pread_all" "$d" >/dev/null   # warm the page cache
    # timed CMD...: "wall cpu" (cpu = user + sys, all threads)
    timed() { /usr/bin/time -f "%e %U %S" "$@" 2>&1 >/dev/null | tail -1 | awk '{printf "%s %.2f", $1, $2 + $3}'; }
    for _ in $(seq "$REPS"); do
        echo "$(timed "$T/pread_all" "$d") $(timed "$SMTOP_BASE" report --json "$d") $(timed "$SMTOP_NEW" report --json "$d")"
    done >"$T/ingest"
    col() { awk -v c="$1" '{print $c}' "$T/ingest" | median; }
    p=$(col 1) b=$(col 3) w=$(col 5)
    ratio() { echo "$1 $2" | awk '{printf "%.1f", $1 / $2}'; }
    echo "16n_60m: pread_all $p s, baseline report $b s ($(ratio "$b" "$p")x), new report $w s ($(ratio "$w" "$p")x)"
    echo "16n_60m cpu (user+sys): pread_all $(col 2) s, baseline $(col 4) s, new $(col 6) s"
fi
echo "load: $(uptime)"
