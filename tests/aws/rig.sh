# rig.sh: bash helpers for tests that need the local SageMaker/CloudWatch
# API (tests/aws/server.py; source this file, it defines functions only).
#   aws_require            exit 77 unless /usr/bin/python3 has botocore
#   aws_start DIR [JOBS] [EXTRA]  start the server with JOBS generated jobs (30)
#                          and the jobs of the JSON file EXTRA (fixture.extra_job);
#                          sets AWS_PORT AWS_PID AWS_URL
#   aws_stop               stop it by PID
#   aws_fault JSON         arm a fault, e.g. '{"kind":"throttle","count":3}'
#   aws_reset              zero the counters, clear faults
#   aws_calls OP           calls of OP the server answered
#   aws_rejects            requests it refused (bad signature, off-model)
#   aws_max_described S... most describes of one job in statuses S ($AWS_LIST)
#   aws_env                the test key, region and endpoints in this shell
#   aws_envline            AWSENV: an `env` command line with the same, for tmux
AWS_HOME=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

aws_require() {
    /usr/bin/python3 -c 'import botocore' 2>/dev/null ||
        { echo "SKIPPED: python3-botocore not installed (scripts/install-deps.sh --test)"; exit 77; }
}

aws_start() {
    local dir=$1 jobs=${2:-30} extra=()
    [ -n "${3:-}" ] && extra=(--extra "$3")
    mkdir -p "$dir"
    rm -f "$dir/aws-ready.json"
    /usr/bin/python3 "$AWS_HOME/server.py" --jobs "$jobs" "${extra[@]}" --ready-file "$dir/aws-ready.json" \
        --max-runtime-s "${AWS_MAX_RUNTIME:-300}" >"$dir/aws.log" 2>&1 &
    AWS_PID=$!
    for _ in $(seq 1 500); do
        [ -f "$dir/aws-ready.json" ] && break
        sleep 0.02
    done
    [ -f "$dir/aws-ready.json" ] || { echo "API server did not start:"; cat "$dir/aws.log"; return 1; }
    AWS_PORT=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["port"])' "$dir/aws-ready.json")
    AWS_URL="http://127.0.0.1:$AWS_PORT"
}
aws_stop() { if [ -n "${AWS_PID:-}" ]; then kill "$AWS_PID" 2>/dev/null; wait "$AWS_PID" 2>/dev/null; AWS_PID=; fi; }
aws_fault() { curl -s -X POST --data-binary "$1" "$AWS_URL/__fault" >/dev/null; }
aws_reset() { curl -s -X POST -d '' "$AWS_URL/__reset" >/dev/null; }
aws_calls() { curl -s "$AWS_URL/__stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)["calls"].get(sys.argv[1], 0))' "$1"; }
# aws_max_described STATUS...: the most describes any one job in those
# statuses got (from the list file $AWS_LIST, a `jobs --json` output)
aws_max_described() {
    curl -s "$AWS_URL/__stats" | python3 -c '
import json, sys
st = json.load(sys.stdin)["described"]
jobs = json.load(open(sys.argv[1]))["jobs"]
print(max([st.get(j["name"], 0) for j in jobs if j["status"] in sys.argv[2:]] or [0]))' "$AWS_LIST" "$@"
}
aws_rejects() { curl -s "$AWS_URL/__stats" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["rejects"]))'; }
aws_env() {
    export AWS_ACCESS_KEY_ID=AKIDSMTOPTEST AWS_SECRET_ACCESS_KEY='smtop+test/secret=key'
    unset AWS_SESSION_TOKEN AWS_PROFILE AWS_ENDPOINT_URL
    export AWS_SHARED_CREDENTIALS_FILE=/nonexistent/smtop-test AWS_CONFIG_FILE=/nonexistent/smtop-test
    export AWS_EC2_METADATA_DISABLED=true AWS_REGION=us-east-1
    export AWS_ENDPOINT_URL_SAGEMAKER="$AWS_URL" AWS_ENDPOINT_URL_CLOUDWATCH="$AWS_URL"
    # S3 never leaves the machine: a closed local port unless the test
    # gives s3rver's --endpoint-url (it wins over the variable).
    export AWS_ENDPOINT_URL_S3=http://127.0.0.1:9
}
aws_envline() {
    AWSENV=(env AWS_ACCESS_KEY_ID=AKIDSMTOPTEST AWS_SECRET_ACCESS_KEY='smtop+test/secret=key'
            AWS_SHARED_CREDENTIALS_FILE=/nonexistent/smtop-test AWS_CONFIG_FILE=/nonexistent/smtop-test
            AWS_EC2_METADATA_DISABLED=true AWS_REGION=us-east-1
            AWS_ENDPOINT_URL_SAGEMAKER="$AWS_URL" AWS_ENDPOINT_URL_CLOUDWATCH="$AWS_URL"
            AWS_ENDPOINT_URL_S3=http://127.0.0.1:9 "$@")
}
