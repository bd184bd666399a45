#!/bin/bash
# The findings view (issue 32 point 4: the verdict opens its findings):
# `!` shows every finding of the verdict whole, with its cause, fix and
# where to look, then the fired rules no finding tells, and each entry
# equals `smtop report`'s "causes and fixes" (why_view.py): at 200x60 every
# entry, at 80x24 the first, on the gloo and main-loader shapes and on
# ../shared/samples' nccl_data where it is. q, Esc and ! close it; the
# help lists it.
source "$(dirname "$0")/ui_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
CHECK="$SMTOP_SRC/tests/integration/why_view.py"
S=${SMTOP_SAMPLES:-}

# view DIR NAME COLS ROWS [--first]: opens the view once every trace is
# in (the title's count holds still) and checks it against the report.
view() {
    local dir=$1 name=$2 cols=$3 rows=$4 want title
    "$SMTOP" report "$dir" >"$UI_WORK/r.txt" 2>/dev/null || ui_fail "$name: report"
    want=$(python3 -c 'import json,sys; print(len(json.load(sys.stdin)["verdict"]["findings"]))' \
        < <("$SMTOP" report --json "$dir" 2>/dev/null)) || ui_fail "$name: report --json"
    ui_start "$cols" "$rows" "$SMTOP" "$dir"
    ui_wait "$UI_FOLLOW" 30
    ui_keys '!'
    title=$(ui_steady "findings: $want, worst first" 40) || exit 1
    # the traces arrive one file a tick: an entry may still name fewer
    # steps than the report, so the view is read until it agrees, 20 s
    local end=$((SECONDS + 20))
    until ui_screen >"$UI_WORK/screen.txt" &&
        python3 "$CHECK" "$UI_WORK/screen.txt" "$UI_WORK/r.txt" ${5:-} >"$UI_WORK/why.out" 2>&1; do
        ((SECONDS < end)) || { cat "$UI_WORK/screen.txt" "$UI_WORK/why.out"
            ui_fail "$name at ${cols}x$rows: the view is not the report"; }
        sleep 0.5
    done
    echo "ok: $name at ${cols}x$rows: $title"
}

for shape in gloo main-loader; do
    "$SMTOP" synth --out "$UI_WORK/$shape" --shape "$shape" --minutes 2 --seed 4 \
        --start 1700000000 >/dev/null || ui_fail "synth $shape"
done
view "$UI_WORK/gloo" gloo 200 60
# the checker sees a changed fix
sed 's/init_process_group("nccl")/init_process_group("gloo")/' "$UI_WORK/r.txt" >"$UI_WORK/bad.txt"
python3 "$CHECK" "$UI_WORK/screen.txt" "$UI_WORK/bad.txt" >/dev/null 2>&1 &&
    ui_fail "why_view.py passed a report whose fix differs"
# the keys close it, and the panes come back
ui_keys Escape
ui_wait_gone 'findings: [0-9]+, worst first' 10
ui_wait '\[[0-9] [A-Z][a-z]+' 10
ui_keys '!'
ui_wait 'findings: [0-9]+, worst first' 10
ui_keys '!'
ui_wait_gone 'findings: [0-9]+, worst first' 10
ui_keys '?'
ui_wait '! +findings: cause, fix' 10
ui_keys Escape
ui_wait_gone '! +findings: cause, fix' 10
ui_quit
view "$UI_WORK/gloo" gloo 80 24 --first
ui_keys Escape
ui_quit
view "$UI_WORK/main-loader" main-loader 200 60
ui_keys q
ui_wait_gone 'findings: [0-9]+, worst first' 10
ui_quit
if [ -n "$S" ] && [ -d "$S/kineto/nccl_data" ]; then
    view "$S/kineto/nccl_data" nccl_data 200 60
    ui_keys Escape
    ui_quit
else
    echo "note: ../shared/samples not found: nccl_data is skipped"
fi
