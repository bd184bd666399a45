#!/usr/bin/env bash
# Are two builds' outputs the same bytes? For a change that must not change
# behaviour (a move, a rename, a split): builds BASE_REV (default main) and
# the working tree, makes the jobs, runs `report --json`, `report`,
# `diff --json`, `export --perfetto` and `jobs --json` with both binaries
# on every job, and cmp's each pair.
#
#   scripts/same_output.sh [BASE_REV] [WORK_DIR]
#
# Jobs: every sample set under ../shared/samples (when present), one job of
# each synth shape, and the jobs of tests/bench/bench_report.sh. Both
# binaries run under a clock fixed at the same second (an LD_PRELOAD shim
# built here), so "now" and the ages derived from it agree. Prints one
# line per comparison and a summary; exit 0 when every pair is the same.
# Env: SAME_JOBS=quick leaves out the bench-sized job; BASE_BIN / NEW_BIN
# use binaries already built instead of building.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
base_rev=${1:-main}
work=${2:-$(mktemp -d)}
mkdir -p "$work"
samples=${SMTOP_SAMPLES:-$here/../shared/samples}
jobs=${SAME_BUILD_JOBS:-2}

build() {   # build SRC_DIR BUILD_DIR
    cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSMTOP_TESTS=OFF >/dev/null
    cmake --build "$2" -j"$jobs" --target smtop >/dev/null
}

if [ -z "${BASE_BIN:-}" ]; then
    rm -rf "$work/base-src"
    mkdir -p "$work/base-src"
    git -C "$here" archive "$base_rev" | tar -x -C "$work/base-src"
    build "$work/base-src" "$work/base-build"
    BASE_BIN=$work/base-build/smtop
fi
if [ -z "${NEW_BIN:-}" ]; then
    build "$here" "$work/new-build"
    NEW_BIN=$work/new-build/smtop
fi

# The fixed clock: time(), gettimeofday() and CLOCK_REALTIME at FIXED_S.
cat > "$work/fixclock.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
static time_t fixed(void) { const char *v = getenv("FIXED_S"); return v ? atol(v) : 0; }
time_t time(time_t *t) { time_t s = fixed(); if (t) *t = s; return s; }
int gettimeofday(struct timeval *tv, void *tz) { (void)tz; tv->tv_sec = fixed(); tv->tv_usec = 0; return 0; }
int clock_gettime(clockid_t c, struct timespec *ts)
{
    if (c == CLOCK_REALTIME || c == CLOCK_REALTIME_COARSE) {
        ts->tv_sec = fixed();
        ts->tv_nsec = 0;
        return 0;
    }
    int (*real)(clockid_t, struct timespec *) =
        (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    return real(c, ts);
}
EOF
cc -shared -fPIC -O1 -o "$work/fixclock.so" "$work/fixclock.c" -ldl
export FIXED_S=${FIXED_S:-1800000000}

# The jobs.
J=$work/jobs
mkdir -p "$J"
synth() {   # synth NAME ARGS...
    local name=$1
    shift
    [ -e "$J/$name/.done" ] && return 0
    rm -rf "${J:?}/$name"
    "$NEW_BIN" synth --out "$J/$name" --start 1700000000 "$@" >/dev/null
    touch "$J/$name/.done"
}
synth plain
synth slow_node --nodes 3 --slow-node 1
synth ranks --ranks 4 --slow-rank 1 --minutes 3
synth python --python-stats 20 --minutes 3
synth flat --flat --minutes 3
synth system_only --no-traces --gpus 4
synth kineto --kineto --minutes 3
synth kineto_host --kineto --host-bound --minutes 3
synth kineto_legacy --kineto --kineto-form legacy --minutes 3
synth kineto_2024 --kineto --kineto-form 2024 --minutes 3 --kineto-plain
synth kineto_only --kineto-only --minutes 3 --kineto-python
if [ "${SAME_JOBS:-}" != quick ]; then
    # tests/bench/bench_report.sh's job
    synth bench --nodes 4 --minutes 60 --cpus 32 --gpus 8 --seed 7
fi

sources=()
for d in "$J"/*/; do
    d=${d%/}
    if [ -d "$d/profiler-output" ]; then sources+=("$d/profiler-output"); else sources+=("$d"); fi
done
if [ -d "$samples" ]; then
    for d in "$samples"/test_traces "$samples"/merge_traces "$samples"/kineto/*/; do
        [ -d "$d" ] && sources+=("${d%/}")
    done
else
    echo "SKIPPED: ../shared/samples not found (synth jobs only)"
fi

same=0
differ=0
out=$work/out
rm -rf "$out"
mkdir -p "$out"
# run TAG ARGS...: both binaries, stdout and the exit status compared;
# an argument @OUT@ is a file each writes, compared too.
run() {
    local tag=$1
    shift
    local b=() n=()
    for a in "$@"; do
        b+=("${a//@OUT@/$out/$tag.base.file}")
        n+=("${a//@OUT@/$out/$tag.new.file}")
    done
    local rb=0 rn=0
    LD_PRELOAD=$work/fixclock.so SMTOP_INGEST_THREADS=2 "$BASE_BIN" "${b[@]}" \
        > "$out/$tag.base" 2> "$out/$tag.base.err" || rb=$?
    LD_PRELOAD=$work/fixclock.so SMTOP_INGEST_THREADS=2 "$NEW_BIN" "${n[@]}" \
        > "$out/$tag.new" 2> "$out/$tag.new.err" || rn=$?
    local what=same bytes
    bytes=$(stat -c %s "$out/$tag.base")
    if [ "$rb" != "$rn" ] || ! cmp -s "$out/$tag.base" "$out/$tag.new"; then
        what=DIFFERENT
    elif [ -e "$out/$tag.base.file" ] && ! cmp -s "$out/$tag.base.file" "$out/$tag.new.file"; then
        what=DIFFERENT
    fi
    if [ $what = same ]; then
        same=$((same + 1))
        rm -f "$out/$tag".*
    else
        differ=$((differ + 1))
    fi
    printf '%-9s %-52s exit %s/%s, %s bytes\n' "$what" "$tag" "$rb" "$rn" "$bytes"
}

for s in "${sources[@]}"; do
    tag=$(echo "${s#"$work"/}" | sed "s|^.*shared/samples/||; s|/|_|g")
    run "$tag.report_json" report --json "$s"
    run "$tag.report" report "$s"
    run "$tag.export" export --perfetto @OUT@ "$s"
done
pair() {   # pair TAG BASE SOURCE
    [ -d "$2" ] && [ -d "$3" ] && run "$1.diff_json" diff --json "$2" "$3"
    return 0
}
pair synth_slow "$J/plain" "$J/slow_node"
pair synth_ranks "$J/plain" "$J/ranks"
pair synth_kineto "$J/kineto/profiler-output" "$J/kineto_host/profiler-output"
pair samples_traces "$samples/test_traces" "$samples/merge_traces"
pair samples_kineto "$samples/kineto/trace_diff_control" "$samples/kineto/trace_diff_test"
run synth.jobs_json jobs --json "$J"
[ -d "$samples" ] && run samples.jobs_json jobs --json "$samples"

echo "$same same, $differ different (base $base_rev: $BASE_BIN, new: $NEW_BIN)"
[ "$differ" = 0 ]
