#!/usr/bin/env bash
# The first screen's verdict carries the PyTorch profiler findings (issues
# 25 and 26): a Kineto-only job whose GPU waits on the host says so in
# report --summary and report --json's verdict (the header prints the same
# verdict_format line), with its numbers; a GPU-bound job of the same shape
# does not say host-bound; with system metrics beside the traces, the
# traces' idle share leads with its cause, and the system metrics' share
# is told in its own words ("GPU < 10 % in N % of samples"): one idle
# figure on the line.
source "$(dirname "$0")/it_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }

"$SMTOP" synth --kineto --kineto-only --host-bound --nodes 1 --ranks 2 --minutes 3 --seed 4 \
    --out "$T/hb" >/dev/null || fail "synth host-bound"
"$SMTOP" synth --kineto --kineto-only --nodes 1 --ranks 2 --minutes 3 --seed 4 \
    --out "$T/ok" >/dev/null || fail "synth GPU-bound"
"$SMTOP" synth --kineto --host-bound --nodes 1 --ranks 2 --minutes 3 --seed 4 \
    --out "$T/both" >/dev/null || fail "synth both sources"
for j in hb ok both; do
  "$SMTOP" report --json "$T/$j" >"$T/$j.json" 2>"$T/err" || fail "report $j: $(cat "$T/err")"
done
"$SMTOP" report --summary "$T/hb" >"$T/hb.txt" 2>&1 || fail "report --summary"
grep -Eq '^verdict: +GPU idle [0-9]+ % of [0-9]+ traced steps: host[^;]* → bigger batch' "$T/hb.txt" ||
  fail "summary verdict of a host-bound Kineto job: $(grep verdict "$T/hb.txt")"
python3 - "$T" <<'PY' || fail "verdict findings"
import json, re, sys
d = sys.argv[1]
def v(j): return json.load(open(f"{d}/{j}.json"))["verdict"]
hb, ok, both = v("hb"), v("ok"), v("both")
k = [f for f in hb["findings"] if f["source"] == "kineto"]
assert k and k[0]["severity"] == "high" and k[0]["why"].startswith("host"), hb
assert k[0]["rule"] == "GPUIdleHostBound" and k[0]["cause"] and k[0]["fix"], hb
assert hb["findings"][0]["source"] == "kineto", hb          # the worst first
assert not any((f["why"] or "").startswith("host") for f in ok["findings"]), ok
src = [f["source"] for f in both["findings"]]
assert "kineto" in src and "idle_gpu" in src, both
assert src.index("kineto") < src.index("idle_gpu"), both      # the cause first
# one idle figure: the traces'; the system metrics in their own words
assert "GPU idle" in both["line"] and "GPU < 10 % in" in both["line"], both
assert len(set(re.findall(r"idle (\d+) %", both["line"]))) == 1, both["line"]
print("ok:", hb["line"], "|", ok["line"], "|", both["line"])
PY
it_done
