#!/bin/bash
# Picking a rank in a real terminal (tmux): on a synthetic job with 4 ranks
# per node (rank 2 of algo-1 slow), the Steps pane first shows algo-1's
# pooled steps ("all 4 ranks", the report's pooled count); `p` / `P` step
# through the node's writers — each showing the report's count and p50 for
# that rank — and back to the node; the Timeline pane shows the picked
# writer's timeline (the first rank while none is picked), and its own `p`
# moves the same pick.
source "$(dirname "$0")/ui_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }

JOB="$UI_WORK/job"
ui_synth "$JOB" --nodes 2 --ranks 4 --slow-rank 2 --minutes 3
"$SMTOP" report --json "$JOB" > "$UI_WORK/r.json" || { echo "FAIL: report"; exit 1; }
"$SMTOP_SRC/tests/tools/schema_ok.sh" "$UI_WORK/r.json" || exit 1
# count(WRITER|-): the TRAIN step count of a rank of algo-1 (- = pooled)
count() {
    python3 - "$UI_WORK/r.json" "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
w = None if sys.argv[2] == "-" else sys.argv[2]
print([s for s in r["steps"] if s["node"] == "algo-1" and s["process"] == w
       and s["phase"] == "Step:ModeKeys.TRAIN"][0]["count"])
PY
}
ALL=$(count -)
R0=$(count 0-algo-1)
R2=$(count 2-algo-1)
R3=$(count 3-algo-1)
[ "$R2" != "$R0" ] || { echo "FAIL: ranks 0 and 2 have the same count: the test cannot tell them apart"; exit 1; }

ui_start 200 60 "$SMTOP" --interval 1 "$JOB"
ui_wait '[0-9] Steps'
ui_focus Steps
ui_wait 'algo-1 all 4 ranks \(r\)  TRAIN'
ui_wait "n $ALL "
ui_keys r
ui_wait 'algo-1 > rank 0 \(1/4, r\)  TRAIN'
ui_wait "n $R0 "
ui_keys r r
ui_wait 'algo-1 > rank 2 \(3/4, r\)  TRAIN'
ui_wait "n $R2 "
# The timeline shows the same writer: its tab line names it.
ui_wait 'steps\|loader\|events  (step [0-9]+-[0-9]+ \()?[0-9]+-[0-9]+/[0-9]+\)? TRAIN algo-1 > rank 2 \(3/4, r\)'
ui_keys R R R
ui_wait 'algo-1 all 4 ranks \(r\)  TRAIN'
ui_wait "n $ALL "
# With none picked, the timeline shows the first rank, not pooled ranks.
ui_wait 'steps\|loader\|events  (step [0-9]+-[0-9]+ \()?[0-9]+-[0-9]+/[0-9]+\)? TRAIN algo-1 > rank 0 \(1/4, r\)'
ui_keys R
ui_wait 'algo-1 > rank 3 \(4/4, r\)  TRAIN'
ui_wait "n $R3 "

# The Timeline pane's own r moves the shared pick.
ui_focus Timeline
ui_keys r                                    # 3-algo-1 -> the whole node
ui_wait 'algo-1 all 4 ranks \(r\)  TRAIN'
ui_keys r
ui_wait 'steps\|loader\|events  (step [0-9]+-[0-9]+ \()?[0-9]+-[0-9]+/[0-9]+\)? TRAIN algo-1 > rank 0 \(1/4, r\)'
ui_wait 'algo-1 > rank 0 \(1/4, r\)  TRAIN'
ui_quit
echo "ok: ranks picked (pooled $ALL, rank 0 $R0, rank 2 $R2, rank 3 $R3 TRAIN steps)"
