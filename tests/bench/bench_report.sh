#!/usr/bin/env bash
# Foundation benchmark (issue 2, "Performance"): `smtop report` against `cat`
# and a plain Python json.loads reader on the same files, in one run.
#
#   SMTOP=build/smtop tests/bench/bench_report.sh     (REPS=5 by default)
#   BASELINE=/path/to/older/smtop ...   also times that binary on the same
#                                       files, in the same run
#   RANKS=8 MINUTES=10 ...              a job with 8 trace writers per node
#                                       (synth --ranks; defaults 1 and 60)
#
# Data: `smtop synth` 4 nodes x 60 min x (32 CPUs + 8 GPUs) at 500 ms, written
# to a temp dir and split into a system-only tree (synth --no-traces with the
# same seed: identical system bytes) and a trace-only tree (hard links to the
# job's framework/). Each command runs REPS times; the table shows the median
# wall time, the median CPU time (user+sys: steadier than wall on a shared
# machine) and the max RSS of the median-wall run (/usr/bin/time).
# Not a ctest test: it takes a few minutes and needs a quiet machine.
set -eu
SMTOP=${SMTOP:-build/smtop}
REPS=${REPS:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
TIME=/usr/bin/time
if [ ! -x "$TIME" ]; then
    echo "bench_report: $TIME not found (Debian: apt-get install time)" >&2
    exit 1
fi
if [ ! -x "$SMTOP" ]; then
    echo "bench_report: $SMTOP is not an executable; build first or set SMTOP" >&2
    exit 1
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/smtop_bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

GEN=(--nodes 4 --gpus 8 --cpus 32 --minutes "${MINUTES:-60}" --interval-ms 500
     --start 1591748100 --seed 1)
[ "${RANKS:-1}" = 1 ] || GEN+=(--ranks "$RANKS" --slow-rank 1)
echo "generating: smtop synth ${GEN[*]}"
$TIME -f "%e %M" -o "$TMP/gen.time" "$SMTOP" synth "${GEN[@]}" --out "$TMP/job"
"$SMTOP" synth "${GEN[@]}" --no-traces --out "$TMP/sys"
mkdir -p "$TMP/trace"
cp -al "$TMP/job/framework" "$TMP/trace/framework"
sys_mb=$(du -sbL "$TMP/sys" | awk '{printf "%.0f", $1 / 1e6}')
tr_mb=$(du -sbL "$TMP/trace" | awk '{printf "%.0f", $1 / 1e6}')
sys_lines=$(find "$TMP/sys" -type f -exec cat {} + | wc -l)
echo "generated in $(cut -d' ' -f1 "$TMP/gen.time") s: system ${sys_mb} MB" \
     "($sys_lines lines, $(find "$TMP/sys" -type f | wc -l) files)," \
     "traces ${tr_mb} MB ($(find "$TMP/trace" -type f | wc -l) files)"

have_report=1
if ! "$SMTOP" report --json "$TMP/sys" >"$TMP/report.json" 2>"$TMP/report.err"; then
    have_report=0
    echo "SKIPPING smtop report: \`$SMTOP report --json DIR\` failed here:" \
         "$(head -c 300 "$TMP/report.err")"
fi

# measure NAME CMD... : REPS runs, stores "median_s rss_kb" in $TMP/NAME.res
measure() {
    local name=$1
    shift
    : >"$TMP/$name.runs"
    for _ in $(seq "$REPS"); do
        $TIME -f "%e %M %U %S" -o "$TMP/$name.one" "$@" >/dev/null 2>"$TMP/$name.err" || {
            echo "bench_report: '$*' failed: $(head -c 300 "$TMP/$name.err")" >&2
            exit 1
        }
        tail -n 1 "$TMP/$name.one" >>"$TMP/$name.runs"
    done
    local mid=$(((REPS + 1) / 2)) wall_rss cpu
    wall_rss=$(sort -n "$TMP/$name.runs" | awk -v m="$mid" 'NR == m {print $1, $2}')
    cpu=$(awk '{printf "%.2f\n", $3 + $4}' "$TMP/$name.runs" | sort -n | sed -n "${mid}p")
    echo "$wall_rss $cpu" >"$TMP/$name.res"
}
secs() { cut -d' ' -f1 "$TMP/$1.res"; }
cpu() { cut -d' ' -f3 "$TMP/$1.res"; }
rss_mb() { awk '{printf "%.1f", $2 / 1024}' "$TMP/$1.res"; }
ratio() { # a b [field: secs|cpu]
    awk -v a="$(${3:-secs} "$1")" -v b="$(${3:-secs} "$2")" 'BEGIN {
        if (b > 0) printf "%.2f", a / b; else printf "n/a" }'; }

load0=$(cut -d' ' -f1-3 /proc/loadavg)
# sh -c so the glob expansion is part of what is timed, and cat's output
# goes to /dev/null rather than through a pipe
measure cat_sys sh -c 'find "$1" -type f -exec cat {} + >/dev/null' sh "$TMP/sys"
measure py_sys python3 "$HERE/py_reader.py" "$TMP/sys"
measure cat_tr sh -c 'find "$1" -type f -exec cat {} + >/dev/null' sh "$TMP/trace"
measure py_tr python3 "$HERE/py_reader.py" "$TMP/trace"
if [ "$have_report" = 1 ]; then
    measure smtop_sys "$SMTOP" report --json "$TMP/sys"
    measure smtop_tr "$SMTOP" report --json "$TMP/trace"
fi
if [ -n "${BASELINE:-}" ]; then
    measure base_sys "$BASELINE" report --json "$TMP/sys"
    measure base_tr "$BASELINE" report --json "$TMP/trace"
fi

echo
echo "load average before timing: $load0 on $(nproc) CPUs"
printf '%-34s %8s %8s %11s\n' "median of $REPS runs" "wall s" "cpu s" "max RSS MB"
row() { printf '%-34s %8s %8s %11s\n' "$1" "$(secs "$2")" "$(cpu "$2")" "$(rss_mb "$2")"; }
echo "system metrics (${sys_mb} MB):"
row "  cat" cat_sys
row "  python json.loads per line" py_sys
[ "$have_report" = 1 ] && row "  smtop report --json" smtop_sys
[ -n "${BASELINE:-}" ] && row "  baseline report --json" base_sys
echo "framework traces (${tr_mb} MB):"
row "  cat" cat_tr
row "  python json.load per file" py_tr
[ "$have_report" = 1 ] && row "  smtop report --json" smtop_tr
[ -n "${BASELINE:-}" ] && row "  baseline report --json" base_tr
if [ -n "${BASELINE:-}" ] && [ "$have_report" = 1 ]; then
    echo
    echo "smtop/baseline: system $(ratio smtop_sys base_sys)x wall, $(ratio smtop_sys base_sys cpu)x cpu;" \
         "traces $(ratio smtop_tr base_tr)x wall, $(ratio smtop_tr base_tr cpu)x cpu"
fi
if [ "$have_report" = 1 ]; then
    echo
    echo "system: smtop/cat $(ratio smtop_sys cat_sys)x wall, $(ratio smtop_sys cat_sys cpu)x cpu" \
         "(target <= 1.5); smtop/python $(ratio smtop_sys py_sys)x wall;" \
         "smtop max RSS $(rss_mb smtop_sys) MB (target <= 64)"
    echo "traces: smtop/cat $(ratio smtop_tr cat_tr)x wall, $(ratio smtop_tr cat_tr cpu)x cpu" \
         "(target <= 3); smtop/python $(ratio smtop_tr py_tr)x wall;" \
         "smtop max RSS $(rss_mb smtop_tr) MB"
else
    echo
    echo "smtop report not measured (see SKIPPING above); python/cat:" \
         "system $(ratio py_sys cat_sys)x, traces $(ratio py_tr cat_tr)x"
fi
