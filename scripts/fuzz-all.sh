#!/usr/bin/env bash
# Runs every libFuzzer target (tests/fuzz/fuzz_*.c) for FUZZ_MINUTES each
# and prints a table: target, executions, exec/s, crashes (with the
# artifact's name). Builds the targets first with clang into BUILD
# (-DSMTOP_FUZZ=ON) unless FUZZ_NO_BUILD=1.
#
#   scripts/fuzz-all.sh [BUILD]          default BUILD: build-fuzz
#   FUZZ_MINUTES=10   minutes per target (fractions allowed, e.g. 0.5)
#   FUZZ_JOBS=2       targets run at once
#   FUZZ_NICE=0       nice level of the fuzzers (19: soak idle CPU only)
#   FUZZ_TARGETS="a b"  only these (names without fuzz_), default: all
#   FUZZ_TABLE=FILE   also write the table (Markdown) to FILE, row by row
#
# Each target starts from its seed corpus tests/fuzz/corpus/NAME/ (never
# written to) and keeps what it finds in BUILD/fuzz-work/NAME/corpus;
# crash inputs land in BUILD/fuzz-work/NAME/ (crash-*, leak-*, oom-*,
# timeout-*). Add a fixed crash's input to the seed corpus as its
# regression test: ctest replays it (fuzz_NAME).
# Exit status: 0 when no target crashed, 1 otherwise.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build-fuzz}
minutes=${FUZZ_MINUTES:-10}
jobs=${FUZZ_JOBS:-2}
nice_level=${FUZZ_NICE:-0}
table=${FUZZ_TABLE:-}
secs=$(awk -v m="$minutes" 'BEGIN { s = int(m * 60); print (s < 1 ? 1 : s) }')

if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
    command -v clang >/dev/null || { echo "fuzz-all: clang not found (apt install clang)"; exit 2; }
    cmake -S "$here" -B "$build" -DSMTOP_FUZZ=ON -DCMAKE_C_COMPILER=clang \
          -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null || exit 2
    cmake --build "$build" -j"$jobs" >"$build/fuzz-build.log" 2>&1 ||
        { tail -20 "$build/fuzz-build.log"; echo "fuzz-all: build failed"; exit 2; }
fi

build=$(cd "$build" && pwd) || { echo "fuzz-all: no build directory $build"; exit 2; }
targets=()
if [ -n "${FUZZ_TARGETS:-}" ]; then
    for t in $FUZZ_TARGETS; do targets+=("$t"); done
else
    for src in "$here"/tests/fuzz/fuzz_*.c; do
        t=$(basename "$src" .c)
        targets+=("${t#fuzz_}")
    done
fi
for t in "${targets[@]}"; do
    [ -x "$build/tests/fuzz_$t" ] || { echo "fuzz-all: $build/tests/fuzz_$t not built (clang, -DSMTOP_FUZZ=ON?)"; exit 2; }
done

header="| target | seconds | execs | exec/s | crashes | artifact |"
rule="|---|---:|---:|---:|---:|---|"
if [ -n "$table" ]; then
    {
        echo "Fuzz run started $(date -u '+%Y-%m-%d %H:%M UTC'): ${#targets[@]} targets," \
             "$minutes min each, $jobs at a time, nice $nice_level, on a $(nproc)-core machine shared" \
             "with other builds and tests (exec/s is what the idle CPU gave)" \
             "(load at start: $(cut -d' ' -f1-3 /proc/loadavg))."
        echo
        echo "$header"
        echo "$rule"
    } >"$table"
fi

# run_one NAME: fuzzes one target, prints its table row.
run_one() {
    local t=$1 work="$build/fuzz-work/$1" log start end took execs rate crashes art
    mkdir -p "$work/corpus"
    log="$work/run.log"
    touch "$work/.started"   # artifacts of an earlier run are not this run's
    start=$(date +%s)
    (cd "$work" && nice -n "$nice_level" "$build/tests/fuzz_$t" -max_total_time="$secs" \
        -print_final_stats=1 -artifact_prefix="$work/" -rss_limit_mb=2048 \
        -timeout=30 "$work/corpus" "$here/tests/fuzz/corpus/$t" >"$log" 2>&1)
    end=$(date +%s)
    took=$((end - start))
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
    execs=${execs:-0}
    rate=$(awk -v e="$execs" -v s="$took" 'BEGIN { printf "%d", (s > 0 ? e / s : 0) }')
    local found
    found=$(find "$work" -maxdepth 1 -type f -newer "$work/.started" \( -name 'crash-*' \
        -o -name 'leak-*' -o -name 'oom-*' -o -name 'timeout-*' \) -printf '%f\n' | sort)
    art=$(head -1 <<<"$found")
    crashes=$(grep -c . <<<"$found")
    printf '| %s | %d | %d | %d | %d | %s |\n' "$t" "$took" "$execs" "$rate" "$crashes" "${art:--}"
}

echo "fuzz-all: ${#targets[@]} targets, ${minutes} min each, $jobs at a time, nice $nice_level"
echo "$header"
echo "$rule"
status=0
running=0
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
for t in "${targets[@]}"; do
    (
        row=$(run_one "$t")
        echo "$row"
        if [ -n "$table" ]; then
            flock "$table" -c "echo '$row' >>'$table'"
        fi
        echo "$row" >>"$rows"
    ) &
    running=$((running + 1))
    if ((running >= jobs)); then
        wait -n
        running=$((running - 1))
    fi
done
wait
total=$(awk -F'|' '{ e += $4; c += $6 } END { printf "%d execs, %d crashes", e, c }' "$rows")
echo "total: $total"
[ -n "$table" ] && { echo; echo "Finished $(date -u '+%Y-%m-%d %H:%M UTC'): $total."; } >>"$table"
grep -q '| [1-9][0-9]* | [^|]* |$' "$rows" && status=1
exit $status
