#!/bin/bash
# The README's jq examples run as printed on a job whose nodes each have a
# training process (so `steps` has a node row and a process row per node):
# the p95 example prints each node once, and no example reads a key the
# report does not have (jq would print null).
SMTOP=${SMTOP:?}
source "$(dirname "$0")/it_lib.sh"
command -v jq >/dev/null || { echo "SKIPPED: jq not found"; exit 77; }
README="$(dirname "$0")/../../README.md"
"$SMTOP" synth --out "$T/job" --nodes 3 --gpus 1 --minutes 2 --seed 4 >/dev/null || fail_now synth
"$SMTOP" synth --out "$T/base" --nodes 3 --gpus 1 --minutes 2 --seed 5 >/dev/null || fail_now synth
cd "$T" || exit 1
n=0
while IFS= read -r line; do
    cmd=${line#    }
    cmd=${cmd//smtop /\"\$SMTOP\" }
    out=$(eval "$cmd") || fail_now "README example failed: $line"
    ! grep -qx 'null' <<<"$out" || fail_now "README example prints null: $line"
    case "$line" in
    *p95_us*)
        [ "$(wc -l <<<"$out")" = 3 ] || fail_now "p95 example: want one line per node, got: $out"
        [ "$(cut -d' ' -f1 <<<"$out" | sort -u | wc -l)" = 3 ] || fail_now "p95 example repeats a node: $out"
        ;;
    esac
    n=$((n + 1))
done < <(grep -E '^    smtop (report|diff) --json \./' "$README")
((n >= 4)) || fail_now "found only $n README jq examples"
echo "ok: $n README jq examples"
