#!/bin/bash
# Top's "GPU idle: host" and "critical path" (issue 32 point 5) on the
# synth main-loader job (DataLoader(num_workers=0), one rank): over the
# whole job each figure equals the report's (gpu[].idle_pct, the first
# idle cause's share, the critical path's data_loading share); zoomed in,
# both follow the range, as Top's other tables do, with fewer steps.
source "$(dirname "$0")/ui_lib.sh"
"$SMTOP" synth --out "$UI_WORK/j" --shape main-loader --minutes 2 --seed 4 \
    --start 1700000000 >/dev/null || ui_fail "synth"
"$SMTOP" report --json "$UI_WORK/j" >"$UI_WORK/r.json" || ui_fail "report --json"
# the report's figures at the screen's precision: idle %, the first
# cause's kind, name and share, the path's data_loading %
read -r idle kind share dl <<<"$(python3 - "$UI_WORK/r.json" <<'EOF'
import json, sys
g = json.load(open(sys.argv[1]))["gpu"][0]
c = g["idle_causes"][0]
print("%.1f" % g["idle_pct"], c["kind"], "%.1f%%" % c["pct_of_idle"],
      "%.0f" % g["critical_path"]["bound_pct"]["data_loading"])
EOF
)"
[ "$kind" = dataloader ] || ui_fail "the report's first idle cause is $kind, not the DataLoader"

ui_start 200 50 "$SMTOP" "$UI_WORK/j"
ui_loaded 60
ui_focus Top
ui_keys Enter   # the pane zoomed: whole names and figure lines
ui_wait 'Top functions \(Esc: back\)' 10
# `o` until the source; each press waits for the pane to name it
ui_source() {
    local want=$1 end=$((SECONDS + 30))
    while ((SECONDS < end)); do
        ui_screen | grep -qE "Top functions( \(Esc: back\))? - $want," && return 0
        ui_keys o
        sleep 0.5
    done
    ui_fail "Top never showed the source $want"
}
ui_source 'GPU idle: host'
line=$(ui_steady 'GPU idle: host \| [0-9]+ steps: GPU idle [0-9.]+ %[^|]* \| all 1 rank \| sort idle' 30) ||
    ui_fail "no figures line"
steps_whole=$(grep -oE '[0-9]+ steps: GPU idle' <<<"$line" | awk '{print $1}')
got=$(grep -oE 'GPU idle [0-9.]+ %' <<<"$line" | awk '{print $3}')
[ "$got" = "$idle" ] || ui_fail "Top says GPU idle $got %, the report $idle %"
row=$(ui_steady '│  1 .*\[dataloader\] enumerate\(DataLoader\)' 20) ||
    ui_fail "the DataLoader is not Top's first row of the GPU's idle time"
grep -qF " $share " <<<"$row" || ui_fail "the DataLoader's row ($row) lacks the report's $share"
echo "ok: whole job, $steps_whole steps, GPU idle $got %, DataLoader $share of the idle time"

ui_source 'critical path'
line=$(ui_steady 'critical path \| [0-9]+ steps, path [^|]* \| all 1 rank \| sort on path' 30) ||
    ui_fail "no critical path line"
grep -qE "path [^:]*: data_loading $dl % " <<<"$line" ||
    ui_fail "Top's path ($line) does not lead with data_loading $dl %"
ui_steady '│  1 .*\[user_annotation\] enumerate\(DataLoader\)' 20 >/dev/null ||
    ui_fail "the DataLoader is not the first event on the critical path"
echo "ok: critical path data_loading $dl %"

# zoomed in: the range's steps, fewer than the whole job's
ui_keys Escape
ui_wait_gone 'Top functions \(Esc: back\)' 10
ui_keys + +
range=$(ui_steady 'Top functions - critical path, [0-9:]+-[0-9:]+' 15) ||
    ui_fail "Top did not follow the zoom"
range=${range##*, }
ui_screen | grep -q "Steps - $range" || ui_fail "Top shows $range, the Steps pane another range"
ui_source 'GPU idle: host'
line=$(ui_steady 'GPU idle: host \| [0-9]+ steps: GPU idle' 15) ||
    ui_fail "no figures line zoomed in"
steps_zoom=$(grep -oE '[0-9]+ steps: GPU idle' <<<"$line" | awk '{print $1}')
((steps_zoom > 0 && steps_zoom < steps_whole)) ||
    ui_fail "zoomed to $range, Top counts $steps_zoom steps, the whole job $steps_whole"
echo "ok: $range holds $steps_zoom of $steps_whole steps"
ui_keys a
ui_steady "GPU idle: host \| $steps_whole steps: GPU idle" 15 >/dev/null ||
    ui_fail "a did not bring back the whole job's $steps_whole steps"
ui_quit
echo "ok: a brings back the whole job"
