#!/bin/bash
# The python pane in a real terminal (tmux, 80x24): pstats-like rows with
# total/primitive calls, sort keys (s cycles, T/C/N), the zoomed callers /
# callees view (Enter), the `/` name filter, the `w` window menu, long
# names shortened from the left, and no escape sequence from a function
# name reaching the terminal.
source "$(dirname "$0")/ui_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }

JOB="$UI_WORK/job"
python3 "$SMTOP_SRC/tests/tools/pystats_fixture.py" cprofile "$JOB/profiler-output" \
    || { echo "FAIL: fixture"; exit 1; }
# a function whose name carries an escape sequence and a very long path
python3 - "$JOB/profiler-output" <<'PY'
import marshal, os, sys
d = os.path.join(sys.argv[1], "framework/pytorch/cprofile/algo-9",
                 "train-50-stepstart-1591760000000000_train-52-stepend-1591760005000000")
os.makedirs(d)
long = "/very/long/site-packages/" + "deeply/nested/" * 8 + "module.py"
marshal.dump({(long, 77, "evil\x1b]0;pwned\x07name"): (5, 5, 99.0, 99.5, {})},
             open(os.path.join(d, "python_stats"), "wb"), 4)
PY

ui_start 80 24 "$SMTOP" --interval 1 "$JOB"
ui_wait 'Top functions'
for _ in 1 2 3; do ui_keys Tab; done        # focus the python pane
ui_keys Enter                               # zoom it
ui_wait 'cProfile \| all windows, all nodes \| 9 windows \| sort tottime'
ui_wait '^│  1 +5 +99\.000 +19\.800 +99\.500 +19\.900 ~.*module\.py:77\(evil'
ui_screen_esc | grep -q $'\e\]0;pwned' && ui_fail "escape sequence from data reached the terminal"
ui_screen | grep -Eq '^│  1 .{48}~' || ui_fail "long path not shortened from the left"

ui_keys C                                   # cumtime: evil 99.5, then <module> 37.5
ui_wait 'sort cumtime'
ui_wait '^│  2 .* train\.py:1\(<module>\)'
ui_keys N
ui_wait 'sort ncalls'
ui_wait '^│  1 +6\.9e\+18 '
ui_keys s
ui_wait 'sort pcalls'
ui_keys T
ui_wait 'sort tottime'

# callers and callees of the recursive function, with total/primitive calls
ui_keys /
ui_keys c u r s e
ui_wait '/curse_'
ui_keys Enter
ui_wait 'called by \(2\)'
ui_wait '^│ +[0-9]+ +9009/9 +1\.250 .*\(récurse\)'
ui_wait '^│ +9000/0 +2\.250 .*\(récurse\)'
ui_wait 'calls \(2\)'
ui_keys Escape                              # first Esc: unzoom (dashboard)
ui_wait_gone 'called by'

# the window menu: pick one node
ui_keys Enter w
ui_wait 'choose windows'
ui_wait 'node algo-9'
for _ in $(seq 1 20); do ui_keys j; done
ui_keys Escape
ui_wait_gone 'choose windows'
ui_keys w
for _ in 1 2 3; do ui_keys j; done          # "after the hook closed"
ui_keys Enter
ui_wait 'phase: after the hook closed \| 3 windows'
ui_keys q
ui_wait 'SMTOP_EXIT=0'
echo OK
