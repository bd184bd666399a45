#!/bin/bash
# The text report puts the verdict first (issue 14): rules that fired, idle
# GPU-hours and the straggler within the first screen, before any per-node
# detail; `--summary` prints only that.
: "${SMTOP:?}"
source "$(dirname "$0")/it_lib.sh"

"$SMTOP" synth --out "$T/job" --nodes 64 --gpus 2 --cpus 2 --minutes 2 --interval-ms 1000 \
    --slow-node 41 --seed 7 --start 1700000000 >/dev/null || fail_now "synth"
"$SMTOP" report "$T/job" >"$T/full.txt"
rc=$?
[ "$rc" = 0 ] || fail_now "report exited $rc"
line() { grep -n -m1 -E "$1" "$T/full.txt" | cut -d: -f1; }
v=$(line '^== verdict ==$'); d=$(line '^== details ==$')
[ -n "$v" ] && [ -n "$d" ] || fail_now "no verdict / details headings"
s=$(line '^straggler: +algo-42: step p50'); r=$(line '^  medium Straggler +algo-42'); i=$(line '^idle GPU: +[0-9.]+ of [0-9.]+ GPU-hours')
for x in "$s" "$r" "$i"; do
    [ -n "$x" ] && [ "$x" -lt "$d" ] && [ "$x" -le 24 ] ||
        { head -30 "$T/full.txt"; fail_now "verdict line missing or not in the first screen"; }
done
[ "$(line '^node algo-1:')" -gt "$d" ] || fail_now "per-node details before the verdict"

"$SMTOP" report --summary "$T/job" >"$T/sum.txt" || fail_now "--summary exited $?"
n=$(wc -l <"$T/sum.txt")
[ "$n" -le 24 ] || fail_now "--summary is $n lines"
grep -q '^straggler: +algo-42' "$T/sum.txt" || grep -Eq '^straggler: +algo-42' "$T/sum.txt" || fail_now "--summary lacks the straggler"
grep -Eq '^  medium Straggler' "$T/sum.txt" || fail_now "--summary lacks the fired rules"
! grep -q '^node algo-1' "$T/sum.txt" || fail_now "--summary prints details"
echo "ok: verdict first ($v..$d of $(wc -l <"$T/full.txt") lines), --summary $n lines"
