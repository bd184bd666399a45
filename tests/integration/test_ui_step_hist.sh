#!/bin/bash
# The Steps histogram resolves the bulk of the steps (issue 26): on a job
# whose steps differ by a few percent, with a few stalls among them, p50
# and p95 fall in different bars (the log-scale buckets put them in one
# bar holding 95 % of the steps), and the stalls go to an overflow row
# ">BOUND ... N  max MAX" whose MAX is the job's longest step. The rows
# count every step: on a job with all its steps retained, and on one with
# more than the 4,096 a phase retains (bars from its quantile sketch).
source "$(dirname "$0")/ui_lib.sh"

# The zoomed Steps pane's histogram rows: "│LABEL  BAR  COUNT  MARKS".
hist_rows() { ui_screen | grep -E '^│[<>]?[0-9][0-9.]* (us|ms|s) +[^│]* [0-9]+( [a-z0-9 .]*)? *│$'; }
row_of() { hist_rows | grep -nE " [0-9]+ ($1)" | head -1 | cut -d: -f1; }

# check_hist WHAT: asserts on the histogram on screen.
check_hist() {
    local what=$1 n max r50 r95 sum over
    n=$(ui_screen | grep -oE '^│n [0-9]+ ' | head -1 | awk '{ print $2 }')
    max=$(ui_screen | grep -oE '^│n [0-9]+ .* max [0-9.]+ [a-z]+' | head -1 | sed 's/.* max //')
    [ -n "$n" ] && [ -n "$max" ] || ui_fail "$what: no 'n N ... max M' line"
    r50=$(row_of 'p50')
    r95=$(row_of 'p95|p50 p95')
    [ -n "$r50" ] && [ -n "$r95" ] || ui_fail "$what: p50 or p95 not marked on a row"
    [ "$r50" != "$r95" ] || ui_fail "$what: p50 and p95 in one bar (row $r50)"
    over=$(hist_rows | grep -E '^│>' )
    [ -n "$over" ] || ui_fail "$what: no overflow row"
    echo "$over" | grep -qF "max $max" || ui_fail "$what: overflow row does not reach max $max"
    local oc
    oc=$(echo "$over" | sed -E 's/ +(p9[59]|max).*//' | awk '{ print $NF }')
    ((oc >= 1 && oc * 10 <= n)) || ui_fail "$what: overflow row holds $oc of $n steps"
    sum=$(hist_rows | sed -E 's/ +(p50|p95|p99|max|min).*//; s/ *│$//' | awk '{ s += $NF } END { print s }')
    [ "$sum" = "$n" ] || ui_fail "$what: the rows count $sum steps, the pane says n $n"
    echo "ok: $what: p50 row $r50, p95 row $r95, overflow $oc of $n, to $max"
}

# A synthetic job: TRAIN steps near 120 ms, 2 % of them 3-6x slower.
ui_synth "$UI_WORK/job" --nodes 1 --minutes 3 --outlier-rate 0.02 --start 1700000000
ui_start 100 34 "$SMTOP" "$UI_WORK/job"
ui_wait '[0-9] Steps'
ui_loaded 60
ui_focus Steps
ui_keys Enter
ui_wait 'Steps \(Esc: back\)'
ui_wait ' [0-9]+ p50'
check_hist "synthetic job"
ui_quit

# More steps than a phase retains (the whole job's rows from its sketch).
ui_synth "$UI_WORK/long" --nodes 1 --minutes 12 --outlier-rate 0.02 --start 1700000000
ui_start 100 34 "$SMTOP" "$UI_WORK/long"
ui_wait '[0-9] Steps'
ui_loaded 60
ui_focus Steps
ui_keys Enter
ui_wait '^│n [0-9]{4,} '
n=$(ui_screen | grep -oE '^│n [0-9]+ ' | head -1 | awk '{ print $2 }')
((n > 4096)) || ui_fail "the long job has $n steps, not more than the 4096 retained"
ui_wait ' [0-9]+ p50'
check_hist "job of $n steps"
ui_quit

MT="${SMTOP_SAMPLES:-}/merge_traces"
[ -d "$MT" ] || { echo "SKIPPED the merge_traces part: ../shared/samples not found"; exit 0; }
ui_start 80 24 "$SMTOP" "$MT"
ui_wait '[0-9] Steps'
ui_loaded 60
ui_focus Steps
ui_keys Enter
ui_wait ' [0-9]+ p50'
check_hist "merge_traces"
ui_quit
