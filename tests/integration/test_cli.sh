#!/usr/bin/env bash
# The command line across subcommands: `smtop help`, did-you-mean for a
# mistyped command, one exit-code rule (0 ok, 1 a source that cannot be
# read or an output not written, 2 a usage error), and one time zone for
# what report prints and --since reads (local, or UTC with --utc).
set -o pipefail
source "$(dirname "$0")/it_lib.sh"
tmp=$T

expect() {   # expect CODE PATTERN ARGS...: exit status and a line of output
    local want=$1 pat=$2; shift 2
    "$SMTOP" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"; local got=$?
    [ "$got" = "$want" ] || fail_now "smtop $* exited $got, want $want: $(cat "$tmp/err")"
    grep -q -- "$pat" "$tmp/out" "$tmp/err" ||
        fail_now "smtop $*: no '$pat' in: $(cat "$tmp/out" "$tmp/err")"
}

"$SMTOP" synth --out "$tmp/job" --nodes 2 --minutes 10 --start 1591747200 --seed 2 >/dev/null ||
    fail_now "synth"
touch "$tmp/afile"

# help
expect 0 "usage: smtop \[OPTIONS\] SOURCE" help
expect 0 "Dashboard options:" help
[ -s "$tmp/out" ] && [ ! -s "$tmp/err" ] || fail_now "smtop help must print to stdout only"
"$SMTOP" --help >"$tmp/h2"; cmp -s "$tmp/out" "$tmp/h2" || fail_now "smtop help differs from --help"
expect 0 "usage: smtop report" help report
expect 0 "usage: smtop export" help export
expect 2 "no command 'bogus'" help bogus
for o in --utc --demo --interval --frames --theme; do
    grep -q -- "$o" "$tmp/h2" || fail_now "smtop --help does not list $o"
done

# did you mean
expect 2 "'repotr' is not a command; did you mean \`report\`?" repotr "$tmp/job"
expect 2 "did you mean \`export\`?" exprot --perfetto "$tmp/x.json" "$tmp/job"
expect 2 "did you mean \`diff\`?" dif "$tmp/job" "$tmp/job"
expect 2 "did you mean \`synth\`?" snyth --out "$tmp/s"
expect 2 "did you mean \`help\`?" hepl
expect 2 "unknown command 'frobnicate' (commands: report, synth, export, diff, jobs, help)" \
    frobnicate "$tmp/job"
# a directory of that name is a SOURCE, not a typo
mkdir -p "$tmp/cwd/repotr"
(cd "$tmp/cwd" && "$SMTOP" repotr </dev/null >/dev/null 2>"$tmp/err"; echo $? >"$tmp/rc")
grep -q "did you mean" "$tmp/err" && fail_now "an existing directory was taken for a typo"
grep -q "needs a terminal" "$tmp/err" || fail_now "smtop repotr (a directory): $(cat "$tmp/err")"
[ "$(cat "$tmp/rc")" = 2 ] || fail_now "no terminal: exit $(cat "$tmp/rc"), want 2"

# usage errors: 2 in every command
expect 2 "unknown option --bogus" --bogus
expect 2 "unknown option --bogus" report --bogus "$tmp/job"
expect 2 "unknown option --bogus" export --bogus --perfetto "$tmp/x.json" "$tmp/job"
expect 2 "unknown option --bogus" diff --bogus "$tmp/job" "$tmp/job"
expect 2 "unknown option '--bogus'" synth --bogus
expect 2 "missing SOURCE" report
expect 2 "missing --perfetto" export "$tmp/job"
expect 2 "missing BASE and SOURCE" diff
expect 2 "no SOURCE given" --interval 5
expect 2 "bad time" report --since yesterday "$tmp/job"
expect 2 "bad time" export --perfetto "$tmp/x.json" --until 25:00 "$tmp/job"
expect 2 "only s3://bucket/prefix URLs" report http://example.com/job
expect 2 "only s3://bucket/prefix URLs" diff http://example.com/job "$tmp/job"
expect 2 "only s3://bucket/prefix URLs" export --perfetto "$tmp/x.json" http://example.com/job
expect 2 "only s3://bucket/prefix URLs" http://example.com/job

# a source that cannot be read: 1 in every command
expect 1 "No such file" report "$tmp/none"
expect 1 "No such file" export --perfetto "$tmp/x.json" "$tmp/none"
expect 1 "No such file" diff "$tmp/none" "$tmp/job"
expect 1 "does not exist, nor does" "$tmp/none/deeper"
expect 1 "is not a directory" report "$tmp/afile"
expect 1 "is not a directory" diff "$tmp/job" "$tmp/afile"
expect 1 "is not a directory" "$tmp/afile"
mkdir -p "$tmp/empty"
expect 1 "holds no profiler data" report "$tmp/empty"
expect 1 "holds no profiler data" diff "$tmp/empty" "$tmp/job"
expect 1 "holds no profiler data" export --perfetto "$tmp/x.json" "$tmp/empty"
expect 1 "holds no profiler data" --baseline "$tmp/empty" "$tmp/job"
echo "ok: help, did-you-mean, exit codes"

# one zone: report prints local time with its offset, --utc prints UTC,
# and --since reads the same zone (a Z or an offset names its own)
NY='EST5EDT,M3.2.0,M11.1.0'
range_in() {   # range_in TZ ARGS...: the report's time range line
    TZ=$1 "$SMTOP" report "${@:2}" "$tmp/job" >"$tmp/r.txt" || fail_now "report ${*:2}"
    grep '^time range:' "$tmp/r.txt"
}
range_in UTC0 | grep -q '^time range:   2020-06-10T00:00:00\.[0-9]*Z \.\. ' ||
    fail_now "report in UTC: $(range_in UTC0)"
range_in "$NY" | grep -q '^time range:   2020-06-09T20:00:00\.[0-9]*-04:00 \.\. ' ||
    fail_now "report in New York: $(range_in "$NY")"
range_in "$NY" --utc | grep -q '^time range:   2020-06-10T00:00:00\.[0-9]*Z \.\. ' ||
    fail_now "report --utc: $(range_in "$NY" --utc)"
start_of() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["time_range"]["start_us"])' "$1"; }
TZ=$NY "$SMTOP" report --json --since 2020-06-09T20:05:00 "$tmp/job" >"$tmp/a.json" || fail_now "since local"
TZ=$NY "$SMTOP" report --json --since 2020-06-10T00:05:00Z "$tmp/job" >"$tmp/b.json" || fail_now "since Z"
TZ=$NY "$SMTOP" report --json --utc --since 2020-06-10T00:05:00 "$tmp/job" >"$tmp/c.json" || fail_now "since --utc"
TZ=$NY "$SMTOP" report --json --since 2020-06-10T02:05:00+02:00 "$tmp/job" >"$tmp/d.json" || fail_now "since +02:00"
TZ=UTC0 "$SMTOP" report --json --since 1591747500 "$tmp/job" >"$tmp/e.json" || fail_now "since epoch"
"$SMTOP_SRC/tests/tools/schema_ok.sh" "$tmp"/[a-e].json || fail_now "a --since report does not match the schema"
# An event that overlaps --since is kept whole, so the range may start
# just before it; a zone read wrongly would be hours off.
s0=$(start_of "$tmp/a.json")
for f in a b c d e; do
    s=$(start_of "$tmp/$f.json")
    [ "$s" = "$s0" ] && [ "$s" -ge 1591747499000000 ] && [ "$s" -lt 1591747501000000 ] ||
        fail_now "--since ($f) gave start $s, want 2020-06-10T00:05:00Z (within 1 s)"
done
echo "ok: report and --since share one zone; --utc"
