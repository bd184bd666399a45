#!/bin/bash
# A path that does not exist is said so (issue 26): the dashboard waits
# for it (a job's output folder may not exist yet) and its status line
# says "PATH does not exist (yet): waiting for it", until it appears. A
# folder that holds jobs rather than being one names them in `report`
# (which fails, exit 1), and `smtop DIR` opens their list, as `smtop jobs
# DIR` does, not a dashboard of 0 nodes: Enter opens a job's dashboard,
# Esc comes back to the list.
source "$(dirname "$0")/ui_lib.sh"

ui_start 100 24 "$SMTOP" "$UI_WORK/nope"
ui_wait "nope does not exist \(yet\): waiting for it \([0-9]+ s so far\)" 15
"$SMTOP" synth --out "$UI_WORK/nope" --nodes 1 --minutes 1 --seed 3 >/dev/null || ui_fail "synth"
ui_wait_gone "does not exist" 20
ui_wait "1 node" 20
ui_quit

for j in a b; do
    "$SMTOP" synth --out "$UI_WORK/runs/$j/profiler-output" --nodes 1 --minutes 1 \
        --start 1700000000 --seed 3 >/dev/null || ui_fail "synth $j"
done
"$SMTOP" report "$UI_WORK/runs" >"$UI_WORK/out" 2>&1
rc=$?
[ "$rc" = 1 ] || ui_fail "report on a folder of jobs exited $rc"
grep -q "runs holds 2 jobs (a, b), not one: open one of them, e.g. .*/runs/a$" "$UI_WORK/out" ||
    ui_fail "report: $(cat "$UI_WORK/out")"

ui_start 120 24 "$SMTOP" "$UI_WORK/runs"
ui_wait "smtop jobs - .*/runs - 2 jobs" 15
ui_wait "^a " 15
ui_wait "^b " 15
ui_screen | grep -q "0 nodes" && ui_fail "a dashboard of 0 nodes beside the list"
ui_keys Enter
ui_wait "profiler-output \| 1 node" 20
ui_keys Escape
ui_wait "smtop jobs - .*/runs - 2 jobs" 15
ui_quit
echo "ok: a missing path says so and is waited for; a folder of jobs opens their list"
