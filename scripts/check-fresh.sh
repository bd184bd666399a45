#!/usr/bin/env bash
# Proves README line 1 on a machine that ran nothing before it: runs that
# line exactly as the README writes it (install-deps.sh without --test,
# configure, build, `./build/smtop --demo`) in a clean copy of the tree,
# with cmocka hidden from pkg-config, in a tmux pane so the demo draws on a
# real terminal; waits for the dashboard, quits it with q, and wants exit 0.
# Then runs the binary it built (--version, synth + report). Run by
# scripts/test.sh (after install-deps.sh --test: it needs root or sudo for
# line 1's install-deps.sh, and tmux); usable alone:
#   scripts/check-fresh.sh [COPY_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-$here/build-fresh}
work=$(mktemp -d "${TMPDIR:-/tmp}/smtop-fresh.XXXXXX")
sock="smtop-fresh-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "check-fresh: FAIL: $*" >&2; exit 1; }
command -v tmux >/dev/null || fail "needs tmux (scripts/install-deps.sh --test)"

# README line 1: the first indented line of the README.
line1=$(sed -n '/^    /{s/^    //;p;q}' "$here/README.md")
case $line1 in
    *install-deps.sh*cmake*smtop\ --demo) ;;
    *) fail "README line 1 is not the set-up command: '$line1'" ;;
esac

# A clean copy: what git tracks or would track (no build trees, no
# node_modules), as a fresh clone of this working tree would hold.
rm -rf "$dest"
mkdir -p "$dest"
if git -C "$here" rev-parse --git-dir >/dev/null 2>&1; then
    (cd "$here" && git ls-files -z --cached --others --exclude-standard) |
        tar -C "$here" --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -C "$dest" -xf -
else
    tar -C "$here" --exclude='./build*' --exclude=node_modules -cf - . | tar -C "$dest" -xf -
fi
[ -f "$dest/README.md" ] && [ ! -e "$dest/build" ] || fail "clean copy in $dest"

# A pkg-config search path holding every .pc file of this machine except
# cmocka.pc: what pkg-config sees where libcmocka-dev is not installed.
pcdir="$work/pkgconfig"
mkdir -p "$pcdir"
IFS=: read -r -a dirs <<<"$(pkg-config --variable pc_path pkg-config)"
for d in "${dirs[@]}"; do
    [ -d "$d" ] || continue
    for pc in "$d"/*.pc; do
        [ -e "$pc" ] || continue
        name=$(basename "$pc")
        [ "$name" = cmocka.pc ] || [ -e "$pcdir/$name" ] || ln -s "$pc" "$pcdir/$name"
    done
done
PKG_CONFIG_LIBDIR="$pcdir" PKG_CONFIG_PATH='' pkg-config --exists cmocka &&
    fail "cmocka still visible to pkg-config"

# Line 1 in a terminal. The pane keeps the whole build log in its history.
mkdir -p "$work/tmp"
printf 'set -g history-limit 100000\n' >"$work/tmux.conf"
printf '%s\n' "$line1" >"$work/line1.sh"
tm() { tmux -L "$sock" -f "$work/tmux.conf" "$@"; }
tm new-session -d -x 160 -y 50 -c "$dest" \
    "env PKG_CONFIG_LIBDIR='$pcdir' PKG_CONFIG_PATH= TMPDIR='$work/tmp' LANG=C.UTF-8 bash '$work/line1.sh'; echo FRESH_EXIT=\$?; sleep 600"
screen() { tm capture-pane -p; }
history() { tm capture-pane -p -S - -E -; }
show() { history | grep -v '^$' | tail -60 >&2; }

# The build may take minutes on a loaded machine: poll until the
# dashboard is up or line 1 has ended.
end=$((SECONDS + 1800))
until screen | grep -q 'FRESH_EXIT=' ||
      { screen | grep -q '^ smtop | .* | 4 nodes |' && screen | grep -q 'q quit'; }; do
    ((SECONDS < end)) || { show; fail "README line 1: no dashboard after 30 min"; }
    sleep 1
done
screen | grep -q 'FRESH_EXIT=' && { show; fail "README line 1 ended before the dashboard was up"; }
tm send-keys q
end=$((SECONDS + 30))
until screen | grep -q 'FRESH_EXIT='; do
    ((SECONDS < end)) || { show; fail "q did not end the demo"; }
    sleep 0.2
done
screen | grep -q 'FRESH_EXIT=0' || { show; fail "README line 1 did not exit 0"; }
history | grep -q "unit tests skipped, cmocka not found" ||
    { show; fail "no note saying how to enable the unit tests"; }
[ -z "$(ls -A "$work/tmp")" ] || fail "the demo left $(ls "$work/tmp") in TMPDIR"

smtop="$dest/build/smtop"
"$smtop" --version | grep -q '^smtop [0-9]' || fail "smtop --version"
"$smtop" synth --out "$work/job" --nodes 2 --minutes 2 --seed 3 >/dev/null || fail "smtop synth"
"$smtop" report "$work/job" >"$work/report.txt" || fail "smtop report"
grep -q 'algo-2' "$work/report.txt" || { cat "$work/report.txt"; fail "report lacks node algo-2"; }
echo "check-fresh: ok: README line 1 as written, cmocka hidden: built, demo drawn and quit; --version, synth + report work"
