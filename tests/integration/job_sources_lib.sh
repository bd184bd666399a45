# job_sources_lib.sh: the jobs of issue 36 — training jobs whose traces
# lie where SageMaker syncs them, not (only) under ProfilerConfig — on the
# local SageMaker API (tests/aws, their descriptions) and the S3 rig
# (tests/s3, their data). Sourced after rig.sh of both; js_start DIR
# starts both and uploads:
#   tb-only-1    running, TensorBoardOutputConfig only: 2 ranks' traces in
#                s3://tb-bucket/tb/tb-only-1/tensorboard-output/
#   ckpt-only-1  running, CheckpointConfig only: traces two folders deep in
#                s3://ckpt-bucket/ckpt/ckpt-only-1/run1/profiler/
#   dbg-tb-1     running, Debugger system metrics under ProfilerConfig
#                (s3://smtop-jobs/profiler/) and its traces under a
#                TensorBoard path in another bucket (s3://tb-other/x/)
#   ended-out-1  Completed, its traces only inside
#                s3://smtop-jobs/output/ended-out-1/output/output.tar.gz
#   denied-1     running, traces in its TensorBoard sync, a checkpoint
#                bucket that answers AccessDenied (s3://locked-bucket/ck/)
#   region-1     running, traces in its checkpoint sync, a TensorBoard
#                bucket in another region (s3://eu-bucket/tb/)
#   tbfb-1       running, its traces straight in the TensorBoard path
#                itself (s3://tb-fb/tbfb-1-logs/), another job's sync beside
# JS_DATA holds each job's data as a local job folder of the same layout
# (JOB/profiler-output, JOB/tensorboard-output, JOB/checkpoints, JOB/output).
# Sets E (the S3 endpoint option) and exports the API's environment.
JS_JOBS="tb-only-1 ckpt-only-1 dbg-tb-1 ended-out-1 denied-1 region-1 tbfb-1"

js_start() {
    local dir=$1
    JS_DATA=$dir/jobs
    mkdir -p "$dir" "$JS_DATA"
    cat >"$dir/extra.json" <<'EOF'
[{"name": "tb-only-1", "tensorboard": "s3://tb-bucket/tb", "count": 2, "age_s": 200},
 {"name": "ckpt-only-1", "checkpoint": "s3://ckpt-bucket/ckpt/ckpt-only-1", "count": 2, "age_s": 200},
 {"name": "dbg-tb-1", "profiler": "s3://smtop-jobs/profiler", "tensorboard": "s3://tb-other/x",
  "count": 2, "age_s": 260},
 {"name": "ended-out-1", "status": "Completed", "age_s": 3600, "output": "s3://smtop-jobs/output",
  "count": 2},
 {"name": "denied-1", "tensorboard": "s3://tb-bucket/tb", "checkpoint": "s3://locked-bucket/ck",
  "count": 2, "age_s": 200},
 {"name": "region-1", "tensorboard": "s3://eu-bucket/tb", "checkpoint": "s3://ckpt-bucket/ckpt/region-1/",
  "count": 2, "age_s": 200},
 {"name": "tbfb-1", "tensorboard": "s3://tb-fb/tbfb-1-logs", "count": 2, "age_s": 200}]
EOF
    aws_start "$dir" 4 "$dir/extra.json" || return 1
    aws_env
    rig_start "$dir/rig" || return 1
    rig_env
    E=(--endpoint-url "$RIG_ENDPOINT")
    local s=1 j
    for j in tb-only-1 ckpt-only-1 denied-1 region-1 tbfb-1 ended-out-1; do
        s=$((s + 1))
        "$SMTOP" synth --out "$JS_DATA/$j" --kineto-only --minutes 2 --nodes 2 --seed $s \
            --kineto-every 40 --kineto-dir "$(js_dir "$j")" >/dev/null || return 1
    done
    "$SMTOP" synth --out "$JS_DATA/dbg-tb-1" --kineto --minutes 3 --nodes 2 --seed 9 \
        --kineto-every 40 >/dev/null || return 1
    # the archive SageMaker makes of /opt/ml/output/data (the folder stays
    # unpacked in JS_DATA: the layout it is read as)
    mkdir -p "$dir/tar/output" && (cd "$JS_DATA/ended-out-1/output" &&
        tar czf "$dir/tar/output/output.tar.gz" tensorboard) || return 1
    js_up tb-bucket tb/tb-only-1/tensorboard-output tb-only-1 tensorboard-output || return 1
    js_up ckpt-bucket ckpt/ckpt-only-1 ckpt-only-1 checkpoints || return 1
    js_up smtop-jobs profiler/dbg-tb-1/profiler-output dbg-tb-1 profiler-output || return 1
    js_up tb-other x/dbg-tb-1/tensorboard-output dbg-tb-1 tensorboard-output || return 1
    rig_upload smtop-jobs output/ended-out-1/output "$dir/tar/output" >/dev/null || return 1
    js_up tb-bucket tb/denied-1/tensorboard-output denied-1 tensorboard-output || return 1
    js_up locked-bucket ck denied-1 tensorboard-output || return 1
    js_up ckpt-bucket ckpt/region-1 region-1 checkpoints || return 1
    js_up eu-bucket tb/region-1/tensorboard-output region-1 checkpoints || return 1
    js_up tb-fb tbfb-1-logs tbfb-1 tensorboard-output || return 1
    # another job's sync in the same path: never this job's
    mkdir -p "$dir/other/other-9/tensorboard-output"
    cp "$(find "$JS_DATA/tb-only-1" -name '*.pt.trace.json*' | head -1)" \
        "$dir/other/other-9/tensorboard-output/algo-7_1.1700000000000000000.pt.trace.json.gz"
    rig_upload tb-fb tbfb-1-logs "$dir/other" >/dev/null || return 1
    rig_bucket '{"bucket":"locked-bucket","deny":true}'
    rig_bucket '{"bucket":"eu-bucket","region":"eu-west-1"}'
}

# The folder each job's traces are written to, relative to its job folder.
js_dir() {
    case $1 in
    ckpt-only-1) echo checkpoints/run1/profiler ;;
    region-1) echo checkpoints ;;
    ended-out-1) echo output/tensorboard ;;
    *) echo tensorboard-output ;;
    esac
}

# js_up BUCKET PREFIX JOB FOLDER: JOB's FOLDER (of JS_DATA) as BUCKET/PREFIX/.
js_up() {
    local tmp
    tmp=$(mktemp -d)
    cp -r "$JS_DATA/$3/$4/." "$tmp/"
    rig_upload "$1" "$2" "$tmp" >/dev/null || { rm -rf "$tmp"; echo "FAIL: upload $3"; return 1; }
    rm -rf "$tmp"
}
