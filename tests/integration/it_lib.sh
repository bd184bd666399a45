# it_lib.sh: the opening the non-UI integration tests share (sourced by
# test_*.sh as `source "$(dirname "$0")/it_lib.sh"`; the UI tests have
# ui_lib.sh). It gives a test:
#   set -u, and SMTOP defaulting to build/smtop (ctest always sets it; a
#   test that insists on it checks `: "${SMTOP:?}"` before sourcing this);
#   $T, a fresh directory named after the script
#   (smtop_it_<name>.XXXXXX under $TMPDIR or /tmp), removed on exit
#   whatever happens;
#   it_on_exit CMD: runs CMD (a string, evaluated at exit, in the order
#   given) on exit before $T is removed, for what the test must stop (a
#   rig, a background process): a test does not set its own EXIT trap;
#   fail MSG: prints "FAIL: MSG" and counts it in $fails; the test goes on;
#   fail_now MSG: prints "FAIL: MSG" and exits 1 now;
#   die MSG: prints "FAIL: MSG" on stderr and exits 1 now;
#   it_check NAME CMD...: runs CMD; prints "ok   NAME", or "FAIL NAME"
#   and counts it in $fails;
#   it_done: exits 0 when nothing failed, 1 otherwise (prints nothing).
# The exit status of a test is never changed by the cleanup.
set -u
SMTOP=${SMTOP:-build/smtop}
IT_NAME=$(basename "$0" .sh)
IT_NAME=${IT_NAME#test_}
T=$(mktemp -d "${TMPDIR:-/tmp}/smtop_it_${IT_NAME}.XXXXXX") ||
    { echo "FAIL: mktemp -d for $IT_NAME"; exit 1; }
IT_ON_EXIT=()
it_on_exit() { IT_ON_EXIT+=("$*"); }
it_cleanup() {
    local it_cmd
    for it_cmd in ${IT_ON_EXIT[@]+"${IT_ON_EXIT[@]}"}; do eval "$it_cmd"; done
    rm -rf "$T"
}
trap it_cleanup EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
fail_now() { echo "FAIL: $*"; exit 1; }
die() { echo "FAIL: $*" >&2; exit 1; }
it_check() { if "${@:2}"; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi; }
it_done() { exit $((fails > 0)); }
