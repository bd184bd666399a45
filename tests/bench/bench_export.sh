#!/usr/bin/env bash
# Timeline benchmark (issue 7, "Performance"): `smtop export --perfetto` of
# the 4-node x 60-min synthetic job against `cat` of the same files, and the
# export's max RSS at 1x and 4x the job's length (constant memory).
#
#   SMTOP=build/smtop tests/bench/bench_export.sh      (REPS=3 by default)
#
# Data: `smtop synth --nodes 4 --gpus 8 --cpus 32 --minutes 60` (1x) and
# --minutes 240 (4x), fixed start and seed. Both commands write to /dev/null
# so only reading + decoding + formatting is compared. The table shows the
# median wall time, the median CPU time (user+sys) and the max RSS of the
# median run (/usr/bin/time). Not a ctest test: minutes, and a quiet machine.
set -eu
SMTOP=${SMTOP:-build/smtop}
REPS=${REPS:-3}
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "bench_export: $TIME not found (apt-get install time)" >&2; exit 1; }
[ -x "$SMTOP" ] || { echo "bench_export: $SMTOP is not an executable; set SMTOP" >&2; exit 1; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/smtop_bench_export.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# median of REPS runs of "$@": prints "wall cpu rss_kb"
measure() {
    local i
    for i in $(seq "$REPS"); do
        $TIME -f "%e %U %S %M" -o "$TMP/t.$i" "$@" >/dev/null 2>&1
    done
    cat "$TMP"/t.* | awk '{print $1, $2 + $3, $4}' | sort -n | awk -v n="$REPS" 'NR == int((n + 1) / 2)'
    rm -f "$TMP"/t.*
}

row() {   # label, then the command
    local label=$1; shift
    read -r wall cpu rss < <(measure "$@")
    printf "%-28s %8.2f s %8.2f s %9d KB\n" "$label" "$wall" "$cpu" "$rss"
    echo "$wall" >"$TMP/last"
}

GEN=(--nodes 4 --gpus 8 --cpus 32 --interval-ms 500 --start 1591748100 --seed 1)
for x in 1 4; do
    "$SMTOP" synth "${GEN[@]}" --minutes $((60 * x)) --out "$TMP/job$x" >/dev/null
    mb=$(du -sbL "$TMP/job$x" | awk '{printf "%.0f", $1 / 1e6}')
    echo "job ${x}x: ${mb} MB in $(find "$TMP/job$x" -type f | wc -l) files" \
         "(synth ${GEN[*]} --minutes $((60 * x)))"
done
printf "%-28s %10s %10s %12s\n" "command (median of $REPS)" wall cpu max-rss
row "cat 1x" sh -c "find '$TMP/job1' -type f -exec cat {} + >/dev/null"
cat_wall=$(cat "$TMP/last")
row "smtop export 1x" "$SMTOP" export --perfetto /dev/null "$TMP/job1"
exp_wall=$(cat "$TMP/last")
row "cat 4x" sh -c "find '$TMP/job4' -type f -exec cat {} + >/dev/null"
row "smtop export 4x" "$SMTOP" export --perfetto /dev/null "$TMP/job4"
awk -v e="$exp_wall" -v c="$cat_wall" 'BEGIN { printf "export / cat at 1x: %.2fx (target <= 3x)\n", e / (c > 0 ? c : 0.01) }'
