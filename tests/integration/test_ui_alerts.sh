#!/bin/bash
# The alerts pane in the real binary under tmux: a crafted CPU-bottleneck
# job shows "[HIGH] CPUBottleneck" first; `:set CPUBottleneck.threshold=100`
# on the command line re-evaluates at once and the alert turns ok; a bad
# parameter gets a clear message; Enter on the pane shows the datapoints.
source "$(dirname "$0")/ui_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
: "${SMTOP_SRC:?}"
export XDG_CONFIG_HOME="$UI_WORK/config"
python3 "$SMTOP_SRC/tests/integration/make_rule_scenario.py" "$UI_WORK/job" cpu_fire >/dev/null ||
    { echo "FAIL: make_rule_scenario.py"; exit 1; }

ui_start 160 50 "$SMTOP" "$UI_WORK/job"
ui_wait 'Alerts'
ui_wait '\[HIGH\] CPUBottleneck( algo-1)? +200/200'
ui_wait '1 alert: 1 high'  # one, not "1 alerts" (issue 26)
ui_keys ':'
ui_wait ' :_'
ui_keys 'set CPUBottleneck.threshold=100' Enter
ui_wait 'rule parameter set: CPUBottleneck.threshold=100'
ui_wait '\[ ok \] CPUBottleneck'
ui_wait '0 alerts'
ui_keys ':' 'set CPUBottleneck.treshold=1' Enter
ui_wait "no parameter 'treshold'"
ui_keys ':' 'set CPUBottleneck.threshold=50' Enter
ui_wait '\[HIGH\] CPUBottleneck'
# focus the alerts pane (the last one) and zoom it: the detail view
ui_keys BTab Enter
ui_wait 'worst: algo-1'
ui_wait 'gpu 5.0%, cpu 95.0%'
ui_keys Escape
ui_quit
echo "ok: alerts pane and :set"
