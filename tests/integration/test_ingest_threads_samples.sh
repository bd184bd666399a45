#!/usr/bin/env bash
# `report --json` and `report` on the real samples are the same bytes (and
# the same exit status) however many threads ingest them
# (SMTOP_INGEST_THREADS: 0 = the scanning thread alone, N = N threads,
# unset = one per core): every job under samples/ and every folder one
# level below (the Kineto shapes, whose traces are decoded on the ingest
# workers and applied in list order, scan_traces.c).
# Synthetic jobs: test_ingest_threads.sh.
source "$(dirname "$0")/it_lib.sh"
if [ ! -d "${SMTOP_SAMPLES:-}/test_traces" ]; then
    echo "SKIPPED: ../shared/samples not found (real-sample tests need it)"
    exit 77
fi
read=0

while IFS= read -r d; do
    env -u SMTOP_INGEST_THREADS "$SMTOP" report --json "$d" >"$T/ref" 2>/dev/null
    want=$?
    [ "$want" = 0 ] && read=$((read + 1))
    env -u SMTOP_INGEST_THREADS "$SMTOP" report "$d" >"$T/ref.txt" 2>/dev/null
    for t in 0 1 2 3 5; do
        SMTOP_INGEST_THREADS=$t "$SMTOP" report --json "$d" >"$T/out" 2>/dev/null
        rc=$?
        [ "$rc" = "$want" ] || fail "$d: exit $rc with SMTOP_INGEST_THREADS=$t, $want by default"
        cmp -s "$T/ref" "$T/out" || fail "$d: report --json with SMTOP_INGEST_THREADS=$t differs"
        SMTOP_INGEST_THREADS=$t "$SMTOP" report "$d" >"$T/out.txt" 2>/dev/null
        cmp -s "$T/ref.txt" "$T/out.txt" || fail "$d: report with SMTOP_INGEST_THREADS=$t differs"
    done
done < <(find "$SMTOP_SAMPLES" -mindepth 1 -maxdepth 2 -type d \
    ! -name system ! -name framework | sort)
# test_traces and merge_traces at least are jobs report reads.
[ "$read" -ge 2 ] || fail "only $read sample jobs were read"
[ $fails = 0 ] && echo "report --json and report the same with 0, 1, 2, 3, 5 threads on every sample ($read read)"
it_done
