#!/usr/bin/env bash
# Shell completion (tui/cmd/completion/): in bash, `complete -p smtop` is
# set and _smtop completes subcommands, every option each `--help` lists,
# option values from `smtop --complete` (themes, rule parameters, rule
# lists after a comma, symbol sets, sort keys), `--opt=value`, and local
# paths — with and without the bash-completion package. Every value it
# offers is one the binary accepts. In zsh (when installed) the same
# completions are typed with Tab in a real interactive shell under tmux.
set -o pipefail
: "${SMTOP:?}" "${SMTOP_SRC:?}"
source "$(dirname "$0")/it_lib.sh"
it_on_exit 'tmux -L "smtop-zsh-$$" kill-server 2>/dev/null'
export XDG_CONFIG_HOME="$T/config" LC_ALL=C   # C: sort order of the expectations
BASHC="$SMTOP_SRC/tui/cmd/completion/smtop.bash"
ZSHC="$SMTOP_SRC/tui/cmd/completion/_smtop"
mkdir -p "$T/bin" "$T/jobs/job-a" "$T/jobs/job-b" "$T/out"
ln -s "$SMTOP" "$T/bin/smtop"
touch "$T/out/trace.json"

# --- bash ------------------------------------------------------------------
# Runs the checks in a fresh bash; $1 = 1 to load bash-completion first.
bash_checks() {
  PATH="$T/bin:$PATH" T="$T" BASHC="$BASHC" WITH_BC=$1 bash --norc --noprofile <<'EOF'
fails=0
if [ "$WITH_BC" = 1 ]; then
  # shellcheck disable=SC1091
  source /usr/share/bash-completion/bash_completion || { echo "FAIL: bash_completion"; exit 1; }
fi
source "$BASHC"
[ "$(complete -p smtop)" = "complete -F _smtop smtop" ] ||
  { echo "FAIL: complete -p smtop: $(complete -p smtop 2>&1)"; fails=$((fails + 1)); }
comp() {  # comp WORD... : COMPREPLY for the line with the cursor after the last word
  COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
  _smtop smtop "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
  printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}
want() {  # want "EXPECTED" WORD...
  local exp=$1; shift
  local got; got=$(comp "$@")
  [ "$got" = "$exp" ] || { echo "FAIL: [bc=$WITH_BC] '$*' -> '$got', want '$exp'"; fails=$((fails + 1)); }
}
want "report" smtop rep
want "diff" smtop di
want "--perfetto --profile" smtop export --p
want "--python-mode --python-node --python-phase --python-sort --python-steps" smtop report --py
want "--job --json" smtop diff --j
want "--no-traces --nodes" smtop synth --n
want "--theme" smtop --th
want "cpercall cumtime" smtop report --python-sort c
want "before" smtop report --python-phase b
want "ascii" smtop --symbols a
want "default high-contrast light monochrome" smtop --theme ""
want "StepOutlier.n_outliers= StepOutlier.stddev=" smtop --rule StepO
want "CPUBottleneck,LoadBalancing CPUBottleneck,LowGPUUtilization" smtop report --fail-on CPUBottleneck,Lo
want "$T/jobs/job-a $T/jobs/job-b" smtop "$T/jobs/j"
want "$T/jobs/job-a $T/jobs/job-b" smtop diff --json "$T/jobs/job-a" "$T/jobs/j"
want "$T/out/trace.json" smtop export --perfetto "$T/out/t"
want "$T/out" smtop synth --out "$T/ou"
want "" smtop synth --nodes ""                  # a number: nothing to offer
want "" smtop synth "$T/jo"                     # synth takes no SOURCE
if [ "$WITH_BC" = 1 ]; then                     # --opt=value needs _init_completion -s
  COMP_WORDBREAKS=${COMP_WORDBREAKS:-$' \t\n"\x27><=;|&(:'}
  want "$T/out" smtop synth --out="$T/ou"
  want "ascii" smtop --symbols=a
fi
# every option of every --help is offered after --
for cmd in "" report synth export diff; do
  help=$(smtop $cmd --help | grep -oE '^ {1,4}(-[a-zA-Z], )?--[a-z0-9-]+' | grep -oE -- '--[a-z0-9-]+' | sort | tr '\n' ' ' | sed 's/ $//')
  got=$(comp smtop $cmd --)
  [ "$got" = "$help" ] || { echo "FAIL: [bc=$WITH_BC] 'smtop $cmd --' -> '$got', help has '$help'"; fails=$((fails + 1)); }
done
exit $fails
EOF
}
bash_checks 0 || fail "bash completion without bash-completion (see above)"
if [ -f /usr/share/bash-completion/bash_completion ]; then
  bash_checks 1 || fail "bash completion with bash-completion (see above)"
else
  echo "note: bash-completion not installed; checked the fallback only"
fi

# --- every value offered is accepted ----------------------------------------
"$SMTOP" synth --out "$T/job" --minutes 1 --nodes 1 >/dev/null || fail "synth"
accepts() {  # accepts CMD... : exit status other than 2 (usage)
  "$@" >/dev/null 2>"$T/err" </dev/null
  [ $? -ne 2 ] || fail "'$*' rejected: $(cat "$T/err")"
}
mapfile -t rules < <("$SMTOP" --complete --fail-on)
[ ${#rules[@]} -ge 5 ] || fail "--complete --fail-on lists ${#rules[@]} rules"
all=$(IFS=,; echo "${rules[*]}")    # one run: an unknown name anywhere is exit 2
accepts "$SMTOP" report --no-rules-config --fail-on "$all" "$T/job"
mapfile -t params < <("$SMTOP" --complete --rule)
[ ${#params[@]} -ge 10 ] || fail "--complete --rule lists ${#params[@]} parameters"
args=()
for p in "${params[@]}"; do args+=(--rule "${p}1"); done
accepts "$SMTOP" report --no-rules-config "${args[@]}" "$T/job"
for v in $("$SMTOP" --complete --python-sort); do accepts "$SMTOP" report --python-sort "$v" "$T/job"; done
for v in $("$SMTOP" --complete --sort) $("$SMTOP" --complete --sort | sed 's/$/-/'); do
  "$SMTOP" jobs --sort "$v" --help >/dev/null 2>&1 || fail "smtop jobs --sort $v refused"
done
for v in $("$SMTOP" --complete --status); do
  "$SMTOP" jobs --status "$v" --help >/dev/null 2>&1 || fail "smtop jobs --status $v refused"
done
args=()
for v in $("$SMTOP" --complete --python-phase); do args+=(--python-phase "$v"); done
accepts "$SMTOP" report "${args[@]}" "$T/job"    # repeatable: one run checks all
for v in $("$SMTOP" --complete --symbols); do accepts "$SMTOP" --symbols "$v" --help; done
"$SMTOP" --complete --symbols | grep -qx braille || fail "--complete --symbols misses braille"
# a user theme file is offered by name
mkdir -p "$XDG_CONFIG_HOME/smtop/themes"
printf 'title = "#ff0000"\n' >"$XDG_CONFIG_HOME/smtop/themes/mine.theme"
"$SMTOP" --complete --theme | grep -qx mine || fail "user theme 'mine' not offered"
# a file name that would put an escape sequence on the terminal is not offered
printf 'title = "#ff0000"\n' >"$XDG_CONFIG_HOME/smtop/themes/$(printf 'evil\033[2J')x.theme"
printf 'title = "#ff0000"\n' >"$XDG_CONFIG_HOME/smtop/themes/two words.theme"
"$SMTOP" --complete --theme >"$T/themes"
grep -q $'\033' "$T/themes" && fail "--complete --theme printed an escape sequence"
grep -q 'two words' "$T/themes" && fail "--complete --theme offered a name with a blank"
grep -qx mine "$T/themes" || fail "the other themes are no longer offered"
[ -z "$("$SMTOP" --complete --nodes)" ] || fail "--complete of a numeric option printed values"
"$SMTOP" --complete >/dev/null 2>&1; [ $? -eq 2 ] || fail "--complete without OPTION is not a usage error"

# --- zsh, typed in a real shell ---------------------------------------------
if ! command -v zsh >/dev/null || ! command -v tmux >/dev/null; then
  echo "note: zsh or tmux not installed; zsh completion not checked"
  it_done
fi
mkdir -p "$T/zsh/fn"
cp "$ZSHC" "$T/zsh/fn/_smtop"
cat >"$T/zsh/.zshrc" <<EOF
fpath=("$T/zsh/fn" \$fpath)
PATH="$T/bin:\$PATH"
autoload -U compinit && compinit -u -d "$T/zsh/.zcompdump"
PS1='zsh%# '
EOF
Z="smtop-zsh-$$"
tz() { tmux -L "$Z" -f /dev/null "$@"; }
tz new-session -d -x 160 -y 40 "env ZDOTDIR=$T/zsh HOME=$T TERM=xterm zsh -i"
zwait() {  # zwait REGEX SECONDS: poll the screen
  local end=$((SECONDS + $2))
  while ((SECONDS < end)); do
    tz capture-pane -p | grep -Eq -- "$1" && return 0
    sleep 0.2
  done
  return 1
}
# (capture-pane drops trailing blanks: "zsh# smtop report " reads "zsh# smtop report")
zwait '^zsh#' 30 || fail "zsh prompt never came: $(tz capture-pane -p)"
ztab() {  # ztab TYPED REGEX: type, press Tab, the screen must match REGEX
  tz send-keys C-u C-l
  zwait '^zsh#$' 10
  tz send-keys -l "$1"
  tz send-keys Tab
  zwait "$2" 15 || fail "zsh: '$1<Tab>' never showed /$2/: $(tz capture-pane -p | grep -v '^$' | head -5)"
}
ztab "smtop rep" '^zsh# smtop report$'
ztab "smtop report --js" '^zsh# smtop report --json$'
ztab "smtop report --python-sort c" 'cpercall +cumtime'
ztab "smtop report --p" 'python-steps +-- only the windows'
ztab "smtop --th" '^zsh# smtop --theme$'
ztab "smtop --theme m" '^zsh# smtop --theme (mine|monochrome)|mine +monochrome'
ztab "smtop report --fail-on CPUBottleneck,Lo" 'LoadBalancing +LowGPUUtilization'
ztab "smtop --rule StepOutlier.s" 'smtop --rule StepOutlier.stddev=$'
ztab "smtop synth --out=$T/ou" "synth --out=$T/out/\$"
ztab "smtop diff $T/jobs/job-a $T/jobs/job-" 'job-a/ +job-b/'
it_done
