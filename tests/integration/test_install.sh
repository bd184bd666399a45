#!/usr/bin/env bash
# `cmake --install BUILD --prefix P` gives the GNUInstallDirs layout —
# bin/smtop, share/man/man1/smtop.1, share/smtop/themes/*.theme,
# share/smtop/report.schema.json and jobs.schema.json,
# share/bash-completion/completions/smtop,
# share/zsh/site-functions/_smtop — and the installed binary finds the
# themes of its own prefix (also after the prefix is moved), its bash
# completion loads through bash-completion's loader, zsh finds _smtop on
# fpath, and its reports validate against the installed schema.
set -o pipefail
: "${SMTOP:?}" "${SMTOP_SRC:?}" "${SMTOP_BUILD:?}"
source "$(dirname "$0")/it_lib.sh"
export XDG_CONFIG_HOME="$T/config"

P="$T/prefix"
cmake --install "$SMTOP_BUILD" --prefix "$P" >"$T/install.log" 2>&1 ||
  { echo "FAIL: cmake --install: $(tail -5 "$T/install.log")"; exit 1; }

[ -x "$P/bin/smtop" ] || fail "no executable bin/smtop"
want=(share/smtop/report.schema.json share/smtop/jobs.schema.json
      share/bash-completion/completions/smtop
      share/zsh/site-functions/_smtop share/doc/smtop/copyright)
if command -v scdoc >/dev/null; then
  want+=(share/man/man1/smtop.1)
else
  echo "note: scdoc not installed; the man page was not built, so not checked"
fi
for f in "${want[@]}"; do [ -s "$P/$f" ] || fail "missing $f"; done
for t in "$SMTOP_SRC"/themes/*.theme; do
  cmp -s "$t" "$P/share/smtop/themes/$(basename "$t")" || fail "theme $(basename "$t") not installed"
done
cmp -s "$SMTOP_SRC/tui/report/report.schema.json" "$P/share/smtop/report.schema.json" ||
  fail "installed schema differs from the source"
cmp -s "$SMTOP_SRC/tui/report/jobs.schema.json" "$P/share/smtop/jobs.schema.json" ||
  fail "installed jobs schema differs from the source"
cmp -s "$SMTOP_SRC/tui/cmd/completion/smtop.bash" "$P/share/bash-completion/completions/smtop" ||
  fail "installed bash completion differs"
"$P/bin/smtop" --version | grep -q '^smtop [0-9]' || fail "installed smtop --version"
# nothing outside the layout
(cd "$P" && find . -type f | sort) >"$T/files"
extra=$(grep -vE '^\./(bin/smtop|share/man/man1/smtop\.1|share/smtop/themes/[a-z-]+\.theme|share/smtop/(report|jobs)\.schema\.json|share/bash-completion/completions/smtop|share/zsh/site-functions/_smtop|share/doc/smtop/copyright)$' "$T/files")
[ -z "$extra" ] || fail "unexpected installed files: $extra"

# --- themes relative to the prefix -------------------------------------------
# A theme that exists only in the installed share/smtop/themes: the build
# tree's binary must not see it (else this check proves nothing), the
# installed one must, and still after the whole prefix moves.
printf '# only in the prefix\ntitle = "#ff0000"\n' >"$P/share/smtop/themes/prefix-only.theme"
"$SMTOP" --complete --theme | grep -qx prefix-only && fail "build binary sees the prefix's theme"
"$P/bin/smtop" --complete --theme | grep -qx prefix-only || fail "installed smtop misses its prefix's themes"
mv "$P" "$T/moved"
P="$T/moved"
"$P/bin/smtop" --complete --theme | grep -qx prefix-only || fail "moved prefix: themes not found"
for t in default light high-contrast monochrome; do
  "$P/bin/smtop" --complete --theme | grep -qx "$t" || fail "installed smtop does not list $t"
done
"$SMTOP" synth --out "$T/job" --nodes 1 --minutes 1 --no-traces >/dev/null || fail "synth"
if command -v script >/dev/null; then
  # the dashboard really loads the prefix-only theme (an unknown one exits 1)
  TERM=xterm script -qec "'$P/bin/smtop' --no-config --theme prefix-only --frames 1 '$T/job'" /dev/null \
    >"$T/dash.out" 2>&1 || fail "dashboard --theme prefix-only: $(tail -c 300 "$T/dash.out")"
  TERM=xterm script -qec "'$P/bin/smtop' --no-config --theme no-such --frames 1 '$T/job'" /dev/null \
    >"$T/dash.out" 2>&1 && fail "dashboard accepted an unknown theme"
  grep -q "theme 'no-such' not found" "$T/dash.out" || fail "unknown theme message: $(tail -c 300 "$T/dash.out")"
fi

# --- completions from their installed places --------------------------------
if [ -f /usr/share/bash-completion/bash_completion ]; then
  got=$(XDG_DATA_DIRS="$P/share" PATH="$P/bin:$PATH" bash --norc --noprofile -c '
    source /usr/share/bash-completion/bash_completion
    _completion_loader smtop 2>/dev/null || __load_completion smtop
    complete -p smtop')
  [ "$got" = "complete -F _smtop smtop" ] ||
    fail "bash-completion does not load the installed completion: '$got'"
fi
if command -v zsh >/dev/null; then
  got=$(zsh -f -c "fpath=('$P/share/zsh/site-functions' \$fpath)
    autoload -U compinit && compinit -u -d '$T/zcompdump' && print -r -- \$_comps[smtop]")
  [ "$got" = "_smtop" ] || fail "zsh compinit does not register the installed _smtop: '$got'"
fi

# --- reports validate against the installed schema ---------------------------
if python3 -c 'import jsonschema' 2>/dev/null; then
  "$P/bin/smtop" report --json "$T/job" >"$T/r.json" || fail "installed report"
  python3 "$SMTOP_SRC/tests/tools/validate_report.py" "$P/share/smtop/report.schema.json" \
    --kind report "$T/r.json" >/dev/null || fail "report does not match the installed schema"
fi
it_done
