#!/usr/bin/env bash
# Linearity benchmark (issue 15): does `smtop report --json` cost the same
# per node-hour from 1 to 256 nodes and from 15 min to 24 h? For each job
# it takes the median (of REPS runs) wall, CPU (user + sys) and peak RSS,
# divides by node-hours, and draws both as bars so a bend shows at a
# glance; with BASELINE, the older binary runs alternately in the same run
# and gets its own bars.
#
#   SMTOP=build-rel/smtop BASELINE=/path/to/older/smtop JOBS_DIR=/work/jobs \
#   REPS=3 tests/bench/bench_linear.sh [JOB...]
#
# JOB names <nodes>n_<minutes>m (default: in nodes at 60 min, 1n_60m
# 4n_60m 16n_60m 64n_60m 256n_60m, then in duration at 16 nodes, 16n_15m
# 16n_240m 16n_1440m). Missing jobs are generated as bench_memory.sh does
# (256n_60m is 15 GB and 16n_1440m 23 GB: share them through JOBS_DIR).
# CPU time is the figure to read on a shared machine: wall time waits for
# the disk whenever the job does not fit the page cache. Not a ctest test.
set -eu
. "$(dirname "$0")/bench_lib.sh"
bench_report_setup bench_linear
if [ $# -gt 0 ]; then JOBS=("$@"); else
    JOBS=(1n_60m 4n_60m 16n_60m 64n_60m 256n_60m 16n_15m 16n_240m 16n_1440m)
fi

# one TAG BIN DIR: appends "wall cpu rss_kb" of one run to $TMP/TAG.runs
one() {
    $TIME -f "%e %U %S %M" -o "$TMP/$1.one" "$2" report --json "$3" >/dev/null 2>"$TMP/$1.err" || {
        echo "bench_linear: '$2 report --json $3' failed: $(head -c 300 "$TMP/$1.err")" >&2
        exit 1
    }
    tail -n 1 "$TMP/$1.one" | awk '{ print $1, $2 + $3, $4 }' >>"$TMP/$1.runs"
}
col() { awk -v c="$2" '{ print $c }' "$1" | median; }

# Rows of "job node_h wall cpu rss_mb" per binary, for the table and plot.
: >"$TMP/new.rows"
: >"$TMP/base.rows"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for name in "${JOBS[@]}"; do
    dir=$(bench_job_dir "$name" bench_linear)
    [[ $name =~ ^([0-9]+)n_([0-9]+)m ]]
    nh=$(awk -v n="${BASH_REMATCH[1]}" -v m="${BASH_REMATCH[2]}" 'BEGIN { print n * m / 60 }')
    : >"$TMP/new.runs"
    : >"$TMP/base.runs"
    for _ in $(seq "$REPS"); do
        one new "$SMTOP" "$dir"
        [ -z "$BASELINE" ] || one base "$BASELINE" "$dir"
    done
    for tag in new base; do
        [ -s "$TMP/$tag.runs" ] || continue
        echo "$name $nh $(col "$TMP/$tag.runs" 1) $(col "$TMP/$tag.runs" 2)" \
             "$(col "$TMP/$tag.runs" 3 | awk '{ print $1 / 1024 }')" >>"$TMP/$tag.rows"
    done
    echo "  $name: $(du -sbL "$dir" | awk '{ printf "%.2f GB", $1 / 1e9 }'), done at load $(cut -d' ' -f1 /proc/loadavg)" >&2
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

table() { # TAG
    echo
    echo "$1 (medians of $REPS):"
    echo
    echo "| job | node-hours | wall s | CPU s | peak RSS MB | CPU s / node-h | wall s / node-h | RSS MB / node | RSS MB / node-h |"
    echo "|---|---|---|---|---|---|---|---|---|"
    awk '{ split($1, a, "n_"); n = a[1] + 0
           printf "| %s | %g | %.2f | %.2f | %.1f | %.3f | %.3f | %.2f | %.3f |\n",
                  $1, $2, $3, $4, $5, $4 / $2, $3 / $2, $5 / n, $5 / $2 }' "$TMP/$1.rows"
}

# plot FIELD LABEL: one bar a job and binary, scaled to the largest value.
plot() {
    echo
    echo "$2 (# = new, = = baseline; flat bars = linear):"
    awk -v f="$1" 'FNR == 1 { tag = (FILENAME ~ /base/) ? "=" : "#" }
        { split($1, a, "n_"); n = a[1] + 0
          v = (f == "cpu") ? $4 / $2 : (f == "node") ? $5 / n : $5 / $2
          key[tag, $1] = v; if (tag == "#") order[++k] = $1; if (v > max) max = v }
        END { for (i = 1; i <= k; i++) for (t = 1; t <= 2; t++) {
                  c = (t == 1) ? "#" : "="; if (!((c, order[i]) in key)) continue
                  v = key[c, order[i]]; w = (max > 0) ? int(v / max * 50 + 0.5) : 0
                  bar = ""; for (j = 0; j < w; j++) bar = bar c
                  printf "  %-10s %-50s %.3f\n", (t == 1) ? order[i] : "", bar, v } }' \
        "$TMP/new.rows" $([ -s "$TMP/base.rows" ] && echo "$TMP/base.rows")
}

table new
[ -z "$BASELINE" ] || table base
plot cpu "CPU seconds per node-hour"
plot node "peak RSS MB per node (fixed buffers weigh on small jobs)"
plot rss "peak RSS MB per node-hour (falls with duration: a node's history is bounded)"
