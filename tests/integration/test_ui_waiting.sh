#!/bin/bash
# A job that has not written anything yet (local directory): the dashboard
# opens, says it waits for the first data there and for how long, shows
# the job as soon as files appear, then behaves as usual (keys work, q
# quits). Also when the directory itself does not exist yet but its
# parent does. A path whose parent does not exist is still an error, and
# `smtop report` on an empty job still exits 1 with a clear message.
source "$(dirname "$0")/ui_lib.sh"

# --- an empty directory
mkdir -p "$UI_WORK/empty"
ui_start 160 40 "$SMTOP" --interval 1 "$UI_WORK/empty"
ui_wait "waiting for the first data \\([0-9]+ s so far\\) in $UI_WORK/empty" 15
ui_wait 'WAITING *$'
ui_wait '0 nodes'
ui_wait 'waiting for the first data \([2-9] s so far\)' 15     # the clock runs
"$SMTOP" synth --out "$UI_WORK/empty" --nodes 3 --minutes 2 --seed 4 >/dev/null
ui_wait '3 nodes' 20
ui_wait 'algo-3'
ui_wait_gone 'waiting for the first data'
ui_wait_gone 'WAITING'
ui_keys Space
ui_wait 'PAUSED *$'
ui_keys Space
ui_wait "$UI_FOLLOW"
ui_quit
echo "ok: empty directory waited for, then shown"

# --- a directory not created yet, under one that exists; the job
# directory form (profiler-output/ inside) is found once it appears
# (before the parent exists it is an error, not a wait)
ui_start 160 40 "$SMTOP" --interval 1 "$UI_WORK/later/job"
ui_wait 'SMTOP_EXIT=1' 15
ui_wait "later/job does not exist, nor does $UI_WORK/later"
mkdir -p "$UI_WORK/later"
ui_start 160 40 "$SMTOP" --interval 1 "$UI_WORK/later/job"
# (a directory that does not exist yet is named as such, issue 26)
ui_wait "$UI_WORK/later/job does not exist \\(yet\\): waiting for it \\([0-9]+ s so far\\)" 15
"$SMTOP" synth --out "$UI_WORK/later/job/profiler-output" --nodes 2 --minutes 2 >/dev/null
ui_wait '2 nodes' 20
ui_wait "$UI_WORK/later/job/profiler-output"
ui_quit
echo "ok: directory created after the start"

# --- the --demo race (it_ui_demo's old flake): the directory holds an
# empty system/ when the dashboard opens; headless frames run and exit 0
mkdir -p "$UI_WORK/started/system/incremental"
timeout 60 "$SMTOP" --frames 5 "$UI_WORK/started" </dev/null >/dev/null 2>"$UI_WORK/err" ||
    { cat "$UI_WORK/err"; echo "FAIL: --frames on a job that has not written yet"; exit 1; }
echo "ok: headless frames on a job with an empty system/"

# --- errors stay errors
"$SMTOP" "$UI_WORK/nowhere/at/all" </dev/null >/dev/null 2>"$UI_WORK/err"
rc=$?
[ "$rc" = 1 ] || { echo "FAIL: missing parent exited $rc, want 1"; exit 1; }
grep -q "$UI_WORK/nowhere/at/all does not exist, nor does $UI_WORK/nowhere/at" "$UI_WORK/err" ||
    { cat "$UI_WORK/err"; echo "FAIL: missing parent message"; exit 1; }
mkdir -p "$UI_WORK/empty2"
"$SMTOP" report "$UI_WORK/empty2" >/dev/null 2>"$UI_WORK/err"
rc=$?
[ "$rc" = 1 ] || { echo "FAIL: report on an empty job exited $rc, want 1"; exit 1; }
grep -q "$UI_WORK/empty2 holds no profiler data: expected system/ or framework/" "$UI_WORK/err" ||
    { cat "$UI_WORK/err"; echo "FAIL: report message on an empty job"; exit 1; }
"$SMTOP" report "$UI_WORK/later/missing" >/dev/null 2>"$UI_WORK/err"
[ $? = 1 ] || { echo "FAIL: report on a missing directory must exit 1"; exit 1; }
echo "ok: missing parent and empty report are errors"
