#!/usr/bin/env bash
# The Kineto decoder against an independent reference: kineto_cdump (the
# C decoder, fed in pieces of 1, 7, 4096 bytes and whole) must print
# exactly what tests/tools/kineto_dump.py (python3's json module) prints,
# event by event and the metadata, on the hand-written edge cases of the
# fuzz corpus and on every real sample rewritten in every layout a trace
# may have (kineto_variants.py: metadata before/after traceEvents,
# pretty-printed, one line, .gz and plain, python_function kept or not).
set -uo pipefail
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cdump="$SMTOP_BUILD/tests/kineto_cdump"
dump="$SMTOP_SRC/tests/tools/kineto_dump.py"
variants="$SMTOP_SRC/tests/tools/kineto_variants.py"
[ -x "$cdump" ] || fail "$cdump not built"

# check FILE REF KEEP: every piece size gives the reference's lines.
check() {
    local whole=$(($(stat -c %s "$1") + 1)) c
    for c in 1 7 4096 "$whole"; do
        "$cdump" --keep-python "$3" --chunk "$c" "$1" >"$tmp/c.out" || fail "kineto_cdump $1"
        cmp -s "$tmp/c.out" "$2" || {
            diff "$tmp/c.out" "$2" | head -5
            fail "$(basename "$1") (keep_python $3) in pieces of $c differs from the reference"
        }
    done
}

n=0
for f in "$SMTOP_SRC"/tests/fuzz/corpus/kineto_decode/{numbers,strings,meta_after,not_kineto}.json; do
    gzip -c "$f" >"$tmp/edge.json.gz"
    for k in 0 1; do
        python3 "$dump" --keep-python "$k" "$f" >"$tmp/ref" || fail "reference on $f"
        check "$f" "$tmp/ref" "$k"
        check "$tmp/edge.json.gz" "$tmp/ref" "$k"
        n=$((n + 1))
    done
done
# the reference must see what matters in them, or the comparison is empty
grep -q 'ts=1234568 ' <(python3 "$dump" "$SMTOP_SRC/tests/fuzz/corpus/kineto_decode/numbers.json") ||
    fail "edge case: 1234.5675 us is not 1234568 ns"
echo "ok: $n edge-case readings agree"

samples="$SMTOP_SAMPLES/kineto"
[ -d "$samples" ] || { echo "SKIPPED: ../shared/samples not found"; exit 77; }
count=0
for src in "$samples"/*/*.json.gz; do
    name=$(basename "$src")
    python3 "$dump" "$src" >"$tmp/ref" || fail "reference on $name"
    [ "$(grep -c '^E ' "$tmp/ref")" -gt 0 ] || fail "reference gives no events for $name"
    rm -rf "$tmp/v"
    python3 "$variants" "$src" "$tmp/v" || fail "variants of $name"
    for v in "$tmp"/v/*; do
        [ "$(basename "$v")" = pyfunc.json ] && continue
        check "$v" "$tmp/ref" 1
        count=$((count + 1))
    done
    for k in 0 1; do
        python3 "$dump" --keep-python "$k" "$tmp/v/pyfunc.json" >"$tmp/ref" || fail "reference"
        check "$tmp/v/pyfunc.json" "$tmp/ref" "$k"
    done
    echo "ok: $name"
done
echo "ok: $count sample layouts agree with the reference in every piece size"
