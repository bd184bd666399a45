# jobs_api_files_lib.sh: the job set of the SageMaker API jobs whose
# figures come from their own profiler output in S3, shared by
# it_jobs_api_files (`smtop jobs --json`) and it_ui_jobs_api_files (the
# list screen). Of the local API's jobs (tests/aws), the three newest
# plain-named ones with a ProfilerConfig path and a start time:
#   A  Debugger system metrics and smdebug events (2 GPUs, 4 minutes) in
#      s3://smtop-jobs/profiler/A/profiler-output: its GPU/CPU/MEM %, idle
#      GPU-hours, step p50 and alerts come from them;
#   B  PyTorch profiler traces only, beside profiler-output (3 minutes):
#      its step p50 and alerts come from them, its utilization from
#      CloudWatch;
#   C  a path, no data: CloudWatch's figures, no step p50.
# Sourced after tests/aws/rig.sh and tests/s3/rig.sh, both started
# (rig_env done); SMTOP set.

# jaf_jobs LIST_JSON DIR: sets A, B and C from LIST_JSON (a `smtop jobs
# --json` of the API), writes their data under DIR (DIR/NAME laid out as
# a job folder, for jobs_figures.py) and uploads DIR to
# s3://smtop-jobs/profiler/. Returns 1 after a FAIL line.
jaf_jobs() {
    local list=$1 dir=$2 p
    mapfile -t p < <(python3 -c '
import json, sys
for j in json.load(open(sys.argv[1]))["jobs"]:
    if j["profiler_output"] and j["name"].isprintable() and j["training_start_s"]:
        print(j["name"])' "$list" | head -3)
    [ "${#p[@]}" -eq 3 ] || { echo "FAIL: the fixture has ${#p[@]} jobs with a profiler path"; return 1; }
    A=${p[0]} B=${p[1]} C=${p[2]}
    "$SMTOP" synth --out "$dir/$A/profiler-output" --gpus 2 --minutes 4 >/dev/null ||
        { echo "FAIL: synth $A"; return 1; }
    "$SMTOP" synth --out "$dir/$B" --kineto-only --minutes 3 >/dev/null ||
        { echo "FAIL: synth $B"; return 1; }
    rig_upload smtop-jobs profiler "$dir" >/dev/null || { echo "FAIL: upload"; return 1; }
}
