#!/bin/bash
# The dashboard's Diff pane has `smtop diff`'s PyTorch profiler sections
# (issue 25): each rank's GPU time and the kernels added, removed, slower
# and faster, from the same model code (gpu_diff). A Kineto job against a
# copy whose kernels all run 1.5x longer: the pane's rows are the rows
# `smtop diff --json` gives (names, means, +50 %), zoomed at 200x60 and
# scrolled to at 80x24; a job against itself shows no kernel row. The
# pane's head counts what the command counts (one diff, issue 33: the pane
# said 65 changes where the command said 67).
source "$(dirname "$0")/ui_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
: "${SMTOP_SRC:?}"
"$SMTOP" synth --out "$UI_WORK/base" --kineto --kineto-only --nodes 1 --ranks 2 --minutes 2 \
    --seed 3 --start 1700000000 >/dev/null || ui_fail "synth"
cp -r "$UI_WORK/base" "$UI_WORK/slow"
python3 "$SMTOP_SRC/tests/integration/slow_kernels.py" "$UI_WORK/slow" 1.5 >/dev/null ||
    ui_fail "slow_kernels.py"
"$SMTOP" diff --json "$UI_WORK/base" "$UI_WORK/slow" >"$UI_WORK/d.json" || ui_fail "smtop diff"
# What the pane must show, from the diff: the largest kernel change and a
# rank's idle share, formatted as the pane formats them.
read -r kname kb kt kpct idle_label ib it < <(python3 - "$UI_WORK/d.json" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
k = d["kernels"]
assert k and all(r["kind"] == "slower" for r in k), [r["kind"] for r in k]
assert all(abs(r["change_pct"] - 50) < 0.5 for r in k), [r["change_pct"] for r in k]
r = k[0]
# the pane's rank label: "rank 0 (node) idle", as an ERE without spaces
esc = lambda s: re.sub(r"([().\[\]*+?^$|])", r"\\\1", s).replace(" ", "\\s")
g = [x for x in d["gpu"] if x["metric"] == "idle"][0]
# a regex-safe prefix of the name (the pane cuts long names)
name = re.escape(r["name"][:24]).replace(" ", "\\s")
print(name, "%.1f" % r["base_mean_us"], "%.1f" % r["target_mean_us"], "%+.1f" % r["change_pct"],
      esc(g["process"] + " (" + g["node"] + ") idle"), "%.2f" % g["base_pct"], "%.2f" % g["target_pct"])
PY
) || ui_fail "diff --json: the slowed kernels are not all +50 % slower"
read -r changed noise < <(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(d["changed"], d["noise_rows"])' "$UI_WORK/d.json") || ui_fail "diff --json: no counts"
ui_start 200 60 "$SMTOP" --baseline "$UI_WORK/base" "$UI_WORK/slow"
ui_wait ' [0-9] Diff '
ui_keys BTab Enter
ui_wait 'Diff \(Esc: back\)'
ui_wait "[^0-9]$changed changed, $noise under the noise floor, vs baseline "
ui_wait 'GPU time by rank, % of the profiled span'
ui_wait "$idle_label +$ib → $it "
# Every phase of the traces (each user annotation its own) has its step
# rows above: the kernels may be a scroll away even at 200x60.
for _ in $(seq 1 60); do
    ui_screen | grep -Eq "\\$kpct % ▲" && break
    ui_keys j
    sleep 0.1
done
ui_wait 'GPU kernels, mean per launch \(baseline -> now\)'
ui_wait '^│ slower:'
ui_wait "$kname.* $kb us → $kt us +\\$kpct % ▲"
ui_screen | grep -Eq 'added \(only now\)|removed \(only in' && ui_fail "kernels added or removed by a slowdown"
ui_quit

# 80x24, zoomed: the kernels are reached by scrolling.
ui_start 80 24 "$SMTOP" --baseline "$UI_WORK/base" "$UI_WORK/slow"
ui_wait ' [0-9] Diff '
ui_keys BTab Enter
ui_wait 'Diff \(Esc: back\)'
for _ in $(seq 1 120); do
    ui_screen | grep -Eq "\\$kpct % ▲" && break
    ui_keys j
    sleep 0.1
done
ui_wait "\\$kpct % ▲"
ui_screen | grep -Eq '^│ slower:|us → .* us' || ui_fail "no kernel row at 80x24"
ui_quit

# The job against itself: no kernel row, the rank's idle unchanged.
ui_start 200 60 "$SMTOP" --baseline "$UI_WORK/base" "$UI_WORK/base"
ui_wait ' [0-9] Diff '
ui_keys BTab Enter
ui_wait "$idle_label +$ib → $ib +="
ui_screen | grep -q 'GPU kernels' && ui_fail "kernel section for a job against itself"
ui_quit
echo "ok: Diff pane GPU sections: $kname $kb → $kt us ($kpct %), idle $ib → $it"
