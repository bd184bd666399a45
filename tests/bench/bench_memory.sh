#!/usr/bin/env bash
# Memory benchmark (issue 15, "1 MB a node"): peak RSS of `smtop report
# --json` on synthetic jobs from 1 to 256 nodes and 10 min to 24 h, side
# by side with a baseline binary in the same run.
#
#   SMTOP=build/smtop BASELINE=/path/to/older/smtop \
#   JOBS_DIR=/work/jobs tests/bench/bench_memory.sh [JOB...]
#
# JOB names <nodes>n_<minutes>m (default: 1n_10m 4n_10m 16n_10m 64n_10m
# 4n_60m 16n_60m 64n_60m). A job missing under JOBS_DIR (default: a temp
# dir, removed at the end) is generated with `smtop synth --nodes N
# --minutes M --gpus 8 --cpus 32 --interval-ms 500 --seed 1` (system +
# traces); big ones (256n_60m: 15 GB, 16n_1440m: 23 GB) are best shared
# through JOBS_DIR. Each binary runs REPS times (default 3), alternating;
# the table shows the median peak RSS, median wall and median CPU (user +
# sys, /usr/bin/time), MB per node and per node-hour, the ratio new / baseline, and whether the
# two reports are the same JSON. Not a ctest test: minutes of runtime.
set -eu
. "$(dirname "$0")/bench_lib.sh"
bench_report_setup bench_memory
if [ $# -gt 0 ]; then JOBS=("$@"); else
    JOBS=(1n_10m 4n_10m 16n_10m 64n_10m 4n_60m 16n_60m 64n_60m)
fi

# run TAG BIN DIR: one run, appends "wall rss_kb cpu_s" to $TMP/TAG.runs
run() {
    $TIME -f "%e %M %U %S" -o "$TMP/$1.one" "$2" report --json "$3" >"$TMP/$1.json" 2>"$TMP/$1.err" || {
        echo "bench_memory: '$2 report --json $3' failed: $(head -c 300 "$TMP/$1.err")" >&2
        exit 1
    }
    tail -n 1 "$TMP/$1.one" | awk '{printf "%s %s %.2f\n", $1, $2, $3 + $4}' >>"$TMP/$1.runs"
}
median_col() { # file column
    sort -n -k"$2" "$1" | awk -v c="$2" -v m=$(((REPS + 1) / 2)) 'NR == m {print $c}'
}
same_json() {
    python3 - "$TMP/new.json" "$TMP/base.json" <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
print("yes" if a == b else "no")
EOF
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '| job | data | new RSS MB | MB/node | MB/node-h | new wall s | new CPU s'
[ -n "$BASELINE" ] && printf ' | baseline RSS MB | baseline MB/node-h | baseline wall s | baseline CPU s | RSS new/base | same JSON'
printf ' |\n|---|---|---|---|---|---|---'
[ -n "$BASELINE" ] && printf '|---|---|---|---|---|---'
printf '|\n'
for name in "${JOBS[@]}"; do
    dir=$(bench_job_dir "$name" bench_memory)
    [[ $name =~ ^([0-9]+)n_([0-9]+)m ]]
    nodes=${BASH_REMATCH[1]} minutes=${BASH_REMATCH[2]}
    : >"$TMP/new.runs"
    : >"$TMP/base.runs"
    for _ in $(seq "$REPS"); do
        run new "$SMTOP" "$dir"
        [ -z "$BASELINE" ] || run base "$BASELINE" "$dir"
    done
    size=$(du -sbL "$dir" | awk '{printf "%.2f GB", $1 / 1e9}')
    nrss=$(median_col "$TMP/new.runs" 2) nwall=$(median_col "$TMP/new.runs" 1)
    ncpu=$(median_col "$TMP/new.runs" 3)
    row=$(awk -v r="$nrss" -v n="$nodes" -v m="$minutes" -v w="$nwall" -v c="$ncpu" 'BEGIN {
        printf "%.1f | %.2f | %.2f | %s | %s", r / 1024, r / 1024 / n, r / 1024 / n / (m / 60), w, c }')
    printf '| %s | %s | %s' "$name" "$size" "$row"
    if [ -n "$BASELINE" ]; then
        brss=$(median_col "$TMP/base.runs" 2) bwall=$(median_col "$TMP/base.runs" 1)
        bcpu=$(median_col "$TMP/base.runs" 3)
        awk -v r="$brss" -v n="$nodes" -v m="$minutes" -v w="$bwall" -v c="$bcpu" -v nr="$nrss" 'BEGIN {
            printf " | %.1f | %.2f | %s | %s | %.2f", r / 1024, r / 1024 / n / (m / 60), w, c, nr / r }'
        printf ' | %s' "$(same_json)"
    fi
    printf ' |\n'
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
