#!/usr/bin/env bash
# report --since/--until window the PyTorch profiler figures too (issue
# 32 point 5): gpu[] (breakdown, kernel types, launches, top tables,
# critical path, idle causes), the Kineto rules and the verdict count the
# profiler steps that overlap the window, as steps[] keeps its events.
# - a window holding the whole job: gpu[] byte for byte the whole job's;
# - a window inside it: fewer steps on every rank, the critical path over
#   the same steps, the verdict's "GPU idle N %" the window's;
# - split at any time S: --until S and --since S add up to the whole job,
#   but for the one analysed window S cuts, which both keep (the excess is
#   at most one window's, zero when S cuts none);
# - the same on a real H100 trace from the shared samples (skipped, and
#   said, without them).
source "$(dirname "$0")/it_lib.sh"
SAMPLES=${SMTOP_SAMPLES:-}
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }

rep() {   # rep OUT DIR [ARGS...]: report --json, exit status checked
    local out=$1 dir=$2
    shift 2
    "$SMTOP" report --json "$@" "$dir" >"$out" 2>"$T/err" || fail "report $*: $(cat "$T/err")"
}

# check DIR: the three properties above on the job in DIR
check() {
    local dir=$1 tag=$2
    rep "$T/$tag-all.json" "$dir"
    read -r t0 t1 < <(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["time_range"]
print(r["start_us"], r["end_us"])' "$T/$tag-all.json")
    local span=$((t1 - t0))
    # epoch seconds with 6 decimals, as --since reads them
    sec() { python3 -c "import sys; print('%.6f' % (int(sys.argv[1]) / 1e6))" "$1"; }
    rep "$T/$tag-wide.json" "$dir" --since "$(sec $((t0 - 60000000)))" --until "$(sec $((t1 + 60000000)))"
    local a=$((t0 + span * 3 / 10)) b=$((t0 + span * 7 / 10))
    rep "$T/$tag-in.json" "$dir" --since "$(sec $a)" --until "$(sec $b)"
    rep "$T/$tag-lo.json" "$dir" --until "$(sec $a)"
    rep "$T/$tag-hi.json" "$dir" --since "$(sec $a)"
    "$SMTOP" report --since "$(sec $a)" --until "$(sec $b)" "$dir" >"$T/$tag-in.txt" 2>/dev/null ||
        fail "$tag: text report"
    python3 - "$T/$tag-in.json" "$T/$tag-in.txt" <<'PY' || fail "$tag: the text report's GPU rows"
import json, sys
r = json.load(open(sys.argv[1])); txt = open(sys.argv[2]).read().splitlines()
for g in r["gpu"]:
    # "%-16.16s %-10.10s %6.0f %6.0f": node, process, traces, steps
    row = [l for l in txt if l[:16].rstrip() == g["node"][:16] and l[17:27].rstrip() == g["process"][:10]]
    if not row or int(row[0][35:41]) != g["steps"]:
        sys.exit(f"FAIL: {g['process']}: the text says {row[:1]}, the JSON {g['steps']} steps")
PY
    python3 - "$T/$tag" <<'PY' || fail "$tag: the windowed GPU figures"
import json, sys
p = sys.argv[1]
ld = lambda k: json.load(open(f"{p}-{k}.json"))
whole, wide, inner, lo, hi = (ld(k) for k in ("all", "wide", "in", "lo", "hi"))
assert whole["gpu"], "no gpu[] rows"
if wide["gpu"] != whole["gpu"]:
    sys.exit("FAIL: a window holding the whole job changes gpu[]")
for w, x in zip(inner["gpu"], whole["gpu"]):
    assert (w["node"], w["process"]) == (x["node"], x["process"])
    if not 0 < w["steps"] < x["steps"]:
        sys.exit(f"FAIL: {w['process']}: {w['steps']} steps in the window of {x['steps']}")
    if w["critical_path"]["steps"] + w["critical_path"]["failed_steps"] != w["steps"]:
        sys.exit(f"FAIL: {w['process']}: the critical path is not over the window's steps")
    if w["launch"]["count"] >= x["launch"]["count"] or w["span_us"] >= x["span_us"]:
        sys.exit(f"FAIL: {w['process']}: launches or span not windowed")
    if w["top_kernels"] and w["top_kernels"][0]["count"] > x["top_kernels"][0]["count"]:
        sys.exit(f"FAIL: {w['process']}: top kernel count not windowed")
# split at a: the one step a cuts is in both halves, nothing else
ADD = ["steps", "span_us", "idle_us", "compute_us"]
for l, h, x in zip(lo["gpu"], hi["gpu"], whole["gpu"]):
    extra = {k: l[k] + h[k] - x[k] for k in ADD}
    extra["launches"] = l["launch"]["count"] + h["launch"]["count"] - x["launch"]["count"]
    # the analysed window a cuts (a step, or a trace with no step left
    # after HTA's cut) is one step long or so
    one = 1.5 * x["span_us"] / max(x["steps"], 1)
    if extra["steps"] not in (0, 1) or any(v < 0 for v in extra.values()) or \
            extra["span_us"] > one or (extra["steps"] == 1 and extra["span_us"] == 0):
        sys.exit(f"FAIL: {x['process']}: --until/--since halves do not add up: {extra}")
# the verdict reads the same windowed figures
def idle(r):
    g = [x for x in r["gpu"] if x["has_gpu"]]
    return 100.0 * sum(x["idle_us"] for x in g) / sum(x["span_us"] for x in g)
line = inner["verdict"]["line"]
if "GPU idle" in line and f"GPU idle {idle(inner):.0f} %" not in line:
    sys.exit(f"FAIL: the verdict {line!r} is not the window's idle {idle(inner):.1f} %")
print(f"{p.rsplit('/', 1)[1]}: steps " +
      ", ".join(f"{w['steps']}/{x['steps']}" for w, x in zip(inner["gpu"], whole["gpu"])) +
      f" in the middle 40 %; idle {idle(inner):.1f} % there, {idle(whole):.1f} % whole")
PY
}

"$SMTOP" synth --shape host-bound --minutes 3 --seed 5 --start 1700000000 --out "$T/hb" >/dev/null ||
    fail "synth host-bound"
check "$T/hb" hb
if [ -n "$SAMPLES" ] && [ -d "$SAMPLES/kineto/df_index_resolver" ]; then
    check "$SAMPLES/kineto/df_index_resolver" real
else
    echo "SKIPPED (sample): ../shared/samples/kineto not found; synthetic job only"
fi
[ $fails -eq 0 ] && echo "report --since/--until: the GPU figures follow the window"
it_done
