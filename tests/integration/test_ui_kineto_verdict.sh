#!/bin/bash
# The first screen of a PyTorch profiler job says what is wrong, why, and
# what to change (issues 25, 26, 32): at 80x24 and at 200x60 the header's
# verdict row leads with the first finding of report --json, its cause and
# its fix ("GPU idle 82 %: gloo all-reduce on the host → use NCCL"), keeps
# the finding's key figure at 80 columns, and carries one idle percentage
# at most; on every synth shape with a known cause, the host-bound job, and
# the real traces of ../shared/samples/kineto
# (nccl_data: rank 0 of 2, NCCL on an A100; sampled_ranks: two ranks of
# 128; ns_resolution: fp32 on a V100) where they are.
source "$(dirname "$0")/ui_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
S=${SMTOP_SAMPLES:-}

# expect DIR: the first finding's head, cause and fix, one per line:
# text, brief, why, why in fewer words, knob.
expect() {
    "$SMTOP" report --json "$1" >"$UI_WORK/r.json" || ui_fail "report --json $1"
    python3 - "$UI_WORK/r.json" <<'PY'
import json, re, sys
f = json.load(open(sys.argv[1]))["verdict"]["findings"][0]
assert f["knob"] and f["cause"] and f["fix"] and f["evidence"], f
why = f["why"] or ""
short = re.sub(r" \([^()]*\)$", "", why)
for x in (f["text"], f["brief"] if "brief" in f else "", why, short, f["knob"]):
    print(x)
PY
}

# verdict_row PREFIX [PART...]: prints the header's verdict row once it
# starts with PREFIX and holds each PART in order, within 20 s; else prints
# the last row it read and fails. The parts are quoted, never patterns.
verdict_row() {
    local row end=$((SECONDS + 20)) want
    want="$(printf '%q' "$1")*"
    shift
    for part in "$@"; do want+="$(printf '%q' "$part")*"; done
    while :; do
        row=$(ui_screen | sed -n 2p | sed -E 's/^ +//')
        eval "[[ \"\$row\" == $want ]]" && { echo "$row"; return 0; }
        ((SECONDS < end)) || { echo "$row"; return 1; }
        sleep 0.3
    done
}

# screens DIR NAME [WANT_WHY]: the header row at both sizes.
screens() {
    local row size out text why short knob fig
    out=$(expect "$1") || ui_fail "$2: no finding with a fix"
    { read -r text; read -r _; read -r why; read -r short; read -r knob; } <<<"$out"
    [ -z "${3:-}" ] || [[ "$why" == "$3"* ]] || ui_fail "$2: cause '$why', want '$3'"
    for size in "200 60" "80 24"; do
        ui_start $size "$SMTOP" "$1"
        ui_wait "$UI_FOLLOW" 30
        ui_wait "→ $knob" 20
        # the traces arrive one file a tick: the row names "2 traced steps"
        # before it names all of them, so the row is polled until it reads
        # as the finished report does, and fails with what it last read
        if [ "$size" = "200 60" ]; then
            row=$(verdict_row "$text${why:+: $why} → $knob") ||
                ui_fail "$2 at 200x60: '$row' does not start with '$text: $why → $knob'"
        else
            # the key figure stays: the lead finding's first "N %"
            fig=$(grep -oE '[0-9.]+ %' <<<"$text" | head -1)
            row=$(verdict_row "" "$fig" "$short" "→ $knob") ||
                ui_fail "$2 at 80x24: '$row' does not name '${fig:+$fig, }$short' and '$knob'"
        fi
        [ "$(grep -oE 'idle [0-9]+ %' <<<"$row" | sort -u | wc -l)" -le 1 ] ||
            ui_fail "$2: two idle figures in '$row'"
        ui_quit
    done
    echo "ok: $2: $row"
}

for shape in gloo main-loader launch-bound nccl-exposed memory-full; do
    "$SMTOP" synth --out "$UI_WORK/$shape" --shape "$shape" --minutes 2 --seed 4 \
        --start 1700000000 >/dev/null || ui_fail "synth $shape"
done
screens "$UI_WORK/gloo" gloo "gloo all-reduce on the host"
# gloo's threads all-reduce at once: the share of the idle time the host
# communicated is their union, never past 100 %
"$SMTOP" report --json "$UI_WORK/gloo" | python3 -c '
import json, re, sys
c = json.load(sys.stdin)["verdict"]["findings"][0]["cause"]
pct = float(re.search(r"during ([0-9.]+) % of the GPU.s idle time", c).group(1))
assert 0 < pct <= 100, c' || ui_fail "gloo: the idle share the host communicated is not in (0, 100]"
# each annotation keeps its own name: the Timeline's events and its / find gloo's
ui_start 200 60 "$SMTOP" "$UI_WORK/gloo"
ui_wait "$UI_FOLLOW" 30
ui_focus Timeline
ui_keys v
ui_wait 'steps\|loader\|events  .*data loading' 10
ui_keys v
ui_wait 'steps\|loader\|events  .*by start' 10
ui_keys / g l o o Enter
ui_wait ' [1-9][0-9]* events│' 10
ui_wait '│ +\+[0-9.]+s +[0-9.]+ [mu]?s +[-0-9]+ gloo:all_reduce' 10
ui_quit
echo "ok: gloo: the Timeline's events name gloo:all_reduce, / finds them"
screens "$UI_WORK/main-loader" main-loader "DataLoader on the main thread (train.py:12 __getitem__)"
screens "$UI_WORK/launch-bound" launch-bound "kernel launches"
screens "$UI_WORK/nccl-exposed" nccl-exposed "all-reduce after backward"
screens "$UI_WORK/memory-full" memory-full "activations fill the GPU"
"$SMTOP" synth --out "$UI_WORK/hb" --kineto --kineto-only --host-bound --nodes 1 --ranks 2 \
    --minutes 2 --seed 4 --start 1700000000 >/dev/null || ui_fail "synth"
screens "$UI_WORK/hb" "synth --host-bound" "host"
# the real traces: without them (a fresh clone) the synthetic part above
# still ran and counts, so the test passes, saying what it left out
if [ -n "$S" ] && [ -d "$S/kineto/nccl_data" ]; then
    screens "$S/kineto/nccl_data" nccl_data
    screens "$S/kineto/sampled_ranks" sampled_ranks
    screens "$S/kineto/ns_resolution" ns_resolution
else
    echo "note: ../shared/samples not found: the samples part is skipped"
fi
