#!/usr/bin/env bash
# A PyTorch profiler trace is streamed from its file, never held whole
# (issue 25: a trace of GBs, peak RSS bounded): `report --json` on one
# plain trace of about 200 MB (synth --kineto-active 4000 with
# python_function events, made here and removed) peaks below a tenth of
# the trace's size (20 MB), which a read of the whole file cannot (it
# needs the file's bytes and more; 251 MB for this one when it did), and
# reads the trace (one rank, its steps). What stays per trace until its
# end is its events, logged as varints (gpu_trace.h); the whole report
# peaks at about 14 MB here, 26 MB with the fixed-width rows they
# replaced (40 bytes a GPU row, 32 a launch call or [memory] event, 16 a
# CPU op), so the bound catches their return. A sanitizer build's
# allocator keeps freed memory (ASan's quarantine): there the figure is
# printed, not judged.
source "$(dirname "$0")/it_lib.sh"

"$SMTOP" synth --out "$T/job" --kineto --kineto-only --kineto-plain --kineto-python \
    --nodes 1 --minutes 12 --kineto-active 4000 --kineto-every 6000 --seed 5 >/dev/null ||
    { echo "FAIL: synth"; exit 1; }
trace=$(find "$T/job" -name '*.pt.trace.json')
[ "$(printf '%s\n' "$trace" | wc -l)" = 1 ] || { echo "FAIL: synth made not one trace"; exit 1; }
size=$(stat -c %s "$trace")
[ "$size" -gt 150000000 ] || fail "the trace is only $size bytes"

# peak RSS (KB) of report --json, by getrusage of the child
rss=$(python3 - "$SMTOP" "$T/job" "$T/out.json" <<'PY'
import resource, subprocess, sys
with open(sys.argv[3], "wb") as out:
    rc = subprocess.call([sys.argv[1], "report", "--json", sys.argv[2]], stdout=out)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if rc == 0 else -1)
PY
)
[ "$rss" -gt 0 ] || fail "report --json failed"
echo "trace $((size / 1000000)) MB, report --json peak RSS $((rss / 1024)) MB"
python3 - "$T/out.json" <<'PY' || fail "the report does not hold the trace"
import json, sys
r = json.load(open(sys.argv[1]))
g = r["gpu"]
assert len(g) == 1 and g[0]["traces"] == 1, g
assert g[0]["steps"] >= 3000, g[0]["steps"]
assert not r["warnings"].get("unread"), r["warnings"]
PY
if [ -f "${SMTOP_BUILD:-/nonexistent}/CMakeCache.txt" ] &&
   grep -Eq '^SMTOP_(SANITIZE|TSAN):BOOL=ON' "$SMTOP_BUILD/CMakeCache.txt"; then
    echo "note: sanitizer build, the RSS bound is not judged"
elif [ "$rss" -gt 0 ] && [ $((rss * 1024)) -ge $((size / 10)) ]; then
    fail "peak RSS $((rss / 1024)) MB is not below a tenth of the trace's $((size / 1000000)) MB"
fi
[ $fails = 0 ] && echo "a $((size / 1000000)) MB trace read in $((rss / 1024)) MB"
it_done
