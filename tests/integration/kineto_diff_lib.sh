# kineto_diff_lib.sh: the body of the two Kineto differential tests
# (test_kineto_differential*.sh), sourced by them: SMTOP_* from ctest.
set -uo pipefail
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cdump="$SMTOP_BUILD/tests/kineto_cdump"
dump="$SMTOP_SRC/tests/tools/kineto_dump.py"
variants="$SMTOP_SRC/tests/tools/kineto_variants.py"
[ -x "$cdump" ] || fail "$cdump not built"
# The samples it_kineto_differential_large reads; the other test reads
# every other folder, so a new sample is never left out.
KDIFF_LARGE="ns_resolution trace_diff_control trace_diff_test"

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

# kdiff_edge: the hand-written edge cases of the fuzz corpus, plain and gz.
kdiff_edge() {
    local n=0 f k
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
}

# kdiff_samples NAME...: the samples under kineto/NAME/, every layout.
kdiff_samples() {
    local samples="$SMTOP_SAMPLES/kineto" count=0 src name v k d
    [ -d "$samples" ] || { echo "SKIPPED: ../shared/samples not found"; exit 77; }
    for d in "$@"; do
        for src in "$samples/$d"/*.json.gz; do
            [ -f "$src" ] || fail "no sample in $samples/$d"
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
    done
    echo "ok: $count sample layouts agree with the reference in every piece size"
}

# kdiff_samples_rest: every sample folder not in KDIFF_LARGE.
kdiff_samples_rest() {
    local d rest=()
    [ -d "$SMTOP_SAMPLES/kineto" ] || { echo "SKIPPED: ../shared/samples not found"; exit 77; }
    for d in "$SMTOP_SAMPLES"/kineto/*/; do
        d=$(basename "$d")
        [[ " $KDIFF_LARGE " == *" $d "* ]] || rest+=("$d")
    done
    kdiff_samples "${rest[@]}"
}
