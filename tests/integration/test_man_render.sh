#!/usr/bin/env bash
# The built man page (scdoc → $SMTOP_BUILD/smtop.1) renders with `man -l`
# without a groff warning, has the sections a man page needs, documents
# every option in the rendered text (none lost to markup) and keeps no raw
# scdoc markup.
set -o pipefail
: "${SMTOP:?}" "${SMTOP_SRC:?}" "${SMTOP_BUILD:?}"
source "$(dirname "$0")/it_lib.sh"
page="$SMTOP_BUILD/smtop.1"
if ! command -v scdoc >/dev/null || [ ! -f "$page" ]; then
  echo "SKIPPED: scdoc not installed, so the man page was not built (scripts/install-deps.sh)"
  exit 77
fi
command -v man >/dev/null || { echo "SKIPPED: man not installed (apt install man-db)"; exit 77; }

MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -l "$page" >"$T/page.txt" 2>"$T/warn.txt" ||
  fail "man -l exited $?"
[ -s "$T/warn.txt" ] && fail "man/groff warnings: $(head -5 "$T/warn.txt")"
for s in NAME SYNOPSIS DESCRIPTION OPTIONS KEYS FILES ENVIRONMENT "EXIT STATUS" EXAMPLES "SEE ALSO"; do
  grep -q "^$s\$" "$T/page.txt" || fail "no $s section"
done
head -1 "$T/page.txt" | grep -q '^smtop(1) ' || fail "header is not smtop(1): $(head -1 "$T/page.txt")"
for sub in "General options" Dashboard "smtop report" "smtop diff" "smtop export" "smtop synth" "Source options"; do
  grep -q "^   $sub\$" "$T/page.txt" || fail "no '$sub' subsection"
done
# every option defined in the source survives rendering, bold and whole
grep -oE '^\*--[a-z0-9-]+' "$SMTOP_SRC/tui/cmd/smtop.1.scd" | tr -d '*' | sort -u >"$T/opts"
[ "$(wc -l <"$T/opts")" -ge 40 ] || fail "only $(wc -l <"$T/opts") options found in the source"
while read -r o; do
  grep -qE -- "^ {7}$o( |,|\$)" "$T/page.txt" || fail "option $o not rendered as a definition"
done <"$T/opts"
raw=$(grep -nE '\*--|_SOURCE_|^#|\\fB' "$T/page.txt" | head -3)
[ -z "$raw" ] || fail "raw markup in the page: $raw"
# the facts a user looks up are there
for w in rules.conf smtop.conf XDG_CONFIG_HOME XDG_CACHE_HOME NO_COLOR TMPDIR AWS_PROFILE \
         AWS_ENDPOINT_URL report.schema.json schema_version "share/smtop/themes"; do
  grep -qF -- "$w" "$T/page.txt" || fail "page does not mention $w"
done
it_done
