#!/bin/bash
# bench_quit.sh: q-to-exit time of the dashboard while its first S3 GET
# hangs (issue #13): an endpoint on 127.0.0.1 that accepts connections and
# never answers (tests/integration/hang_server.py). The real binary runs in
# tmux; after 2 s (the GET is in flight) `q` is sent and the time until
# the shell after it prints the exit status is measured. With BASELINE=<a
# second smtop> both run, alternating, RUNS times each.
#
# usage: tests/bench/bench_quit.sh [BUILD_DIR]   (default ./build)
#        env BASELINE, RUNS (3), CAP_S (120: give up waiting after this)
set -eu
BUILD=${1:-build}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
SMTOP=$(realpath "$BUILD/smtop")
RUNS=${RUNS:-3}
CAP_S=${CAP_S:-120}
SOCK=""
N=0
WORK=$(mktemp -d "${TMPDIR:-/tmp}/smtop-quit.XXXXXX")
python3 "$SRC/tests/integration/hang_server.py" >"$WORK/port" &
HANG=$!
cleanup() { [ -n "$SOCK" ] && tmux -L "$SOCK" kill-server 2>/dev/null; kill "$HANG" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
for _ in $(seq 100); do [ -s "$WORK/port" ] && break; sleep 0.05; done
PORT=$(cat "$WORK/port")

one() {
    local bin=$1 t0 ms
    [ -n "$SOCK" ] && { tmux -L "$SOCK" kill-server 2>/dev/null || true; }
    N=$((N + 1))
    SOCK="smtop-quit-$$-$N"   # a fresh server each time: no race with the last one's exit
    tmux -L "$SOCK" -f /dev/null new-session -d -x 160 -y 40 \
        "env AWS_ACCESS_KEY_ID=AKIDEXAMPLE AWS_SECRET_ACCESS_KEY=secret \
AWS_SHARED_CREDENTIALS_FILE=/nonexistent AWS_CONFIG_FILE=/nonexistent \
AWS_EC2_METADATA_DISABLED=true AWS_REGION=us-east-1 LANG=C.UTF-8 XDG_CONFIG_HOME=$WORK/cfg \
$bin --no-cache --endpoint-url http://127.0.0.1:$PORT s3://bkt/job; echo SMTOP_EXIT=\$?; sleep 600"
    sleep 2
    if ! tmux -L "$SOCK" capture-pane -p | grep -q '^ smtop |'; then
        echo "$bin: the dashboard is not up:"; tmux -L "$SOCK" capture-pane -p | grep -v '^$' | tail -3
        return
    fi
    t0=$(date +%s%N)
    tmux -L "$SOCK" send-keys q
    while ! tmux -L "$SOCK" capture-pane -p | grep -q SMTOP_EXIT; do
        (( ($(date +%s%N) - t0) / 1000000000 > CAP_S )) && break
        sleep 0.02
    done
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    echo "$bin: q to exit $ms ms"
}

echo "== q to exit with a hanging S3 GET ($(uptime | sed 's/.*load/load/'))"
for r in $(seq "$RUNS"); do
    one "$SMTOP"
    [ -n "${BASELINE:-}" ] && one "$(realpath "$BASELINE")"
done
