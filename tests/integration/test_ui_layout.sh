#!/bin/bash
# A layout that adapts (issue 14): panes without data give their space to
# the others and the status line names the absent data once; digits show
# and hide panes, `p` cycles presets, and the choice (with the theme) is in
# smtop.conf after quitting and applies on the next start. At 80x24 the
# header keeps the node count and the time range, a long path cut in the
# middle.
source "$(dirname "$0")/ui_lib.sh"

SYS="$UI_WORK/sysonly"
ui_synth "$SYS" --nodes 2 --gpus 2 --cpus 2 --minutes 2 --no-traces --start 1700000000
CONF="$XDG_CONFIG_HOME/smtop/smtop.conf"

ui_start 120 40 "$SMTOP" "$SYS"
ui_wait '2 nodes'
ui_wait 'no framework traces, no Python stats in this job'
ui_wait '1 System' && ui_wait '2 Heatmap' && ui_wait '6 Alerts'
for gone in '3 Steps' '4 Python' '5 Timeline'; do
    ui_wait_gone "$gone" 5
done
n=$(ui_screen | grep -o 'no framework traces' | wc -l)
[ "$n" = 1 ] || ui_fail "the absent data is named $n times, want once"
# Digits: 3 shows the empty Steps pane on request, 1 hides System.
ui_keys 3
ui_wait '3 Steps'
ui_wait 'Steps shown'
ui_keys 3
ui_wait_gone '3 Steps'
ui_keys 1
ui_wait_gone '1 System'
ui_keys 1
ui_wait '1 System'
# A pane that hides hands the focus on, and takes it back when it is
# shown again, unless the focus was moved meanwhile.
ui_keys 3
ui_wait '3 Steps'
ui_focus Steps
ui_keys 3
ui_wait_gone '3 Steps'
ui_wait '\[1 System'
ui_keys 3
ui_wait '\[3 Steps'
ui_keys 3
ui_wait '\[1 System'
ui_keys Tab
ui_wait '\[2 Heatmap'
ui_keys 3
ui_wait '3 Steps'
ui_wait '\[2 Heatmap'
ui_keys 3
ui_wait_gone '3 Steps'
# Presets: all shows every pane; then hide the heatmap and change theme.
ui_keys p
ui_wait 'layout: all'
ui_wait '4 Top functions' && ui_wait '5 Timeline'
# Panes that do not follow the selected window say so in their border.
for t in '3 Steps' '4 Top functions' '6 Alerts'; do
    ui_wait "$t - whole job"
done
ui_screen | grep -Eq '(1 System|2 Heatmap|5 Timeline) - whole job' && ui_fail "a windowed pane says whole job"
ui_keys 2
ui_wait_gone '2 Heatmap'
ui_keys t
ui_wait 'theme light'
ui_quit
grep -qx 'layout = all' "$CONF" || ui_fail "smtop.conf: $(cat "$CONF")"
grep -qx 'hidden = heatmap' "$CONF" || ui_fail "smtop.conf: $(cat "$CONF")"
grep -qx 'theme = light' "$CONF" || ui_fail "smtop.conf: $(cat "$CONF")"
grep -qx 'symbols = braille' "$CONF" || ui_fail "smtop.conf: $(cat "$CONF")"
# The next start applies it.
ui_start 120 40 "$SMTOP" "$SYS"
ui_wait '5 Timeline'
ui_wait '4 Top functions'
ui_wait_gone '2 Heatmap' 5
ui_quit
# --no-config neither reads nor writes it.
cp "$CONF" "$UI_WORK/before"
ui_start 120 40 "$SMTOP" --no-config "$SYS"
ui_wait '2 Heatmap'
ui_keys p
ui_wait 'layout: all'
ui_quit
cmp -s "$CONF" "$UI_WORK/before" || ui_fail "--no-config changed smtop.conf"
echo "ok: empty panes give way, digits, the focus comes back, presets, saved in smtop.conf"

# 80x24 with a long path: node count and time range stay whole, and the
# path gives way from its head and its profiler-output boilerplate, so the
# end of the job's name (what tells sweep runs apart) stays.
LONG="$UI_WORK/very/long/path/to/a/bucket/prefix/training-job-2026-11-25-17-00-00-123"
mkdir -p "$LONG"
ui_synth "$LONG/profiler-output" --nodes 3 --gpus 1 --minutes 2 --start 1700000000
ui_start 80 24 "$SMTOP" --no-config "$LONG/profiler-output"
ui_wait '3 nodes'
ui_wait '^ /\S*\.\.\.\S*-00-123 \| 3 nodes \| [0-9-]+ [0-9:]+-[0-9:]+ UTC'
ui_quit
echo "ok: 80x24 header"

# 80x24, system-only: the status line still names what the job lacks, whole.
ui_start 80 24 "$SMTOP" --no-config "$SYS"
ui_wait '2 nodes'
ui_wait '^ newest sample .* old \| no traces, no Python +\? help  q quit *$'
ui_quit
echo "ok: 80x24 absent-data note"
