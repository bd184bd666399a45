#!/bin/bash
# Charts a user can read (issue 14): the System graphs take the pane's
# width and, when tall, several rows with time ticks under them; each
# chart names its scale; "no data" (a dim dot) differs from 0 (blank) and
# a small non-zero value still draws; the heatmap has a legend of its
# eight-step ramp, a selected straggler keeps both marks, and the Alerts
# counters have column headers.
source "$(dirname "$0")/ui_lib.sh"

# Three minutes of a job whose system files of its second minute are
# gone (the ended job opens on its three minutes; `-` keeps the window
# within them, issue 33): that minute has no samples and must say so.
JOB="$UI_WORK/job"
ui_synth "$JOB" --nodes 4 --gpus 2 --cpus 4 --minutes 3 --slow-node 2 --start 1700000000
find "$JOB/system" -name '1700000040.algo-*.json' -delete

# The widest run of graph cells (braille or the no-data dot) on the lines
# starting with $1 (python: mawk does not count UTF-8 characters).
graph_width() {
    ui_screen | python3 -c '
import re, sys
pre = sys.argv[1]
runs = [len(m) for l in sys.stdin if re.match(pre, l)
        for m in re.findall("[\u2800-\u28ff\u00b7]+", l)]
print(max(runs or [0]))' "$1"
}

# 1 when a line among the 5 from the one starting with $1 has braille dots.
has_dots() {
    ui_screen | python3 -c '
import re, sys
pre, lines = sys.argv[1], sys.stdin.read().splitlines()
at = [i for i, l in enumerate(lines) if re.match(pre, l)]
ok = any(re.search("[\u2801-\u28ff]", l) for i in at[:1] for l in lines[i:i + 5])
print(1 if ok else 0)' "$1"
}

ui_start 200 60 "$SMTOP" "$JOB"
ui_wait '4 nodes'
ui_wait 'algo-4'
ui_wait '\((2 m 59|3 m 00) s\)'
ui_keys -
sleep 0.5
ui_wait '\((2 m 59|3 m 00) s\)'
# Full width: the System pane of the 200-column layout is 118 inner
# columns; before, every graph stopped at 63 with a blank gap beside it.
ui_wait '^│ cpu '
W=$(graph_width '│ (cpu|gpu0) ')
[ "$W" -ge 80 ] || ui_fail "System graphs are $W columns wide, want >= 80"
# Scale and the last value, named once per node (the job has ended: the
# value is the last sample's, not "now").
ui_wait 'last 22:16:19'
ui_screen | grep -E '^│ cpu ' | grep -q '100%' || ui_fail "cpu chart does not name its 100% scale"
ui_screen | grep -E '^│ eth0 received' | grep -Eq '[0-9.]+ [kMG]?B/s +[0-9.]+ [kMG]?B/s' ||
    ui_fail "network chart lacks its auto scale and value"
# No data differs from 0: the window's minute without files holds a dim dot.
ui_screen | grep -E '^│ cpu ' | grep -q '·' || ui_fail "no-data part of the window is blank"
# Heatmap legend and ramp.
ui_wait '▁▂▃▄▅▆▇█ 0-100%'
ui_wait '1-4/4'
# Alerts header: at 78 columns the rows lead with the facts, counts
# included (issue 26).
ui_wait 'level  rule, where, worst case'
ui_wait 'Straggler algo-3 \+[0-9]+% 1/4'
# Select the straggler in the heatmap: both marks.
ui_keys Tab
ui_keys j j
ui_wait '!>algo-3'
ui_quit

# Tall charts: one node in a zoomed System pane gets multi-row graphs and a
# time axis with ticks between its ends.
ONE="$UI_WORK/one"
ui_synth "$ONE" --nodes 1 --gpus 1 --cpus 2 --minutes 6 --start 1700000000
ui_start 200 60 "$SMTOP" "$ONE"
ui_wait '1 node'
ui_keys Enter
ui_wait '^│ +[0-9]{2}:[0-9]{2}.*\|[0-9]{2}:[0-9]{2}.*\|[0-9]{2}:[0-9]{2}'
ui_wait ' 0% +│'
ROWS=$(ui_screen | python3 -c '
import re, sys
lines = sys.stdin.read().splitlines()
i = next(k for k, l in enumerate(lines) if l.startswith("│ gpu0 "))
n = 1
while i + n < len(lines) and re.match("│  ", lines[i + n]) and re.search("[\u2800-\u28ff]", lines[i + n]):
    n += 1
print(n)')
[ "$ROWS" -ge 3 ] || ui_fail "gpu0 chart has $ROWS rows in a tall pane, want several"
ui_quit

# A value far below one chart level (the sample job's CPU at ~4 %) still
# draws the lowest glyph instead of an empty chart. The last value is the
# newest CPU total, 4.7 % (all 32 cores at 1591748169.23, alone in the
# newest file, which is read first); the dashboard showed the one before,
# 4.3 %, until a live flush stopped holding back a complete newest group.
if [ -d "${SMTOP_SAMPLES:-}/test_traces" ]; then
    ui_start 200 60 "$SMTOP" "$SMTOP_SAMPLES/test_traces"
    ui_wait '4\.7%'
    [ "$(has_dots '│ cpu ')" = 1 ] || ui_fail "a 4% CPU draws nothing"
    ui_quit
    echo "ok: small values draw on the sample job"
else
    echo "note: ../shared/samples not found, small-value check on the sample skipped"
fi
echo "ok: charts at full width with scale, ticks, gaps; heatmap legend and marks"
