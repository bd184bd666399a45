#!/usr/bin/env bash
# cmp-outputs: a change that must not change behaviour, checked byte for
# byte. Builds smtop at BASE_REV (default: main) and at the working tree,
# then runs both on the same jobs and compares every output with cmp:
#
#   report --json, report, export --perfetto   every job below
#   diff --json                                 pairs of them
#   jobs --json                                 the folder of synth jobs,
#                                               and each sample folder (now_s
#                                               and training_s, the clock's,
#                                               left out)
#
# Jobs: the real samples (SAMPLES: test_traces, merge_traces, every
# kineto/* set), `smtop synth` shapes (system, flat, python stats,
# Kineto with and without system metrics, plain, python_function, the
# 2024 and legacy forms, a slow node, a host-bound job) and, unless
# QUICK=1, the benchmark jobs of tests/bench (bench_lib's 16n_30m and
# 8n_10m, bench_kineto's ranks set). Each output is made at
# SMTOP_INGEST_THREADS=THREADS (default "0 2": one thread, then two).
#
#   scripts/cmp-outputs.sh [BASE_REV]
#   env: BASE_BIN / NEW_BIN  use these binaries instead of building
#        SAMPLES (default ../shared/samples), WORK (a scratch dir, kept
#        when given), QUICK=1, THREADS, JOBS (make -j, default 2)
# Prints one line per output (same / DIFFERS) and a count; exit 0 when
# every output is the same bytes, 1 otherwise, 2 when it cannot run.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
rev=${1:-main}
samples=${SAMPLES:-$here/../shared/samples}
threads=${THREADS:-0 2}
jobs=${JOBS:-2}
if [ -n "${WORK:-}" ]; then
    work=$WORK
    mkdir -p "$work"
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/smtop-cmp.XXXXXX")
    trap 'rm -rf "$work"' EXIT
fi
export TZ=UTC LC_ALL=C.UTF-8

# build REV|. DIR: smtop at revision REV (a git archive of it) or the
# working tree (.), in DIR; prints the binary.
build() {
    local rev=$1 dir=$2 src
    mkdir -p "$dir"
    if [ "$rev" = . ]; then
        src=$here
    else
        src=$dir/src
        rm -rf "$src" && mkdir -p "$src"
        git -C "$here" archive "$rev" | tar -x -C "$src" || return 1
    fi
    cmake -S "$src" -B "$dir/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$dir/cmake.log" 2>&1 &&
        cmake --build "$dir/build" -j"$jobs" --target smtop >"$dir/build.log" 2>&1 ||
        { tail -20 "$dir/build.log" >&2; return 1; }
    echo "$dir/build/smtop"
}

base=${BASE_BIN:-}
new=${NEW_BIN:-}
[ -n "$base" ] || base=$(build "$rev" "$work/base") || { echo "cmp-outputs: base build failed"; exit 2; }
[ -n "$new" ] || new=$(build . "$work/new") || { echo "cmp-outputs: build failed"; exit 2; }
echo "base: $base ($rev)"
echo "new:  $new ($(git -C "$here" rev-parse --short HEAD)$(git -C "$here" diff --quiet || echo +dirty))"

# ---- the jobs ---------------------------------------------------------------
jd=$work/jobs
mkdir -p "$jd"
synth() { # NAME OPTIONS...: a synth job, made once by the base binary
    local name=$1
    shift
    [ -e "$jd/$name/.done" ] && return
    rm -rf "${jd:?}/$name"
    "$base" synth --out "$jd/$name" --start 1700000000 "$@" >/dev/null &&
        touch "$jd/$name/.done" || echo "cmp-outputs: synth $name failed" >&2
}
synth sys --nodes 2 --gpus 2 --cpus 4 --minutes 4 --seed 1
synth flat --nodes 2 --minutes 3 --flat --seed 2
synth slow --nodes 3 --gpus 2 --minutes 4 --slow-node 1 --ranks 2 --slow-rank 1 --seed 1
synth pystats --nodes 2 --minutes 3 --python-stats 40 --seed 3
synth kineto --kineto --nodes 2 --ranks 2 --gpus 2 --minutes 3 --kineto-every 60 --seed 4
synth kineto_only --kineto --kineto-only --nodes 2 --ranks 2 --minutes 3 --kineto-every 60 --seed 5
synth kineto_plain --kineto --kineto-only --kineto-plain --nodes 2 --ranks 2 --minutes 3 \
    --kineto-every 60 --kineto-active 20 --seed 6
synth kineto_python --kineto --kineto-python --nodes 1 --ranks 2 --minutes 3 --kineto-every 60 --seed 7
synth kineto_2024 --kineto --kineto-form 2024 --nodes 2 --minutes 3 --kineto-every 60 --seed 8
synth kineto_legacy --kineto --kineto-form legacy --nodes 2 --minutes 3 --kineto-every 60 --seed 9
synth host_bound --kineto --host-bound --nodes 1 --ranks 2 --minutes 3 --kineto-every 60 --seed 10
if [ "${QUICK:-0}" != 1 ]; then
    # tests/bench's jobs: bench_lib.sh's shape, bench_kineto.sh's ranks set
    synth 8n_10m --nodes 8 --gpus 8 --cpus 32 --minutes 10 --interval-ms 500 --seed 1
    synth 16n_30m --nodes 16 --gpus 8 --cpus 32 --minutes 30 --interval-ms 500 --seed 1
    synth kineto_ranks --kineto --kineto-only --kineto-plain --kineto-python --seed 5 \
        --nodes 4 --ranks 4 --minutes 5 --kineto-active 1250 --kineto-every 1000000
fi

list=()
for d in "$jd"/*/; do list+=("${d%/}"); done
for d in test_traces merge_traces; do [ -d "$samples/$d" ] && list+=("$samples/$d"); done
for d in "$samples"/kineto/*/; do [ -d "$d" ] && list+=("${d%/}"); done
[ -d "$samples" ] || echo "cmp-outputs: $samples not found: synth jobs only"

pairs=("$jd/sys $jd/slow" "$jd/kineto $jd/kineto_python" "$jd/kineto_only $jd/kineto_plain")
[ -d "$samples/test_traces" ] && pairs+=("$samples/test_traces $samples/merge_traces")
[ -d "$samples/kineto/trace_diff_control" ] &&
    pairs+=("$samples/kineto/trace_diff_control $samples/kineto/trace_diff_test")

# ---- running and comparing --------------------------------------------------
out=$work/out
rm -rf "$out" && mkdir -p "$out/base" "$out/new"
same=0 differ=0
check() { # LABEL COMMAND...: runs COMMAND with @BIN@ and @OUT@ for each side
    local label=$1 f side bin rc
    shift
    f=$(echo "$label" | tr '/ ' '__')
    for side in base new; do
        bin=$base && [ $side = new ] && bin=$new
        local args=()
        for a in "$@"; do
            a=${a//@BIN@/$bin}
            args+=("${a//@OUT@/$out/$side/$f.file}")
        done
        "${args[@]}" >"$out/$side/$f" 2>"$out/$side/$f.err"
        rc=$?
        # jobs --json says when it ran (now_s) and, for a job that has not
        # ended, how long it trained until then: the clock's, not smtop's
        if [[ $label == *jobs-json* ]]; then
            jq -S 'del(.now_s) | walk(if type == "object" then del(.training_s) else . end)' \
                <"$out/$side/$f" >"$out/$side/$f.norm" 2>/dev/null &&
                mv "$out/$side/$f.norm" "$out/$side/$f"
        fi
        echo "rc $rc" >>"$out/$side/$f"
    done
    if cmp -s "$out/base/$f" "$out/new/$f" && cmp -s "$out/base/$f.err" "$out/new/$f.err" &&
        { [ ! -e "$out/base/$f.file" ] || cmp -s "$out/base/$f.file" "$out/new/$f.file"; }; then
        same=$((same + 1))
        echo "same     $label"
    else
        differ=$((differ + 1))
        echo "DIFFERS  $label   (diff $out/base/$f* $out/new/$f*)"
    fi
}

for t in $threads; do
    export SMTOP_INGEST_THREADS=$t
    for j in "${list[@]}"; do
        n=${j#"$work"/}
        n=${n#"$samples"/}
        check "t$t report-json $n" @BIN@ report --json "$j"
        check "t$t report $n" @BIN@ report "$j"
        check "t$t export-perfetto $n" @BIN@ export --perfetto @OUT@ "$j"
    done
    for p in "${pairs[@]}"; do
        set -- $p
        check "t$t diff-json ${1#"$work"/} ${2#"$work"/}" @BIN@ diff --json "$1" "$2"
    done
    check "t$t jobs-json jobs" @BIN@ jobs --json "$jd"
    [ -d "$samples" ] && check "t$t jobs-json samples" @BIN@ jobs --json "$samples"
    [ -d "$samples/kineto" ] && check "t$t jobs-json samples/kineto" @BIN@ jobs --json "$samples/kineto"
done
echo "$same same, $differ differ"
[ "$differ" = 0 ]
