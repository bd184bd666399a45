#!/bin/bash
# The widest slot (issue 26) for the panes whose say came last: Steps says
# a line per rank of its node, Top the head of its table (pane_vtbl.say).
# - 2 nodes of 8 ranks with PyTorch profiler traces, at 80x24 and 120x40:
#   Steps (the ranks' header uncut) takes the last, widest row from a
#   Heatmap of two nodes; the other panes keep their order;
# - PyTorch profiler traces only (no system metrics): Steps has the main
#   slot, and Top takes the widest row from a job with no alert, its
#   name column shown;
# - one rank a node: Steps does not take it.
source "$(dirname "$0")/ui_lib.sh"

borders() { ui_screen | grep -E '^┌'; }
order() { borders | grep -oE "─ [0-9] " | tr -d "─ " | tr -d "\n"; }
# wide_is N TITLE ORDER: the last row is pane N alone, the others in ORDER
wide_is() {
    ui_wait "^┌─ $1 $2[^┐]*┐\$" 20
    [ "$(order)" = "$3" ] || ui_fail "panes out of order: $(order), want $3"
}
settle() { ui_wait '6 Alerts' 30; ui_loaded 60; }

ui_synth "$UI_WORK/ranks" --kineto --nodes 2 --ranks 8 --gpus 8 --minutes 2 --start 1700000000
for size in "80 24" "120 40"; do
    ui_start $size "$SMTOP" "$UI_WORK/ranks"
    settle
    wide_is 3 Steps 24563
    ui_wait '^│algo-1 all 8 ranks \(r\)  TRAIN  \(1/[0-9]*, n/N\)' 30
    ui_quit
done

# No outlier steps: synth makes each a data stall, and the traces' idle
# finding names the DataLoader for them; this job must have no alert.
ui_synth "$UI_WORK/konly" --kineto-only --nodes 2 --ranks 4 --minutes 2 --start 1700000000 \
    --outlier-rate 0
ui_start 80 24 "$SMTOP" "$UI_WORK/konly"
settle
ui_wait '^┌─\[3 Steps' 10
ui_wait '│0 alerts' 10
wide_is 4 Top 564
ui_screen | grep -qE '^│  #  .* name +│$' || ui_fail "the wide Top pane lacks its name column"
ui_quit

ui_synth "$UI_WORK/one" --nodes 2 --gpus 8 --minutes 2 --python-stats 50 --start 1700000000
ui_start 80 24 "$SMTOP" "$UI_WORK/one"
settle
ui_wait '^┌─ [0-9] [A-Z][^┐]*┐$' 20
last=$(borders | tail -1)
[[ "$last" == "┌─ 3 Steps"* ]] && ui_fail "Steps of one rank a node took the widest slot"
ui_quit
echo "ok: Steps of many ranks and Top of a traces-only job take the widest slot"
