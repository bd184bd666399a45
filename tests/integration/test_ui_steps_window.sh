#!/bin/bash
# The Steps pane follows the selected time window (issue 14): its count,
# percentiles and histogram are over the steps that start inside the
# window `+ - [ ]` chose, and its border names the range. Where the model
# no longer retains every step of the window (it keeps the newest 4,096
# per phase) the border says what it shows instead: "last 4096 steps",
# "N steps to HH:MM:SS", or the whole job.
source "$(dirname "$0")/ui_lib.sh"
command -v jq >/dev/null || { echo "SKIPPED: jq not found"; exit 77; }

JOB="$UI_WORK/job"
S=1700000000                       # 2023-11-14 22:13:20 UTC; ~8,400 TRAIN steps
ui_synth "$JOB" --nodes 2 --gpus 1 --minutes 20 --start $S
"$SMTOP" report --json "$JOB" > "$UI_WORK/all.json"
END=$(jq '.time_range.end_us' "$UI_WORK/all.json")
TOTAL=$(jq '[.steps[] | select(.node == "algo-1" and .process == null and
             .phase == "Step:ModeKeys.TRAIN")][0].count' "$UI_WORK/all.json")
secs() { printf '%d.%06d' $(($1 / 1000000)) $(($1 % 1000000)); }
# The ended job opens on the whole job (its first to its newest sample,
# inclusive); `+ +` quarters that span: the ~5 minutes up to the newest.
START=$(jq '.time_range.start_us' "$UI_WORK/all.json")
SPAN=$(( (END - START + 1) / 2 / 2 ))
"$SMTOP" report --json --since "$(secs $((END + 1 - SPAN)))" --until "$(secs $((END + 1)))" \
    "$JOB" > "$UI_WORK/win.json"
WIN=$(jq '[.steps[] | select(.node == "algo-1" and .process == null and
           .phase == "Step:ModeKeys.TRAIN")][0].count' "$UI_WORK/win.json")

shown_n() { ui_screen | grep -oE '^│n [0-9]+ ' | head -1 | awk '{ print $2 }'; }

ui_start 200 60 env TZ=UTC "$SMTOP" "$JOB"
# The ended job opens on its 20 minutes; `+ +` shows its last 5.
ui_wait 'UTC \(20 m 00 s\)|UTC \(19 m 59 s\)'
ui_loaded 60                     # n counts the steps read so far until then
ui_keys + +
ui_wait 'UTC \(5 m 00 s\)|UTC \(4 m 59 s\)'
ui_wait '[0-9] Steps'
ui_focus Steps
ui_keys Enter
ui_wait 'Steps \(Esc: back\) - 22:28:[0-9]{2}-22:33:[0-9]{2}'
ui_wait '^│n [0-9]+ '
n=$(shown_n)
# report keeps a step overlapping the window's start too: one more at most
((n == WIN || n + 1 == WIN)) || ui_fail "5-minute window shows n $n, report --since/--until has $WIN"
((n < TOTAL / 2)) || ui_fail "window n $n is not a part of the job's $TOTAL steps"
echo "ok: the live 5-minute window has $n TRAIN steps (report over the same window: $WIN)"

ui_keys -                           # 10 minutes: older than the 4,096 retained steps
ui_wait 'Steps \(Esc: back\) - last 4096 steps'
ui_wait '^│n 4096 '
echo "ok: a window reaching past the retained steps says 'last 4096 steps'"

ui_keys - -                         # the whole job (- stops at its 20 minutes): every step
ui_wait 'Steps \(Esc: back\) - whole job'
ui_wait "^│n $TOTAL "
echo "ok: zoomed out over the whole job: n $TOTAL"

ui_keys + +                         # 5 minutes again, scrubbed to the job's first minutes
for _ in 1 2 3 4 5 6; do ui_keys '['; done
ui_wait 'HISTORY'
ui_wait 'Steps \(Esc: back\) - whole job'
ui_wait "^│n $TOTAL "
echo "ok: a window before every retained step falls back to the whole job and says so"

for _ in 1 2 3 4; do ui_keys ']'; done   # 22:23-22:28: partly retained
ui_wait 'Steps \(Esc: back\) - [0-9]+ steps to 22:28:[0-9]{2}'
part=$(ui_screen | grep -oE '\- [0-9]+ steps to' | head -1 | awk '{ print $2 }')
[ "$(shown_n)" = "$part" ] || ui_fail "border says $part steps, stats show n $(shown_n)"
((part < 4096)) || ui_fail "partly retained window claims $part steps"
echo "ok: a partly retained window says '$part steps to 22:28'"
ui_quit
