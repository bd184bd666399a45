#!/bin/bash
# The dashboard pairs a B/E split across two files of a writer when the
# second file arrives a pass later (a live job rotating its trace), and
# keeps with --since/--until what overlaps the window, as report and
# export do (tests/tools/timeline_fixture.py; test_conformance_windows.sh
# checks report and export on the same fixture).
source "$(dirname "$0")/ui_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
FX="$SMTOP_SRC/tests/tools/timeline_fixture.py"
JOB="$UI_WORK/job"

focus_steps() {
    ui_wait '[0-9] Steps'
    ui_focus Steps
}

# --- the E's file arrives while the dashboard runs -------------------------
python3 "$FX" split "$JOB" --without-last
ui_start 200 60 "$SMTOP" --interval 1 "$JOB"
focus_steps
ui_keys r
ui_wait 'algo-1 > rank 0 \(1/2, r\)  TRAIN'
ui_wait 'n 15  mean 100 ms  min 100 ms  max 100 ms'   # steps 0-14; step 15's B is open
python3 "$FX" split "$JOB" --only-last                # the rotation's next file
ui_wait 'n 30  .* max 5\.00 s' 30                     # step 15 paired across the files
ui_quit
echo "ok: a B/E pair split across files is paired when the second file arrives"

# --- --since/--until keep overlapping events -------------------------------
python3 "$FX" facts > "$UI_WORK/facts.json"
read -r S U < <(python3 -c "
import json, sys; f = json.load(open(sys.argv[1])); print(f['step5_end'], f['step25_start'])" \
    "$UI_WORK/facts.json")
WANT=$(python3 "$FX" ref "$JOB" "$S" "$U" | python3 -c "
import json, sys; print(json.load(sys.stdin)['algo-1|Step:ModeKeys.TRAIN']['count'])")
secs() { python3 -c "import sys; print('%d.%06d' % divmod(int(sys.argv[1]), 1000000))" "$1"; }
ui_start 200 60 "$SMTOP" --interval 1 --since "$(secs "$S")" --until "$(secs "$U")" "$JOB"
focus_steps
ui_wait 'algo-1 all 2 ranks \(r\)  TRAIN'
ui_wait "n $WANT "
ui_keys r
ui_wait 'n 20 '                                       # rank 0: step 5 ends at since: kept
ui_quit
echo "ok: --since/--until on the dashboard: $WANT TRAIN steps overlap the window"
