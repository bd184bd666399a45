#!/bin/bash
# Zoomed-in charts carry a sample across columns narrower than the
# sampling interval (issue 26): with one sample a second and `+` showing
# 150 s in ~200 braille half-columns, every half-column between two
# samples shows the earlier one, so a chart's bottom row has no regular
# notches (a braille cell with one half empty). A real gap, a minute of
# system metrics missing, still reads as a gap (a run of `·`).
source "$(dirname "$0")/ui_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }

JOB="$UI_WORK/job"
ui_synth "$JOB" --nodes 1 --minutes 5 --interval-ms 1000 --start 1700000000
# The minute from 22:16:00: inside the window `+` shows (the last 2.5 min).
rm "$JOB/system/incremental/2023111422/1700000160.algo-1.json" ||
    { echo "FAIL: synth's layout changed: no minute file to remove"; exit 1; }

ui_start 120 30 env TZ=UTC "$SMTOP" "$JOB"
ui_wait 'UTC \(5 m 00 s\)|UTC \(4 m 59 s\)'
ui_keys +
ui_wait 'UTC \(2 m 30 s\)|UTC \(2 m 29 s\)'
ui_wait '^│ cpu '

# Each chart row (one row per chart at this size): its cells between the
# label and the value column. Inside a stretch of data (not next to a gap
# mark or at either end) both halves of a cell must show a level: cpu and
# mem are never 0 in this job, and a level above 0 lights the bottom dots.
cat > "$UI_WORK/check.py" <<'EOF'
import re, sys
bad = 0
for line in open(sys.argv[1], encoding="utf-8"):
    label, cells = line[:16], line[16:]
    cells = re.split(r" {3,}\S", cells)[0].rstrip()  # up to the value column
    if not re.search(r"·{10,}", cells):
        print("no gap run in %r" % label.strip()); bad = 1
    for seg in cells.split("·"):
        for ch in seg[1:-1]:
            o = ord(ch) - 0x2800
            if not 0 <= o <= 0xFF or (o & 0x40) == 0 or (o & 0x80) == 0:
                print("notch %r (U+%04X) in %r: %s" % (ch, ord(ch), label.strip(), seg)); bad = 1
                break
sys.exit(bad)
EOF
check_rows() {
    ui_screen | grep -E '^│ (cpu|mem) ' > "$UI_WORK/rows"
    [ "$(wc -l < "$UI_WORK/rows")" = 2 ] || { echo "cpu and mem chart rows not found"; return 1; }
    python3 "$UI_WORK/check.py" "$UI_WORK/rows"
}
# The window's data may come a frame after its header: a few tries.
for try in 1 2 3 4 5 6; do
    out=$(check_rows) && break
    sleep 0.5
done
[ -z "$out" ] || ui_fail "zoomed charts: $out"
ui_quit
echo "ok: zoomed charts hold each sample to the next (no notch), the missing minute stays a gap"
