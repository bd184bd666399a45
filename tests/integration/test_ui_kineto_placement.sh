#!/bin/bash
# A trace writer named by tensorboard_trace_handler(worker_name=...) rather
# than HOST_PID (issue 32 point 6): algo-1_main.* goes on node algo-1, the
# longest `_`-separated prefix of its name that system metrics name, as
# its own writer. No phantom node: the header says "1 node" at 80x24,
# report --json lists one node, the export labels the rank with algo-1,
# and the Dataloader rule judges the node that has the CPUs. A name whose
# prefixes name no node keeps its own node; a HOST_PID name is unchanged.
source "$(dirname "$0")/ui_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
J=$UI_WORK/job
"$SMTOP" synth --shape main-loader --minutes 2 --seed 7 --out "$J" >/dev/null ||
    ui_fail "synth main-loader"
# one more writer named algo-1_my_loader (a longer custom name), and one
# named trainer_main whose prefixes are no node
python3 - "$J/tensorboard-output" <<'PY'
import os, shutil, sys
d = sys.argv[1]
first = sorted(f for f in os.listdir(d) if f.startswith("algo-1_main."))[0]
shutil.copy(os.path.join(d, first), os.path.join(d, first.replace("algo-1_main", "algo-1_my_loader")))
shutil.copy(os.path.join(d, first), os.path.join(d, first.replace("algo-1_main", "trainer_main")))
PY

"$SMTOP" report --json "$J" >"$UI_WORK/r.json" 2>"$UI_WORK/err" || ui_fail "report: $(cat "$UI_WORK/err")"
python3 - "$UI_WORK/r.json" <<'PY' || ui_fail "report --json placement"
import json, sys
d = json.load(open(sys.argv[1]))
nodes = sorted(n["id"] for n in d["nodes"])
assert nodes == ["algo-1", "trainer_main"], nodes
where = sorted((g["node"], g["process"]) for g in d["gpu"])
assert where == [("algo-1", "algo-1_main"), ("algo-1", "algo-1_my_loader"),
                 ("trainer_main", "trainer_main")], where
dl = next(r for r in d["rules"] if r["name"] == "Dataloader")
assert "needs CPU metrics" not in dl["details"]["message"], dl["details"]["message"]
print("ok:", where)
PY

# the export labels the ranks with the same nodes
"$SMTOP" export --perfetto "$UI_WORK/x.json" "$J" 2>"$UI_WORK/err" || ui_fail "export: $(cat "$UI_WORK/err")"
python3 - "$UI_WORK/x.json" <<'PY' || ui_fail "export placement"
import json, sys
ev = json.load(open(sys.argv[1]))
ev = ev["traceEvents"] if isinstance(ev, dict) else ev
labels = " ".join(str(e.get("args", {})) for e in ev if e.get("ph") == "M")
assert "algo-1_main" in labels, "no algo-1_main process"
assert "algo-1_main (algo-1_main)" not in labels and "node algo-1_main" not in labels, labels[:400]
PY

# the first screen: one node beside trainer_main's, none named algo-1_main
rm -f "$J/tensorboard-output"/trainer_main.*
ui_start 80 24 "$SMTOP" "$J"
ui_wait "$UI_FOLLOW" 30
ui_wait 'host-bound|GPU idle' 20
ui_screen | sed -n 1p | grep -q '| 1 node |' || ui_fail "header: $(ui_screen | sed -n 1p)"
ui_quit
echo PASS
