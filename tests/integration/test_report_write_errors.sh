#!/usr/bin/env bash
# `smtop report --json` writes each node's part as soon as it is built
# (tui/report/report_stream.h), so a reader can go away, or the disk fill
# up, in the middle of the report. Read to its end through a pipe the
# output is the same valid JSON as in a file; a reader that closes early
# or a write that fails ends smtop with status 1 and a message naming the
# reason, never a death by SIGPIPE (141) or a crash. Text mode too.
set -o pipefail
source "$(dirname "$0")/it_lib.sh"
tmp=$T

"$SMTOP" synth --out "$tmp/job" --nodes 8 --gpus 8 --cpus 32 --minutes 1 --ranks 2 \
  >/dev/null || die "synth"

"$SMTOP" report --json "$tmp/job" >"$tmp/file.json" || die "report to a file"
"$SMTOP" report --json "$tmp/job" | cat >"$tmp/pipe.json"
[ "${PIPESTATUS[0]}" = 0 ] || die "report into a pipe read to its end"
cmp -s "$tmp/file.json" "$tmp/pipe.json" || die "pipe and file outputs differ"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/pipe.json" \
  || die "not valid JSON"
# Four times what a pipe holds (64 KiB), so the early close below is
# always met by a write still to come.
size=$(stat -c %s "$tmp/file.json")
[ "$size" -gt 262144 ] || die "report of $size bytes is too small for the test"

# expect_write_error WHAT REASON STATUS: the status and stderr of the run
# just made (stderr in $tmp/err).
expect_write_error() {
  [ "$3" = 1 ] || die "$1: exit status $3, want 1 (141 = killed by SIGPIPE)"
  grep -q "^smtop report: writing the report: $2" "$tmp/err" \
    || die "$1: no message naming '$2': $(cat "$tmp/err")"
}

"$SMTOP" report --json "$tmp/job" 2>"$tmp/err" | head -c 100 >/dev/null
expect_write_error "reader closing after 100 bytes" "Broken pipe" "${PIPESTATUS[0]}"

"$SMTOP" report "$tmp/job" 2>"$tmp/err" | head -c 100 >/dev/null
expect_write_error "text report, reader closing early" "Broken pipe" "${PIPESTATUS[0]}"

if [ -w /dev/full ]; then
  "$SMTOP" report --json "$tmp/job" >/dev/full 2>"$tmp/err"
  expect_write_error "--json on a full disk" "No space left on device" $?
  # A rule named by --fail-on that fired (status 3) does not hide the failure.
  "$SMTOP" report --json --fail-on Dataloader "$tmp/job" >/dev/null
  [ $? = 3 ] || die "Dataloader does not fire on the synthetic job: the next check means nothing"
  "$SMTOP" report --json --fail-on Dataloader "$tmp/job" >/dev/full 2>"$tmp/err"
  expect_write_error "--json --fail-on on a full disk" "No space left on device" $?
  "$SMTOP" report --summary "$tmp/job" >/dev/full 2>"$tmp/err"
  expect_write_error "--summary on a full disk" "No space left on device" $?
fi
echo "report write errors: ok"
