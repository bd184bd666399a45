#!/bin/bash
# The terminal going away (ssh dropped, tmux killed) ends smtop: the job
# list and the dashboard both exit within 5 s instead of spinning on a
# hung-up stdin (the job list did, at a quarter of a core, for hours,
# when the terminal went while a dashboard opened from it was shown).
source "$(dirname "$0")/ui_lib.sh"
D="$UI_WORK/jobs"
ui_synth "$D/job-a/profiler-output" --nodes 1 --minutes 1

gone_within() {   # PID SECONDS: 0 once PID has exited
    local end=$((SECONDS + $2))
    while ((SECONDS < end)); do
        kill -0 "$1" 2>/dev/null || return 0
        sleep 0.1
    done
    return 1
}

# jobs-in: the terminal goes while a job's dashboard is open from the
# list; the dashboard ends on the hangup and the list must not take over
# a dead terminal.
for what in "jobs $D" "jobs-in $D" "$D/job-a"; do
    # shellcheck disable=SC2086
    ui_start 120 30 "$SMTOP" ${what/jobs-in/jobs}
    ui_wait 'job-a' 20
    if [[ $what == jobs-in* ]]; then
        ui_keys Enter
        ui_wait '1 node' 20
    fi
    pid=$(ui_smtop_pid)
    tm kill-server
    if ! gone_within "$pid" 5; then
        kill -KILL "$pid" 2>/dev/null
        echo "FAIL: 'smtop $what' still ran 5 s after its terminal went away"
        exit 1
    fi
    echo "ok: 'smtop ${what/$UI_WORK/WORK}' ended when its terminal went away"
done
