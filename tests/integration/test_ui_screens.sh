#!/bin/bash
# The dashboard's screens at 80x24 (issue 33 point 5), on an ended
# four-node PyTorch profiler job with system metrics (Top in a narrow slot):
# - Top's Kineto rows keep at least 12 columns of the op's name (the
#   figures give way);
# - the help overlay fits its frame (lines flow down columns, none drawn
#   over another), scrolls with j/k and the page keys, and closes only on
#   ?, q or Esc;
# - the zoomed Alerts pane wraps every line (at 120x60, the selected
#   rule's description whole);
# - Enter then Esc gives back the layout it left, and p round the
#   presets comes back to the start-up layout;
# - `-` never widens the window past the job, J never moves it past the
#   job's end;
# - Top's sort keys work on the traces' tables (N: calls) or say why not
#   (P: cProfile's);
# - `:help` lists the commands, `:set StepOutler.…` suggests StepOutlier.
source "$(dirname "$0")/ui_lib.sh"

JOB="$UI_WORK/job"
"$SMTOP" synth --out "$JOB" --seed 7 --kineto --nodes 4 --minutes 2 --start 1700000000 >/dev/null ||
    { echo "FAIL: synth"; exit 1; }
read -r span last_s < <("$SMTOP" report --json "$JOB" | python3 -c '
import json, sys
t = json.load(sys.stdin)["time_range"]
print((t["end_us"] - t["start_us"]) // 1000000, t["end_us"] // 1000000 + 1)')
last=$(TZ=UTC date -d "@$last_s" +%H:%M:%S)   # the job's end, as the header writes it

borders() { ui_screen | grep -oE '[┌├]─[^─]*' | sed 's/[][]/ /g; s/ *$//' | tr '\n' '|'; }
# the window the header shows ("22:13:20-22:15:19"): its seconds, its end
header_range() { ui_screen | head -1 | grep -oE '[0-9]{2}:[0-9]{2}:[0-9]{2}-[0-9]{2}:[0-9]{2}:[0-9]{2}'; }
secs() { IFS=: read -r h m s <<<"$1"; echo $((10#$h * 3600 + 10#$m * 60 + 10#$s)); }
header_span() { local r; r=$(header_range); echo $(($(secs "${r#*-}") - $(secs "${r%-*}"))); }

ui_start 80 24 env TZ=UTC "$SMTOP" "$JOB"
ui_wait 'ENDED' 30
ui_loaded 60                     # panes with no data yet give their space away
ui_wait 'Top - Kineto ops' 20
# --- Top's rows keep the name: 12 columns at least after the figures
ui_wait '│ +1 +[0-9.]+ [mu]?s +[0-9.]+% +[A-Za-z_:]{12}' 20
echo "ok: Top's Kineto rows keep 12 columns of name at 80x24"

# --- the help: fits, scrolls, closes only on ? q Esc
ui_keys '?'
ui_wait 'smtop keys' 5
ui_wait 'lines 1-[0-9]+ of [0-9]+ +j/k PgUp/PgDn scroll +\? q Esc close' 5
ui_screen | grep -q "other panes' keys" && ui_fail "the old page hint is back"
ui_screen | grep -Eq 'scr[a-z]* h l' && ui_fail "two columns drawn over each other"
ui_keys j
ui_wait 'lines 2-' 5
ui_keys x
sleep 0.5
ui_screen | grep -q 'smtop keys' || ui_fail "a key other than ? q Esc closed the help"
ui_keys Escape
ui_wait_gone 'smtop keys' 5
ui_keys '?'
ui_wait 'smtop keys' 5
ui_keys q
ui_wait_gone 'smtop keys' 5
ui_screen | grep -q 'SMTOP_EXIT' && ui_fail "q in the help quit smtop"
echo "ok: the help fits its frame, scrolls, and closes on ? q Esc only"

# --- Enter / Esc: the same layout; p round the presets: the start-up one
start=$(borders | sed 's/\[//g')
ui_focus Steps
before=$(borders)
ui_keys Enter
ui_wait 'Esc: back' 5
ui_keys Escape
ui_wait_gone 'Esc: back' 5
sleep 0.5
[ "$(borders)" = "$before" ] || ui_fail "Enter then Esc moved the panes: $before -> $(borders)"
for _ in 1 2 3 4; do ui_keys p; sleep 0.4; done
ui_wait 'layout: auto' 5
sleep 0.5
[ "$(borders | tr -d '[]')" = "$(echo "$start" | tr -d '[]')" ] ||
    ui_fail "p round the presets: $(borders), at start $start"
echo "ok: Enter/Esc and p round the presets give back the layout"

# --- `-` stays inside the job
for _ in 1 2 3 4; do ui_keys -; sleep 0.3; done
sleep 0.5
w=$(header_span)
[ -n "$w" ] && [ "$w" -le "$span" ] || ui_fail "- widened the window to ${w}s, the job has ${span}s"
echo "ok: - keeps the window within the job (${w}s of ${span}s)"

# --- Top's sort keys on the traces' table
ui_focus Top
ui_keys N
ui_wait 'sort count' 5
ui_keys P
ui_wait "P \(primitive calls\) is cProfile's" 5
ui_keys T
ui_wait 'sort self' 5
echo "ok: Top's sort keys act on Kineto ops, or say why not"

# --- the command line
ui_keys : h e l p Enter
ui_wait 'commands: :set Rule.param=value' 5
ui_keys : s e t Space S t e p O u t l e r . s t d d e v = 4 Enter
ui_wait "unknown rule 'StepOutler': did you mean StepOutlier\\?" 5
echo "ok: :help lists the commands, :set suggests the nearest rule"
ui_quit

# --- 120x60: the zoomed Alerts pane wraps every line; J stays in the job
ui_start 120 60 env TZ=UTC "$SMTOP" "$JOB"
ui_wait 'ENDED' 30
ui_loaded 60                     # the job's end moves while its files are read
ui_focus Alerts
ui_wait '\[(HIGH|MED |LOW )\]' 20
ui_keys Enter
ui_wait 'Esc: back' 5
ui_wait '^│[A-Za-z]+: [a-z]' 10   # the rule's description, wrapped: '; params' may fall on the next line
line=$(ui_screen | grep -E '^│[A-Za-z]+: .*' | head -1)
[ "${line: -3:1}" = "~" ] && ui_fail "the description line is cut: $line"
ui_keys J
sleep 1
end=$(header_range | cut -d- -f2)
[[ "$end" > "$last" ]] && ui_fail "J moved the window past the job's end: $end > $last"
echo "ok: the zoomed Alerts pane wraps its lines; J keeps the window in the job"
ui_quit
