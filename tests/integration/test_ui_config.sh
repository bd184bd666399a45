#!/bin/bash
# $XDG_CONFIG_HOME/smtop/smtop.conf sets the dashboard's defaults (theme,
# symbols, interval, no-color); options on the command line win;
# --no-config ignores the file; a bad line stops smtop before the screen
# opens with exit 2 naming file and line; --help works whatever the file says.
source "$(dirname "$0")/ui_lib.sh"

export XDG_CONFIG_HOME="$UI_WORK/config"
mkdir -p "$XDG_CONFIG_HOME/smtop"
CONF="$XDG_CONFIG_HOME/smtop/smtop.conf"
JOB="$UI_WORK/job"
ui_synth "$JOB" --nodes 2 --gpus 1 --minutes 2 --no-traces
COLOR_SGR=$'\e\\[([0-9;]*;)?(3[0-7]|4[0-7]|9[0-7]|10[0-7]|38;5;[0-9]+|38;2;[0-9;]+|48;5;[0-9]+|48;2;[0-9;]+)[;m]'

cat >"$CONF" <<'CONF'
# dashboard defaults
theme = light
symbols   =   ascii     # no braille on this terminal
interval = 2
no-color = yes
CONF
ui_start 160 48 env TERM=tmux-256color "$SMTOP" "$JOB"
ui_wait '2 nodes'
! ui_screen_esc | grep -Eq "$COLOR_SGR" || ui_fail "no-color = yes: color escapes on screen"
ui_keys t                     # the theme after the configured one
ui_wait 'theme high-contrast'
ui_keys g                     # the symbol set after the configured one
ui_wait 'graph symbols: braille'
ui_quit

# the command line wins over the file
ui_start 160 48 env TERM=tmux-256color "$SMTOP" --theme monochrome --symbols block "$JOB"
ui_wait '2 nodes'
ui_keys t
ui_wait 'theme default'
ui_keys g
ui_wait 'graph symbols: ascii'
ui_quit

# --no-config: built-in defaults, colors back on
ui_start 160 48 env TERM=tmux-256color "$SMTOP" --no-config "$JOB"
ui_wait '2 nodes'
ui_screen_esc | grep -Eq "$COLOR_SGR" || ui_fail "--no-config: still no colors"
ui_keys t
ui_wait 'theme light'
ui_quit

fail() { echo "FAIL: $*"; exit 1; }
expect_bad() {  # expect_bad LINE PATTERN
  printf 'theme = light\n%s\n' "$1" >"$CONF"
  "$SMTOP" "$JOB" >"$UI_WORK/out" 2>"$UI_WORK/err" </dev/null
  local rc=$?
  [ $rc = 2 ] || fail "'$1': exit $rc, want 2 ($(cat "$UI_WORK/err"))"
  grep -q "smtop.conf:2: .*$2" "$UI_WORK/err" || fail "'$1': message $(cat "$UI_WORK/err")"
}
expect_bad 'thme = dark' "unknown key 'thme'"
expect_bad 'interval = 0' 'interval needs a number from 1 to 3600'
expect_bad 'symbols = emoji' 'braille, block or ascii'
expect_bad 'no-color = maybe' 'true or false'
expect_bad 'just words' 'expected key = value'
expect_bad 'frames = 3' "unknown key 'frames'"
"$SMTOP" --demo --help >"$UI_WORK/out" 2>&1 || fail "--help with a bad smtop.conf: $(cat "$UI_WORK/out")"
grep -q -- "--no-config" "$UI_WORK/out" || fail "--help does not list --no-config"
# --no-config skips the broken file (and then fails only on the missing job)
"$SMTOP" --no-config "$UI_WORK/none" >/dev/null 2>"$UI_WORK/err" </dev/null
grep -q "smtop.conf" "$UI_WORK/err" && fail "--no-config still read the file: $(cat "$UI_WORK/err")"
echo "ok: smtop.conf"
