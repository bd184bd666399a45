# ui_api_lib.sh: the start shared by the UI tests that drive smtop against
# the local botocore-checked SageMaker/CloudWatch API (tests/aws) and,
# with --s3, the S3 rig (tests/s3). Sourced by test_ui_*.sh in place of
# ui_lib.sh (which it sources): SMTOP_* from ctest.
source "$(dirname "${BASH_SOURCE[0]}")/ui_lib.sh"
. "$SMTOP_SRC/tests/aws/rig.sh"
. "$SMTOP_SRC/tests/s3/rig.sh"

# ui_api_start [--s3]: skips (77) without botocore (or node's S3 server);
# starts the API with 30 jobs (and the rig), stopped on exit; exports
# their environment and a cache of the test's own; writes the API's job
# list (`smtop jobs --json`) to $UI_WORK/list.json.
ui_api_start() {
  local s3=0
  [ "${1:-}" = --s3 ] && s3=1
  aws_require
  if ((s3)); then
    rig_require
    trap 'aws_stop; rig_stop; ui_cleanup' EXIT
  else
    trap 'aws_stop; ui_cleanup' EXIT
  fi
  aws_start "$UI_WORK/aws" 30 || exit 1
  if ((s3)); then
    rig_start "$UI_WORK/rig" || exit 1
    rig_env
  fi
  aws_env
  export XDG_CACHE_HOME="$UI_WORK/cache"
  "$SMTOP" jobs --json >"$UI_WORK/list.json" || ui_fail "jobs --json"
}

# ui_api_upload JOB...: a 2-node, 2-minute synthetic job's profiler output
# under each JOB's prefix in the rig's bucket smtop-jobs
# (profiler/JOB/profiler-output).
ui_api_upload() {
  local j
  for j in "$@"; do
    "$SMTOP" synth --out "$UI_WORK/data/$j/profiler-output" --nodes 2 --minutes 2 --seed 3 >/dev/null
    rig_upload smtop-jobs "profiler/$j" "$UI_WORK/data/$j" >/dev/null || ui_fail "upload $j"
  done
}
