#!/usr/bin/env bash
# Trace files in any JSON layout (issue 10): `smtop report` on one large
# framework trace file written one event per line (the fast path), the
# whole array on one line, and pretty-printed (the streamed fallback), at
# two sizes, beside Python's json.load of the same file (what smdebug does).
# Shows the fallback's cost against the line path, and that memory does not
# grow with the file: the streamed element is bounded and the scanner reads
# a line file in chunks of SCAN_READ_CHUNK (16 MB), so a 200 MB file costs
# the RSS of a 20 MB one. BASE (optional) is a baseline binary measured the
# same way in the same run (e.g. one built from the commit before a change).
#
#   SMTOP=build/smtop [BASE=../base/build/smtop] tests/bench/bench_layouts.sh
#   (REPS=3, SIZES="20 200" MB)
set -eu
SMTOP=${SMTOP:-build/smtop}
REPS=${REPS:-3}
SIZES=${SIZES:-20 200}
BASE=${BASE:-}
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "bench_layouts: $TIME not found (apt-get install time)" >&2; exit 1; }
[ -x "$SMTOP" ] || { echo "bench_layouts: build first or set SMTOP" >&2; exit 1; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/smtop_layouts.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# gen MB LAYOUT DIR: one trace file of about MB megabytes, 2 phases
gen() {
    python3 - "$1" "$2" "$3" <<'PY'
import json, os, sys
mb, layout, root = int(sys.argv[1]), sys.argv[2], sys.argv[3]
base = 1591748100000000
d = os.path.join(root, "framework/pevents/2020061000")
os.makedirs(d, exist_ok=True)
ev = [{"name": "process_name", "ph": "M", "pid": 0,
       "args": {"start_time_since_epoch_in_micros": base}},
      {"name": "process_name", "ph": "M", "pid": 1, "args": {"name": "Step:ModeKeys.TRAIN"}},
      {"name": "process_name", "ph": "M", "pid": 2, "args": {"name": "Forward"}}]
n = mb * 1024 * 1024 // 118
for i in range(n):
    ev.append({"name": "Step", "ph": "X", "ts": i * 1000, "dur": 900 + i % 97,
               "pid": 1 + i % 2, "tid": 7, "args": {"step_num": str(i)}})
path = os.path.join(d, f"{base + n * 1000}_1-algo-1_pythontimeline.json")
with open(path, "w") as f:
    if layout == "lines":
        f.write("[\n" + ",\n".join(json.dumps(e) for e in ev) + "\n]\n")
    elif layout == "oneline":
        json.dump(ev, f)
    else:
        json.dump(ev, f, indent=2)
print(path)
PY
}

measure() { # NAME CMD...: REPS runs → "median_wall_s rss_kb_of_that_run"
    local name=$1
    shift
    : >"$TMP/$name.runs"
    for _ in $(seq "$REPS"); do
        $TIME -f "%e %M" -o "$TMP/$name.one" "$@" >/dev/null 2>"$TMP/$name.err" ||
            { echo "'$*' failed: $(head -c 300 "$TMP/$name.err")" >&2; exit 1; }
        tail -n 1 "$TMP/$name.one" >>"$TMP/$name.runs"
    done
    sort -n "$TMP/$name.runs" | awk -v m=$(((REPS + 1) / 2)) 'NR == m {print $1, $2}' >"$TMP/$name.res"
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs; median of $REPS runs"
printf '%-9s %-8s %9s %9s %12s %12s %12s %12s %12s\n' size layout file_MB steps smtop_s smtop_RSS_MB \
    base_s base_RSS_MB py_RSS_MB
for mb in $SIZES; do
    for layout in lines oneline pretty; do
        f=$(gen "$mb" "$layout" "$TMP/$mb-$layout")
        steps=$("$SMTOP" report --json "$TMP/$mb-$layout" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(sum(s["count"] for s in r["steps"]), r["warnings"]["corrupt_lines"] + r["warnings"]["partial_lines"])')
        measure "s-$mb-$layout" "$SMTOP" report --json "$TMP/$mb-$layout"
        measure "p-$mb-$layout" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$f"
        if [ -n "$BASE" ]; then
            measure "b-$mb-$layout" "$BASE" report --json "$TMP/$mb-$layout"
        else
            echo "- 0" >"$TMP/b-$mb-$layout.res"
        fi
        printf '%-9s %-8s %9.0f %9s %12s %12.1f %12s %12.1f %12.1f\n' "${mb}MB" "$layout" \
            "$(($(stat -c %s "$f") / 1000000))" "${steps% *}" \
            "$(cut -d' ' -f1 "$TMP/s-$mb-$layout.res")" \
            "$(awk '{print $2 / 1024}' "$TMP/s-$mb-$layout.res")" \
            "$(cut -d' ' -f1 "$TMP/b-$mb-$layout.res")" \
            "$(awk '{print $2 / 1024}' "$TMP/b-$mb-$layout.res")" \
            "$(awk '{print $2 / 1024}' "$TMP/p-$mb-$layout.res")"
        [ "${steps#* }" = 0 ] || echo "  ($layout: ${steps#* } corrupt/partial lines)"
        rm -rf "$TMP/$mb-$layout"
    done
done
