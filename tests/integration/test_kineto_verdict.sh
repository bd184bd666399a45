#!/usr/bin/env bash
# The first screen's verdict carries the PyTorch profiler findings (issues
# 25 and 26): a Kineto-only job whose GPU waits on the host says so in
# report --summary and report --json's verdict (the header prints the same
# verdict_format line), with its numbers; a GPU-bound job of the same shape
# does not say host-bound; with system metrics beside the traces, both
# idle shares are told, the traces' cause first.
set -u
SMTOP=${SMTOP:-build/smtop}
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
T=$(mktemp -d /tmp/smtop_it_kverdict.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

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
grep -Eq '^verdict: +GPU idle [0-9]+ % \(host-bound: [0-9]+ % host wait\)' "$T/hb.txt" ||
  fail "summary verdict of a host-bound Kineto job: $(grep verdict "$T/hb.txt")"
python3 - "$T" <<'PY' || fail "verdict findings"
import json, sys
d = sys.argv[1]
def v(j): return json.load(open(f"{d}/{j}.json"))["verdict"]
hb, ok, both = v("hb"), v("ok"), v("both")
k = [f for f in hb["findings"] if f["source"] == "kineto"]
assert k and k[0]["severity"] == "high" and "host-bound" in k[0]["text"], hb
assert hb["findings"][0]["source"] == "kineto", hb          # the worst first
assert not any("host-bound" in f["text"] for f in ok["findings"]), ok
src = [f["source"] for f in both["findings"]]
assert "kineto" in src and "idle_gpu" in src, both
assert src.index("kineto") < src.index("idle_gpu"), both      # the cause first
assert "host-bound" in both["line"] and "GPU idle" in both["line"], both
print("ok:", hb["line"], "|", ok["line"], "|", both["line"])
PY
exit $((fails > 0))
