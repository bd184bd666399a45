#!/bin/bash
# bench_job_sources.sh (issue 36): jobs whose traces lie in their
# TensorBoard / checkpoint syncs and output.tar.gz, on the local
# botocore-checked API (tests/aws) and the S3 rig (tests/s3), set up by
# tests/integration/job_sources_lib.sh:
# - the first frame of `smtop --job dbg-tb-1` (Debugger + TensorBoard in
#   another bucket), RUNS times, beside the first frame of the same job's
#   local folder (`smtop DIR`, the baseline: no API, no S3), medians;
# - per job, the S3 requests of each refresh, counted by the rig after each
#   pass of tests/tools/job_passes (the dashboard's --job without a
#   screen): the first with a cold cache, then 3 more, listings per prefix;
# - captures of `smtop jobs`'s list and each dashboard's header.
#   SMTOP=build/smtop SMTOP_SRC=$PWD tests/bench/bench_job_sources.sh
source "$SMTOP_SRC/tests/integration/ui_lib.sh"
. "$SMTOP_SRC/tests/aws/rig.sh"
. "$SMTOP_SRC/tests/s3/rig.sh"
. "$SMTOP_SRC/tests/integration/job_sources_lib.sh"
RUNS=${RUNS:-7}
trap 'aws_stop; rig_stop; ui_cleanup' EXIT
export XDG_CACHE_HOME="$UI_WORK/cache"
AWS_MAX_RUNTIME=3000 RIG_MAX_RUNTIME=3000 js_start "$UI_WORK/js" >/dev/null || exit 1
aws_envline
now_ms() { date +%s%3N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)] " (" a[1] "-" a[NR] ", " NR " runs)"}'; }

first_frame() {   # PATTERN CMD...: ms from start to the first header
    local pat=$1 t0
    shift
    t0=$(now_ms)
    ui_start 200 60 "$@"
    while ! ui_screen | grep -q "$pat"; do sleep 0.01; done
    echo $(( $(now_ms) - t0 ))
    ui_keys q; ui_wait SMTOP_EXIT= 10 >/dev/null
}
for _ in $(seq "$RUNS"); do
    first_frame '^ smtop |' "${AWSENV[@]}" XDG_CACHE_HOME="$XDG_CACHE_HOME" "$SMTOP" --job dbg-tb-1 \
        "${E[@]}" >>"$UI_WORK/api.ms"
    first_frame '^ smtop |' "$SMTOP" "$JS_DATA/dbg-tb-1" >>"$UI_WORK/local.ms"
done
echo "first frame, smtop --job dbg-tb-1 (API + 2 S3 places): $(median <"$UI_WORK/api.ms") ms"
echo "first frame, smtop DIR (its local folder, baseline):    $(median <"$UI_WORK/local.ms") ms"

echo
echo "| job | first pass, cold cache: requests (lists, GETs) | each later pass: requests | listings a later pass, by prefix |"
echo "|---|---|---|---|"
PASSES=${SMTOP_BUILD:-$SMTOP_SRC/build}/tests/job_passes
for j in $JS_JOBS; do
    rig_recount >/dev/null
    : >"$UI_WORK/passes.$j"
    XDG_CACHE_HOME=$(mktemp -d -p "$UI_WORK") "$PASSES" "$j" "$RIG_ENDPOINT" 4 \
        "curl -s -X POST http://127.0.0.1:$RIG_CTL/recount >>$UI_WORK/passes.$j; echo >>$UI_WORK/passes.$j" >/dev/null
    python3 - "$j" "$UI_WORK/passes.$j" <<'PY'
import json, sys
job, p = sys.argv[1], [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
first, later = p[0], p[1:]
per = ", ".join(f"{k}: {v}" for k, v in sorted(later[-1]["lists_by"].items())) or "none"
print(f"| {job} | {first['requests']} ({first['list']}, {first['get_object']}) | "
      f"{'/'.join(str(x['requests']) for x in later)} | {per} |")
PY
    ui_start 200 60 "${AWSENV[@]}" XDG_CACHE_HOME="$XDG_CACHE_HOME" "$SMTOP" --job "$j" "${E[@]}"
    ui_wait 'ranks' 30 >/dev/null
    ui_screen | head -1 >"$UI_WORK/hdr.$j"
    ui_keys q; ui_wait SMTOP_EXIT= 10 >/dev/null
done
echo
for j in $JS_JOBS; do echo "header $j: $(cat "$UI_WORK/hdr.$j")"; done
echo
ui_start 200 20 "${AWSENV[@]}" XDG_CACHE_HOME="$XDG_CACHE_HOME" "$SMTOP" jobs "${E[@]}"
ui_wait 'tbfb-1' 30 >/dev/null
sleep 8   # the rows' figures
echo "smtop jobs:"
ui_screen | head -14
ui_keys q
