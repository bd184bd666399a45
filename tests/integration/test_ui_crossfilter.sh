#!/bin/bash
# The step cross-filter in a real terminal (tmux): on a synthetic job with
# slow steps, the steps pane's `o` puts the cursor on the newest outlier
# step and `f` ties every pane to it — the header shows STEP N, the node
# it came from and that step's own window there (to the millisecond,
# checked against the trace files; not the union over unsynchronised
# nodes, issue 14), the python pane merges only the cProfile
# windows that overlap that window (a function profiled only there is
# listed, one profiled only elsewhere is not), a step no window overlaps
# says so plainly, Esc returns to following the newest data with every window merged again, and
# the StepOutlier alert's J focuses the step its details name (the same
# node as its message, and as report --json).
#
# Two runs: the first finds which step `o` picks; the cProfile windows are
# then written around that step (smdebug's stats_dir naming carries the
# window's times) and the second run checks what every pane shows.
source "$(dirname "$0")/ui_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }

JOB="$UI_WORK/job"
ui_synth "$JOB" --nodes 2 --minutes 3 --outlier-rate 0.02 --start 1700000000

# steps.py CMD ...: step facts from the synthetic job's trace files.
cat > "$UI_WORK/steps.py" <<'PY'
import glob, json, marshal, os, statistics, sys, time
job = sys.argv[1]
TRAIN = "Step:ModeKeys.TRAIN"

def load(path):
    text = open(path).read().rstrip().rstrip(",")
    if not text.endswith("]"):
        text += "]"
    return json.loads(text)

steps = {}   # node -> step -> (start_us, end_us)
for path in glob.glob(os.path.join(job, "framework/pevents/*/*_pythontimeline.json")):
    node = os.path.basename(path).split("_")[1].split("-", 1)[1]
    evs = load(path)
    base = names = None
    names = {}
    for e in evs:
        if e.get("ph") == "M" and e.get("name") == "process_name":
            a = e.get("args", {})
            if "start_time_since_epoch_in_micros" in a:
                base = a["start_time_since_epoch_in_micros"]
            if "name" in a:
                names[e["pid"]] = a["name"]
    for e in evs:
        if e.get("ph") == "X" and names.get(e.get("pid")) == TRAIN:
            t0 = base + e["ts"]
            steps.setdefault(node, {})[int(e["args"]["step_num"])] = (t0, t0 + e["dur"])

def union(n):
    spans = [s[n] for s in steps.values() if n in s]
    return min(a for a, _ in spans), max(b for _, b in spans)

def clock(us):
    sec = us // 1000000
    return time.strftime("%H:%M:%S", time.gmtime(sec)) + ".%03d" % ((us - sec * 1000000) // 1000)

cmd = sys.argv[2]
if cmd == "window":          # the header's text for step N on algo-1
    t0, t1 = steps["algo-1"][int(sys.argv[3])]
    print("%s-%s" % (clock(t0), clock(t1)))
elif cmd == "union":         # what the header showed before issue 14
    t0, t1 = union(int(sys.argv[3]))
    print("%s-%s" % (clock(t0), clock(t1)))
elif cmd == "span":          # the header's text for a report --json details span
    print("%s-%s" % (clock(int(sys.argv[3])), clock(int(sys.argv[4]))))
elif cmd == "outlier":       # step N is a slow step on algo-1
    d = {k: b - a for k, (a, b) in steps["algo-1"].items()}
    n = int(sys.argv[3])
    sys.exit(0 if d[n] > 2 * statistics.median(d.values()) else 1)
elif cmd == "write":         # cProfile windows: one inside step N, one far from it
    n = int(sys.argv[3])
    a, b = steps["algo-1"][n]
    t0, t1 = union(n)
    inside = ((a + b) // 2 - 500, (a + b) // 2 + 500)
    far = (t0 - 30000000, t0 - 29000000) if n > 400 else (t1 + 29000000, t1 + 30000000)
    for (w0, w1), s, fn in ((inside, n, "only_in_step"), (far, 1, "only_elsewhere")):
        d = os.path.join(job, "framework/pytorch/cprofile/algo-1",
                         "train-%d-stepstart-%d_train-%d-stepend-%d" % (s, w0, s, w1))
        os.makedirs(d)
        marshal.dump({("train.py", 10, fn): (3, 3, 0.25, 0.25, {})},
                     open(os.path.join(d, "python_stats"), "wb"), 4)
    open(os.path.join(job, "inside"), "w").write("%d %d" % inside)
elif cmd == "overlaps":      # does step M's window overlap the inside window?
    w0, w1 = map(int, open(os.path.join(job, "inside")).read().split())
    t0, t1 = steps["algo-1"][int(sys.argv[3])]
    print(1 if w1 >= t0 and w0 < t1 else 0)
PY
steps() { python3 "$UI_WORK/steps.py" "$JOB" "$@"; }

header_step() {
    ui_screen | sed -n 1p | sed -n 's/.*STEP \([0-9][0-9]*\) .*/\1/p'
}

# Focus the steps pane (third) and put the cursor on the newest outlier.
start_and_pick_outlier() {
    ui_start 120 40 env TZ=UTC "$SMTOP" --interval 1 "$JOB"
    ui_wait 'algo-1  TRAIN'
    ui_loaded 60                 # o picks the slowest of the steps read so far
    ui_keys Tab Tab
    ui_wait '(, ?/ ?\. o f)'
    ui_keys o
    ui_wait 'step [0-9]+ \(f: focus\)'
    ui_keys f
    ui_wait 'STEP [0-9]+ \S*algo-1 +[0-9:.]+-[0-9:.]+ \([0-9.]+ m?s\) +Esc: back'
}

# ---- run 1: which step does `o` pick?
start_and_pick_outlier
N=$(header_step)
[ -n "$N" ] || ui_fail "no step number in the header"
steps outlier "$N" || ui_fail "step $N (picked by o) is not a slow step"
ui_quit
steps write "$N"

# ---- run 2: the panes follow the step
start_and_pick_outlier
[ "$(header_step)" = "$N" ] || ui_fail "o/f picked step $(header_step), not $N"
WIN=$(steps window "$N")
ui_screen | sed -n 1p | grep -Eq "STEP $N \S*algo-1  $WIN" \
    || ui_fail "header does not show step $N's own window on algo-1 ($WIN): $(ui_screen | sed -n 1p)"
[ "$WIN" = "$(steps union "$N")" ] || ! ui_screen | sed -n 1p | grep -qF "$(steps union "$N")" \
    || ui_fail "the header shows the union of step $N over both nodes"
ui_wait 'step [0-9]+ focused \(Esc\)'                       # the steps pane marks it
ui_wait "windows overlapping step $N \\(1 of 2\\)"
ui_wait 'py:10\(only_in_step\)'
ui_screen | grep -q 'only_elsewhere' && ui_fail "a window outside step $N was merged"
# the system pane draws the step's window: a chart or the samples as text,
# never an empty "no data" chart
ui_screen | grep -Eq '^│ (cpu|gpu0|gmem0|mem) +no data' && ui_fail "an empty chart inside the step's window"

# Esc: back to live, every window merged again
ui_keys Escape
ui_wait "^ smtop .* $UI_FOLLOW"
ui_wait_gone 'STEP [0-9]+ '
ui_wait 'all windows, all nodes \| 2 windows'
ui_wait 'only_elsewhere'

# a step far from both windows: the python pane says so plainly
ui_keys f                                   # the cursor's step again
ui_wait "STEP $N "
for _ in $(seq 1 25); do ui_keys ,; done
ui_keys f
ui_wait_gone "STEP $N "
ui_wait 'STEP [0-9]+ '
M=$(header_step)
[ "$M" != "$N" ] || ui_fail "the cursor did not move off step $N"
if [ "$(steps overlaps "$M")" = 0 ]; then
    ui_wait "no profiled window overlaps step $M"
    ui_wait "windows overlapping step $M \\(0 of 2\\)"
fi
# `0` also leaves the focus
ui_keys 0
ui_wait "^ smtop .* $UI_FOLLOW"

# the StepOutlier alert: J focuses the step its details name, on that node
read -r SNODE ST0 ST1 < <("$SMTOP" report --json "$JOB" | jq -r \
    '.rules[] | select(.name == "StepOutlier") | "\(.details.node) \(.details.start_us) \(.details.end_us)"')
"$SMTOP" report --json "$JOB" | jq -e --arg n "$SNODE" \
    '.rules[] | select(.name == "StepOutlier") | .details.message | startswith($n + " ")' >/dev/null \
    || ui_fail "StepOutlier: details.node $SNODE is not the node its message names"
ui_keys BTab BTab BTab                      # steps -> system -> the last pane, alerts
for _ in 1 2 3 4 5 6 7 8; do ui_keys k; done  # the top alert: StepOutlier
ui_wait 'MED \] StepOutlier' 
ui_keys J
ui_wait "STEP [0-9]+ ${SNODE:0:20}  $(steps span "$ST0" "$ST1")"
ui_keys Escape
ui_wait "^ smtop .* $UI_FOLLOW"
ui_quit
echo OK
