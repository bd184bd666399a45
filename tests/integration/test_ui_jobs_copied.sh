#!/bin/bash
# A job's traces copied (or downloaded) long after it ran: their names
# carry the time they were written, their mtimes the copy's. The job list
# read the mtimes and said Training, while the job's dashboard, which
# judges the data's newest time, said ENDED (issue 33: one status on every
# surface). Both must now say it ended; a job written now stays Training
# on both.
source "$(dirname "$0")/ui_lib.sh"

"$SMTOP" synth --out "$UI_WORK/jobs/copied" --kineto-only --minutes 2 --start 1661938466 \
    --seed 3 >/dev/null || ui_fail "synth copied"
"$SMTOP" synth --out "$UI_WORK/jobs/fresh" --kineto-only --minutes 2 --seed 3 >/dev/null ||
    ui_fail "synth fresh"

"$SMTOP" jobs --json "$UI_WORK/jobs" >"$UI_WORK/jobs.json" || ui_fail "jobs --json"
python3 - "$UI_WORK/jobs.json" <<'PY' || ui_fail "jobs --json statuses"
import json, sys
got = {j["name"]: (j["status"], j["secondary_status"]) for j in json.load(open(sys.argv[1]))["jobs"]}
c, f = got.get("copied"), got.get("fresh")
if not c or c[0] is not None or not (c[1].startswith("trace ") and c[1].endswith(" d ago")):
    sys.exit(f"FAIL: the copied job reads {c}, want ended ('trace N d ago')")
if f != ("InProgress", "Training"):
    sys.exit(f"FAIL: the job written now reads {f}, want InProgress/Training")
PY

# the list's rows, then each job's dashboard header, from the list (Enter)
ui_start 160 24 "$SMTOP" jobs "$UI_WORK/jobs"
ui_wait "^copied " 20
ui_wait "^fresh " 20
ui_screen | grep -E "^copied " | grep -q "Training" && ui_fail "the list says the copied job is training"
ui_screen | grep -E "^fresh " | grep -q "Training" || ui_fail "the list lost the fresh job's Training"
ui_quit

ui_start 160 24 "$SMTOP" "$UI_WORK/jobs/copied"
ui_wait "ENDED [0-9]+ y ago" 20
ui_quit
ui_start 160 24 "$SMTOP" "$UI_WORK/jobs/fresh"
ui_wait "ranks|node" 20
ui_screen | head -1 | grep -q "ENDED" && ui_fail "the fresh job's dashboard says ENDED"
ui_quit
echo "ok: a copied job reads ended on the list and the dashboard alike; a fresh one, live on both"
