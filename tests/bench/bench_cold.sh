#!/usr/bin/env bash
# Cold-cache ingest (issue 15: "cold cache: within 1.1x of cat"): the wall
# of `smtop report --json JOB` with none of JOB's files in the page cache,
# against `cat` of the same files from a cold cache, and optionally a
# baseline smtop, alternating, REPS times each; medians and ratios.
#
#   SMTOP=build/smtop [BASELINE=/path/to/older/smtop] [REPS=3] \
#   tests/bench/bench_cold.sh JOB_DIR
#
# The cache is emptied per file with posix_fadvise(DONTNEED) (python3),
# which needs no root, unlike /proc/sys/vm/drop_caches; it only drops clean
# pages, so the script checks with fincore (util-linux) that nothing of
# JOB is resident before each timed run, and says so if something is.
# Not a ctest test: it takes minutes and measures the disk.
set -eu
SMTOP=${SMTOP:-build/smtop}
BASELINE=${BASELINE:-}
REPS=${REPS:-3}
JOB=${1:?usage: bench_cold.sh JOB_DIR}
[ -x "$SMTOP" ] || { echo "bench_cold: $SMTOP is not an executable; build first or set SMTOP" >&2; exit 1; }
. "$(dirname "$0")/bench_lib.sh"
command -v fincore >/dev/null || { echo "bench_cold: fincore not found (Debian: util-linux)" >&2; exit 1; }
LIST=$(mktemp "${TMPDIR:-/tmp}/smtop_cold.XXXXXX")
trap 'rm -f "$LIST"' EXIT
find "$JOB" -type f ! -name '.*' -print0 >"$LIST"
bytes=$(xargs -0 stat -c %s <"$LIST" | awk '{s += $1} END {print s}')

evict() {
    python3 - "$LIST" <<'EOF'
import os, sys
for p in open(sys.argv[1], 'rb').read().split(b'\0'):
    if p:
        fd = os.open(p, os.O_RDONLY)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)
EOF
    local res
    res=$(xargs -0 fincore -b -n -o RES <"$LIST" | awk '{s += $1} END {print s + 0}')
    [ "$res" -eq 0 ] || echo "bench_cold: warning: $res bytes of the job still cached" >&2
}

# timed CMD...: seconds of wall, from bash's clock (no extra process).
timed() {
    local t0=$EPOCHREALTIME
    "$@" >/dev/null
    awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.3f", b - a}'
}
cat_all() { xargs -0 cat <"$LIST"; }


echo "== cold-cache ingest of $JOB ($(awk -v b="$bytes" 'BEGIN {printf "%.0f", b / 1048576}') MB, $(tr -cd '\0' <"$LIST" | wc -c) files), $REPS rounds, load $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$LIST.c"; : >"$LIST.n"; : >"$LIST.b"
for r in $(seq "$REPS"); do
    evict; c=$(timed cat_all); echo "$c" >>"$LIST.c"
    evict; n=$(timed "$SMTOP" report --json "$JOB"); echo "$n" >>"$LIST.n"
    line="round $r: cat $c s, smtop $n s"
    if [ -n "$BASELINE" ]; then
        evict; b=$(timed "$BASELINE" report --json "$JOB"); echo "$b" >>"$LIST.b"
        line="$line, baseline $b s"
    fi
    echo "$line"
done
mc=$(median <"$LIST.c"); mn=$(median <"$LIST.n")
printf 'median: cat %s s, smtop %s s (%.2fx cat)' "$mc" "$mn" "$(awk -v a="$mn" -v b="$mc" 'BEGIN {print a / b}')"
if [ -n "$BASELINE" ]; then
    mb=$(median <"$LIST.b")
    printf ', baseline %s s (%.2fx cat)' "$mb" "$(awk -v a="$mb" -v b="$mc" 'BEGIN {print a / b}')"
fi
echo "; load $(cut -d' ' -f1-3 /proc/loadavg)"
rm -f "$LIST.c" "$LIST.n" "$LIST.b"
