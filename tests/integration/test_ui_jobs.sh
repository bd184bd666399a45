#!/bin/bash
# `smtop jobs` in tmux against the local botocore-checked SageMaker API
# (tests/aws) and the S3 rig (the dashboards it opens):
# - 30 jobs listed newest first (7 days: 27), a name with control
#   characters shown sanitized, heterogeneous clusters marked '+';
# - `/^whisper` filters (anchored), Esc clears it; `>`, `<` and `S` move
#   and reverse the sort, the header marks the column; `f` the faults only;
# - Enter on the 7th job opens its dashboard from S3, Esc comes back with
#   the cursor on the same job (Enter again opens it again); the header
#   shows the API's status (Stopped 1 d ago, Training, Failed: reason);
#   q quits, 0;
# - describes: only rows on screen and jobs in progress, never twice for
#   an ended job while the list sits idle;
# - an API that hangs: q quits within a second.
source "$(dirname "$0")/ui_api_lib.sh"
ui_api_start --s3
aws_reset
# the 1st and 7th jobs (both with a profiler config) get data in the bucket
mapfile -t names < <(python3 -c 'import json,sys; print("\n".join(j["name"] for j in json.load(open(sys.argv[1]))["jobs"]))' "$UI_WORK/list.json")
J1=${names[0]} J7=${names[6]} J10=${names[9]}
ui_api_upload "$J1" "$J7" "$J10"
aws_envline
rig_s3env
# the dashboard's header shortens a long path in the middle: match its end
dash_of() { ui_wait "s3://smtop-jobs.*${1: -4}/profiler-output" 20; }

ui_start 160 40 "${AWSENV[@]}" XDG_CACHE_HOME="$XDG_CACHE_HOME" "$SMTOP" jobs --endpoint-url "$RIG_ENDPOINT"
ui_wait 'smtop jobs - SageMaker us-east-1 - 27 jobs'
ui_wait "^$J1 "
ui_screen | grep -q 'evil?red?-job' || ui_fail "the control-character name is not shown sanitized"
ui_screen_esc | grep -q $'\x07' && ui_fail "a BEL reached the terminal"
ui_wait 'p4d\.24xlarge\+ x3'                                  # InstanceGroups: 2 groups, 3 hosts
ui_wait 'AGE▲'

# --- filter, sort, faults
ui_keys / ^ w h i s p e r Enter
ui_wait '27 jobs \([0-9]+ shown\) - filter \^whisper'
rows=$(ui_screen | sed -n '3,39p' | grep -cE '^[a-z]')
[ "$rows" -eq "$(ui_screen | sed -n '3,39p' | grep -c '^whisper')" ] || ui_fail "the filter let other names through"
ui_keys Escape
ui_wait_gone 'shown\)'
ui_keys '>'
ui_wait 'TRAIN▲'
ui_keys S
ui_wait 'TRAIN▼'
ui_keys '<' '<' '<'
ui_wait 'STATUS▼'
ui_keys S '<'
ui_wait 'NAME▲'
ui_screen | sed -n 3p | grep -q '^bert' || ui_fail "sorted by name, the first row is not a bert job"
ui_keys f
ui_wait 'faults only'
# an ended job belongs here by an alert or by idle GPU-hours (>= 1): the
# last three columns are ALRT (blank when none), IDLE-GPU-H and INST-H, and
# STEP before them never ends in a bare integer
ui_screen | sed -n '3,39p' | grep -E '^[a-z]' | grep -E ' (Completed|Stopped) ' |
  awk '{ alert = $(NF-2) ~ /^[0-9]+$/; idle = $(NF-1)
         if (!alert && (idle == "-" || idle + 0 < 1)) print }' | grep . &&
  ui_fail "a healthy ended job in the faults view"
ui_screen | grep -q ' Failed ' || ui_fail "no Failed job in the faults view"
ui_keys f
ui_wait_gone 'faults only'

# --- Enter into the 7th job's dashboard and back
ui_keys '>' '>' '>'        # back to AGE (newest first)
ui_wait 'AGE▲'
ui_keys g j j j j j j
ui_keys Enter
dash_of "$J7"
ui_wait 'algo-2' 20
ui_wait ' Stopped [0-9]+ [smhd] ago *$'       # the API's status, not the files' freshness
ui_keys Escape
ui_wait 'smtop jobs - SageMaker'
ui_keys Enter
dash_of "$J7"
ui_keys Escape
ui_wait 'smtop jobs - SageMaker'
ui_keys k k k k k k Enter
dash_of "$J1"
ui_wait ' (Training|Downloading|Starting) *$'
ui_keys Escape
ui_wait 'smtop jobs - SageMaker'
ui_keys j j j j j j j j j Enter
dash_of "$J10"
ui_wait ' Failed: [A-Za-z]'
ui_keys Escape
ui_wait 'smtop jobs - SageMaker'
ui_keys '?'
ui_wait 'smtop jobs - keys'
ui_keys x
ui_wait_gone 'smtop jobs - keys'
ui_quit
echo "ok: list, filter, sort, faults, Enter/Esc into two dashboards and back"

# --- calls bounded: ended jobs are described once, however long the list sits
aws_reset
AWS_LIST="$UI_WORK/list.json"
ui_start 120 40 "${AWSENV[@]}" "$SMTOP" jobs --interval 1
ui_wait '27 jobs'
sleep 5
ended=$(aws_max_described Completed Failed Stopped)
running=$(aws_max_described InProgress Stopping)
d=$(aws_calls DescribeTrainingJob)
[ "$ended" -eq 1 ] || ui_fail "an ended job was described $ended times"
[ "$running" -ge 3 ] && [ "$running" -le 8 ] || ui_fail "a running job was described $running times in 5 s at --interval 1"
[ "$(aws_calls ListTrainingJobs)" -le 2 ] || ui_fail "$(aws_calls ListTrainingJobs) lists in 5 s"
ui_quit
echo "ok: ended jobs described once, running ones $running times in 5 s ($d describes in all)"

# --- a hanging API: q within a second
aws_fault '{"kind":"hang","count":100}'
ui_start 120 40 "${AWSENV[@]}" "$SMTOP" jobs
ui_wait 'listing jobs'
sleep 1
t0=$(date +%s%N)
ui_keys q
ui_wait 'SMTOP_EXIT=' 5
ms=$((($(date +%s%N) - t0) / 1000000))
[ "$ms" -lt 1000 ] || ui_fail "q took $ms ms while the API hangs"
echo "ok: q during a hang: $ms ms"
