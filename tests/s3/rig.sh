# rig.sh: bash helpers for tests that need the loopback S3 rig
# (source this file; it defines functions only).
#   rig_require            exit 77 unless node + tests/s3/node_modules exist
#   rig_start DIR          start server.js, state in DIR; sets RIG_S3 RIG_S3RVER
#                          RIG_CTL RIG_IMDS RIG_PID RIG_ENDPOINT
#   rig_restart            start again on the same ports (after rig_kill)
#   rig_kill / rig_stop    stop it by PID
#   rig_upload BUCKET PREFIX DIR
#   rig_stat NAME          a counter from the front (bytes, requests, ...)
#   rig_reset              zero the counters, clear faults
#   rig_fault JSON         arm a fault, e.g. '{"kind":"503","count":5}'
#   rig_bucket JSON        a bucket's policy: '{"bucket":"b","deny":true}' or
#                          '{"bucket":"b","region":"eu-west-1"}' (until rig_reset)
#   rig_recount            zero the counters, keep faults and bucket policies
#                          (prints the counters as they were, JSON)
#   rig_lists B/PREFIX     listings of that exact bucket/prefix since the count
#   rig_stats_json         every counter as JSON (lists_by, gets_by included)
#   rig_env                credentials/region env for the rig's test key
RIG_HOME=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

rig_require() {
    if ! command -v node >/dev/null 2>&1; then
        echo "SKIPPED: node not installed"; exit 77
    fi
    if [ ! -d "$RIG_HOME/node_modules/s3rver" ]; then
        echo "SKIPPED: node_modules missing, run npm ci --prefix tests/s3"; exit 77
    fi
}

# python3 starts ~10x faster than node: these run often.
rig_json() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }

_rig_launch() {
    rm -f "$RIG_DIR/ready.json"
    node --openssl-legacy-provider "$RIG_HOME/server.js" --dir "$RIG_DIR/data" \
        --ready-file "$RIG_DIR/ready.json" --max-runtime-s "${RIG_MAX_RUNTIME:-300}" \
        --port "${RIG_S3:-0}" --s3rver-port "${RIG_S3RVER:-0}" --ctl-port "${RIG_CTL:-0}" \
        --imds-port "${RIG_IMDS:-0}" >"$RIG_DIR/server.log" 2>&1 &
    RIG_PID=$!
    for _ in $(seq 1 250); do
        [ -f "$RIG_DIR/ready.json" ] && break
        sleep 0.02
    done
    [ -f "$RIG_DIR/ready.json" ] || { echo "rig did not start:"; cat "$RIG_DIR/server.log"; return 1; }
    RIG_S3=$(rig_json "$RIG_DIR/ready.json" s3)
    RIG_S3RVER=$(rig_json "$RIG_DIR/ready.json" s3rver)
    RIG_CTL=$(rig_json "$RIG_DIR/ready.json" ctl)
    RIG_IMDS=$(rig_json "$RIG_DIR/ready.json" imds)
    RIG_ENDPOINT="http://127.0.0.1:$RIG_S3"
}

rig_start() { RIG_DIR=$1; mkdir -p "$RIG_DIR"; RIG_S3=0 RIG_S3RVER=0 RIG_CTL=0 RIG_IMDS=0; _rig_launch; }
rig_restart() { _rig_launch; }
rig_kill() { if [ -n "${RIG_PID:-}" ]; then kill "$RIG_PID" 2>/dev/null; wait "$RIG_PID" 2>/dev/null; RIG_PID=; fi; }
rig_stop() { rig_kill; }
rig_upload() { node "$RIG_HOME/upload.js" "$RIG_S3RVER" "$1" "$2" "$3"; }
rig_stat() { curl -s "http://127.0.0.1:$RIG_CTL/stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
rig_reset() { curl -s -X POST "http://127.0.0.1:$RIG_CTL/reset" >/dev/null; }
rig_fault() { curl -s -X POST --data-binary "$1" "http://127.0.0.1:$RIG_CTL/fault" >/dev/null; }
rig_bucket() { curl -s -X POST --data-binary "$1" "http://127.0.0.1:$RIG_CTL/bucket" >/dev/null; }
rig_recount() { curl -s -X POST "http://127.0.0.1:$RIG_CTL/recount"; }
rig_stats_json() { curl -s "http://127.0.0.1:$RIG_CTL/stats"; }
rig_lists() { curl -s "http://127.0.0.1:$RIG_CTL/stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)["lists_by"].get(sys.argv[1], 0))' "$1"; }
rig_env() {
    export AWS_ACCESS_KEY_ID=AKIDSMTOPTEST AWS_SECRET_ACCESS_KEY='smtop+test/secret=key'
    unset AWS_SESSION_TOKEN AWS_PROFILE
    export AWS_SHARED_CREDENTIALS_FILE=/nonexistent/smtop-test AWS_CONFIG_FILE=/nonexistent/smtop-test
    export AWS_EC2_METADATA_DISABLED=true AWS_REGION=us-east-1
}

# rig_s3env [VAR=VALUE...]: S3ENV, an `env` command line that gives a
# program in a tmux pane (which does not inherit this shell's exports)
# rig_env's settings, this shell's XDG_CACHE_HOME and the extra VAR=VALUEs.
rig_s3env() {
    S3ENV=(env AWS_ACCESS_KEY_ID="$AWS_ACCESS_KEY_ID" AWS_SECRET_ACCESS_KEY="$AWS_SECRET_ACCESS_KEY"
           AWS_SHARED_CREDENTIALS_FILE="$AWS_SHARED_CREDENTIALS_FILE" AWS_CONFIG_FILE="$AWS_CONFIG_FILE"
           AWS_EC2_METADATA_DISABLED="$AWS_EC2_METADATA_DISABLED" AWS_REGION="$AWS_REGION"
           XDG_CACHE_HOME="$XDG_CACHE_HOME" "$@")
}
