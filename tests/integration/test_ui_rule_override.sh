#!/bin/bash
# `smtop --rule` and rules.conf reach the dashboard's alerts pane (issue 6).
# On a job whose steps fire StepOutlier at the default 3 sigma:
#   - a bad --rule or a bad rules.conf line is a usage error (exit 2) with
#     the message, before any screen is drawn;
#   - --rule StepOutlier.stddev=100 turns the alert ok at start;
#   - rules.conf alone does the same, and --rule wins over rules.conf;
#   - `:set` still works on top of the start-up override.
source "$(dirname "$0")/ui_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
: "${SMTOP_SRC:?}"
export XDG_CONFIG_HOME="$UI_WORK/config"
JOB="$UI_WORK/job"
python3 "$SMTOP_SRC/tests/integration/make_rule_scenario.py" "$JOB" steps_fire >/dev/null ||
    { echo "FAIL: make_rule_scenario.py"; exit 1; }

# usage errors: exit 2 and the reason on stderr
err=$("$SMTOP" --rule StepOutlier.sttdev=4 "$JOB" 2>&1 </dev/null); rc=$?
[ "$rc" = 2 ] || { echo "FAIL: bad --rule exited $rc, want 2"; exit 1; }
grep -q "no parameter 'sttdev'" <<<"$err" || { echo "FAIL: bad --rule message: $err"; exit 1; }
err=$("$SMTOP" --rule NoSuchRule.x=1 "$JOB" 2>&1 </dev/null); rc=$?
[ "$rc" = 2 ] || { echo "FAIL: unknown rule exited $rc, want 2"; exit 1; }
mkdir -p "$XDG_CONFIG_HOME/smtop"
printf '# test\nStepOutlier.stddev = abc\n' > "$XDG_CONFIG_HOME/smtop/rules.conf"
err=$("$SMTOP" "$JOB" 2>&1 </dev/null); rc=$?
[ "$rc" = 2 ] || { echo "FAIL: bad rules.conf exited $rc, want 2"; exit 1; }
grep -q 'rules.conf:2' <<<"$err" || { echo "FAIL: rules.conf message lacks file:line: $err"; exit 1; }
"$SMTOP" --no-rules-config --frames 1 "$JOB" >/dev/null 2>&1 ||
    { echo "FAIL: --no-rules-config did not skip the bad rules.conf"; exit 1; }
rm "$XDG_CONFIG_HOME/smtop/rules.conf"

# defaults: the alert fires (the baseline the overrides must change)
ui_start 160 50 "$SMTOP" "$JOB"
ui_wait '\[MED \] StepOutlier( [0-9a-z-]+)? +12/200'
ui_quit

# --rule at start: the same job, no outlier at 100 sigma
ui_start 160 50 "$SMTOP" --rule StepOutlier.stddev=100 "$JOB"
ui_wait '\[ ok \] StepOutlier +0/200'
# :set on top of the start-up override brings it back
ui_keys ':' 'set StepOutlier.stddev=3' Enter
ui_wait 'rule parameter set: StepOutlier.stddev=3'
ui_wait '\[MED \] StepOutlier( [0-9a-z-]+)? +12/200'
ui_quit

# rules.conf alone, then --rule over it
printf 'StepOutlier.stddev = 100\n' > "$XDG_CONFIG_HOME/smtop/rules.conf"
ui_start 160 50 "$SMTOP" "$JOB"
ui_wait '\[ ok \] StepOutlier +0/200'
ui_quit
ui_start 160 50 "$SMTOP" --rule StepOutlier.stddev=3 "$JOB"
ui_wait '\[MED \] StepOutlier( [0-9a-z-]+)? +12/200'
ui_quit
echo "ok: --rule and rules.conf in the dashboard"
