#!/bin/bash
# What a server or a file says reaches no terminal as control: an S3
# error whose Code and Message carry an OSC 52 clipboard write, a title
# change, a screen clear, C1 controls and bidi overrides (tests/s3/
# hostile.py), and a job whose file names, phase and device names carry
# the same plus zero-width characters and a BOM (tests/tools/
# hostile_names.py), on every output path: report (text and --json),
# export and diff (stdout and stderr), and the dashboard (panes and
# status line). report --json stays ASCII yet keeps the names exactly.
source "$(dirname "$0")/ui_lib.sh"
HOSTILE_PID=
trap '[ -n "$HOSTILE_PID" ] && kill "$HOSTILE_PID" 2>/dev/null; ui_cleanup' EXIT
W=$UI_WORK
T="$SMTOP_SRC/tests/tools"
clean() { python3 "$T/no_hostile.py" "$1" "$2" || exit 1; }

# --- a job with hostile names
"$SMTOP" synth --out "$W/good" --nodes 2 --minutes 1 --seed 2 >/dev/null || exit 1
cp -r "$W/good" "$W/bad"
python3 "$T/hostile_names.py" "$W/bad"
"$SMTOP" report "$W/bad" >"$W/r.txt" 2>"$W/r.err" || { cat "$W/r.err"; echo "FAIL: report"; exit 1; }
clean "$W/r.txt" "report"
clean "$W/r.err" "report's stderr"
grep -q 'For?ward' "$W/r.txt" || { echo "FAIL: the hostile phase name is not in the report"; exit 1; }
grep -q 'not read: unknown file name' "$W/r.txt" ||
    { echo "FAIL: the renamed node's files are not named in the warnings"; exit 1; }
echo "ok: report text"

"$SMTOP" report --json "$W/bad" >"$W/r.json" || exit 1
LC_ALL=C grep -q '[^ -~]' "$W/r.json" && { echo "FAIL: report --json has non-ASCII bytes"; exit 1; }
python3 - "$W/r.json" "$T" <<'PY' || exit 1
import json, sys
sys.path.insert(0, sys.argv[2])
from hostile_names import PHASE, NET
def strings(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for k, x in v.items():
            yield k
            yield from strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from strings(x)
found = set(strings(json.load(open(sys.argv[1]))))
for name, want in (("phase", PHASE), ("device", NET)):
    if want not in found:
        sys.exit("FAIL: the %s name was not kept exactly in report --json" % name)
PY
echo "ok: report --json is ASCII and keeps the names exactly"

"$SMTOP" diff "$W/good" "$W/bad" >"$W/d.txt" 2>"$W/d.err" || { cat "$W/d.err"; echo "FAIL: diff"; exit 1; }
clean "$W/d.txt" "diff"
clean "$W/d.err" "diff's stderr"
"$SMTOP" diff --json "$W/good" "$W/bad" >"$W/d.json" || exit 1
LC_ALL=C grep -q '[^ -~]' "$W/d.json" && { echo "FAIL: diff --json has non-ASCII bytes"; exit 1; }
"$SMTOP" export --perfetto "$W/p.json" "$W/bad" 2>"$W/e.err" || { cat "$W/e.err"; echo "FAIL: export"; exit 1; }
clean "$W/e.err" "export's stderr"
echo "ok: diff and export"

ui_start 200 60 "$SMTOP" "$W/bad"
ui_wait '1 node|2 nodes' 15
ui_wait 'algo\?1-\?x.*not read' 15
ui_screen >"$W/screen.txt"
clean "$W/screen.txt" "the dashboard"
ui_quit
echo "ok: dashboard panes"

# --- an S3 endpoint whose errors carry escapes
python3 "$SMTOP_SRC/tests/s3/hostile.py" --mode error --ready "$W/err.port" &
HOSTILE_PID=$!
for _ in $(seq 1 100); do [ -s "$W/err.port" ] && break; sleep 0.05; done
EP="http://127.0.0.1:$(cat "$W/err.port")"
S3ENV=(env AWS_ACCESS_KEY_ID=AKIDSMTOPTEST AWS_SECRET_ACCESS_KEY=x AWS_SHARED_CREDENTIALS_FILE=/nonexistent
       AWS_CONFIG_FILE=/nonexistent AWS_EC2_METADATA_DISABLED=true AWS_REGION=us-east-1
       XDG_CACHE_HOME="$W/cache" SMTOP_S3_BACKOFF_MS=1)
for cmd in report export diff; do
    case $cmd in
        report) args=(report --endpoint-url "$EP" s3://bkt/job) ;;
        export) args=(export --perfetto "$W/x.json" --endpoint-url "$EP" s3://bkt/job) ;;
        diff) args=(diff --endpoint-url "$EP" s3://bkt/a s3://bkt/b) ;;
    esac
    "${S3ENV[@]}" "$SMTOP" "${args[@]}" >"$W/$cmd.out" 2>"$W/$cmd.s3err"
    rc=$?
    [ "$rc" = 1 ] || { cat "$W/$cmd.s3err"; echo "FAIL: $cmd against a 403 endpoint exited $rc"; exit 1; }
    grep -q '403 Denied' "$W/$cmd.s3err" || { cat -v "$W/$cmd.s3err"; echo "FAIL: $cmd: no error code"; exit 1; }
    clean "$W/$cmd.s3err" "$cmd's S3 error"
    clean "$W/$cmd.out" "$cmd's output"
    echo "ok: $cmd: S3 error sanitized: $(head -c 60 "$W/$cmd.s3err")"
done
ui_start 200 40 "${S3ENV[@]}" "$SMTOP" --interval 1 --endpoint-url "$EP" s3://bkt/job
ui_wait '403 Denied' 20
ui_screen >"$W/s3screen.txt"
clean "$W/s3screen.txt" "the dashboard's status line"
ui_screen_esc | grep -q $'\e\\]' && ui_fail "an OSC sequence reached the pane"
ui_quit
echo "ok: dashboard status line"
