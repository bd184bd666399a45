#!/usr/bin/env bash
# `smtop export --perfetto FILE` never deletes or clobbers an existing FILE
# when it fails (unreadable source, a --steps that matches nothing, a
# directory it cannot write), leaves no temporary file behind, and on
# success replaces FILE whole, keeping the mode an existing FILE had.
set -o pipefail
source "$(dirname "$0")/it_lib.sh"
tmp=$T
it_on_exit 'chmod -R u+w "$tmp"'

"$SMTOP" synth --out "$tmp/job" --nodes 2 --minutes 2 --seed 4 >/dev/null || die synth
mkdir "$tmp/out"
out="$tmp/out/trace.json"
echo 'precious earlier export' >"$out"
chmod 640 "$out"
only_out() { [ "$(ls -A "$tmp/out")" = "trace.json" ] || die "left in out/: $(ls -A "$tmp/out")"; }
intact() { [ "$(cat "$out")" = 'precious earlier export' ] || die "$1: FILE was changed or removed"; only_out; }

"$SMTOP" export --perfetto "$out" "$tmp/no-such-job" 2>"$tmp/err"
[ $? = 1 ] || die "unreadable source must exit 1"
intact "unreadable source"
grep -q "No such file" "$tmp/err" || die "message: $(cat "$tmp/err")"

"$SMTOP" export --perfetto "$out" --steps 900000:900001 "$tmp/job" 2>"$tmp/err"
[ $? = 2 ] || die "--steps matching nothing must exit 2: $(cat "$tmp/err")"
intact "--steps matching nothing"

"$SMTOP" export --perfetto "$tmp/nodir/trace.json" "$tmp/job" 2>"$tmp/err"
[ $? = 1 ] || die "missing output directory must exit 1"
grep -q "cannot write $tmp/nodir/trace.json" "$tmp/err" || die "message: $(cat "$tmp/err")"

if [ "$(id -u)" != 0 ]; then   # root writes anywhere
    chmod a-w "$tmp/out"
    "$SMTOP" export --perfetto "$out" "$tmp/job" 2>"$tmp/err"
    [ $? = 1 ] || die "read-only directory must exit 1"
    intact "read-only directory"
    chmod u+w "$tmp/out"
fi

"$SMTOP" export --perfetto "$out" "$tmp/job" 2>"$tmp/err" || die "export: $(cat "$tmp/err")"
only_out
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["traceEvents"]) > 1000' "$out" ||
    die "the new FILE is not a whole trace"
[ "$(stat -c %a "$out")" = 640 ] || die "mode of the replaced FILE: $(stat -c %a "$out"), want 640"

rm "$out"
(umask 027 && "$SMTOP" export --perfetto "$out" "$tmp/job" 2>/dev/null) || die "export to a new FILE"
[ "$(stat -c %a "$out")" = 640 ] || die "new FILE mode $(stat -c %a "$out"), want 640 (umask 027)"
only_out

# through a symlink: the file it points to is replaced, the link stays
ln -s "$out" "$tmp/link.json"
"$SMTOP" export --perfetto "$tmp/link.json" --no-system "$tmp/job" 2>/dev/null || die "export via a link"
[ -L "$tmp/link.json" ] || die "the symlink was replaced by a file"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert not any(e.get("ph") == "C" for e in d["traceEvents"])' "$out" ||
    die "the link's target was not rewritten"
only_out
echo "export atomic ok"
