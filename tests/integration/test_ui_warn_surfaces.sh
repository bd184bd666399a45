#!/bin/bash
# One truth on every surface (issue 33, point 1: "W lists what the status
# line counts"): a Kineto job with known bad files (a trace cut in half, a
# corrupt line in a system metrics file, a file named .pt.trace.json.gz
# that is not gzip) on the real binary in tmux, at 200x60 and 80x24. The
# status line's "N files not read, M warnings (W)", the W view's title
# (noted, files not read, traces, corrupt lines) and the lines it lists
# (each file not read named whole) must be `smtop report --json`'s
# warnings for the same folder (ui_warn_surfaces.py, which also shows each
# check a wrong expectation and fails unless it is rejected). The job ended
# long ago, so the cut trace is "truncated" on every surface; a figure is
# read only once the first read is over and it has held still, since the
# files arrive over time and a count read early can be one short.
source "$(dirname "$0")/ui_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
PY="$SMTOP_SRC/tests/integration/ui_warn_surfaces.py"
J="$UI_WORK/job"
"$SMTOP" synth --out "$J" --kineto --gpus 2 --minutes 2 --seed 3 --start 1700000000 >/dev/null ||
    ui_fail "synth"
t=$(find "$J" -name '*.pt.trace.json.gz' | sort | head -1)
[ -n "$t" ] || ui_fail "no trace to cut"
truncate -s $(($(stat -c %s "$t") / 2)) "$t"
f=$(find "$J" -path '*system*' -name '*.json' | sort | head -1)
[ -n "$f" ] || ui_fail "no system metrics file"
sed -i '3s/.*/{corrupt line/' "$f"
# a name the trace search takes, bytes that are not gzip
head -c 3000 /dev/urandom >"${t%/*}/algo-1_17150.1700000999000000000.pt.trace.json.gz"
"$SMTOP" report --json "$J" >"$UI_WORK/r.json" 2>/dev/null || ui_fail "report --json"
# the job must have what the checks are about: a check of nothing proves nothing
python3 - "$UI_WORK/r.json" <<'EOF' || ui_fail "the report does not see the bad files"
import json, sys
w = json.load(open(sys.argv[1]))["warnings"]
sys.exit(0 if w["unread_files"] == 2 and w["traces_unread"] == 2 and w["corrupt_lines"] == 1 else 1)
EOF

surfaces() {   # SIZE
    local size=$1 status title out end
    ui_start $size "$SMTOP" "$J"
    ui_wait "$UI_FOLLOW" 30
    ui_loaded 60
    end=$((SECONDS + 60))
    while :; do
        # the counts come after the scan's time and the newest sample's
        # age, or open the line where those gave way to them
        status=$(ui_steady '(\| |^ )[0-9]+ (files? not read|warnings?)[^|]*\(W\)' 30) || exit 1
        ui_keys W
        ui_wait ' warnings: [0-9]+ noted' 10
        title=$(ui_steady ' warnings: [0-9]+ noted, [^─┐]*lines? ' 20) || exit 1
        ui_screen >"$UI_WORK/screen"
        ui_keys q
        ui_wait_gone ' warnings: [0-9]+ noted' 10
        out=$(python3 "$PY" "$UI_WORK/r.json" "$status" "$title" "$UI_WORK/screen") && break
        # a count can hold still for 2 s while a file is still being read:
        # until the deadline, a disagreement is read again
        ((SECONDS < end)) || { cat "$UI_WORK/screen"; ui_fail "at $size: $out"; }
        echo "note: ${size/ /x} read again after:" $out
        sleep 1
    done
    ui_quit
    echo "ok: ${size/ /x}: $status | $title | $out"
    # the same screen against reports made wrong on purpose (a file not
    # read one more, a warning one more, a corrupt line one more, a file
    # named otherwise): each must be rejected
    local v
    for v in file noted corrupt rename; do
        python3 - "$UI_WORK/r.json" "$v" >"$UI_WORK/wrong.json" <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[1]))
w, v = r["warnings"], sys.argv[2]
if v == "file":
    w["unread_files"] += 1
    w["unread"].append({"key": "tensorboard-output/x.pt.trace.json.gz", "why": "not read: x"})
    w["messages"].append("tensorboard-output/x.pt.trace.json.gz: not read: x")
elif v == "noted":
    w["messages"].insert(0, "system/x.json: line 1: 1 corrupt line skipped")
elif v == "corrupt":
    w["corrupt_lines"] += 1
else:
    w["unread"][0]["key"] += "~"
json.dump(r, sys.stdout)
PYEOF
        python3 "$PY" "$UI_WORK/wrong.json" "$status" "$title" "$UI_WORK/screen" >/dev/null &&
            ui_fail "at $size: a report with $v made wrong passes"
    done
    echo "ok: ${size/ /x}: each of 4 wrong reports rejected"
}
surfaces "200 60"
surfaces "80 24"
