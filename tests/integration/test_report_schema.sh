#!/usr/bin/env bash
# Every shape of `smtop report --json` and `smtop diff --json` that the suite
# makes validates against tui/report/report.schema.json (draft 2020-12, with
# Debian's python3-jsonschema): system-only, traces, flat layout, several
# nodes and GPUs, pyinstrument and cProfile stats, rule scenarios with
# SageMaker's verdicts and an unreadable rule file, corrupt and truncated
# input, an empty time window, report options, and diffs between them. The
# schema must also reject drift (an unknown key, a missing one, a wrong type),
# or this test could not fail. Shared samples: test_report_schema_samples.sh.
set -o pipefail
: "${SMTOP:?}" "${SMTOP_SRC:?}"
source "$(dirname "$0")/it_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
python3 -c 'import jsonschema' 2>/dev/null ||
  { echo "SKIPPED: python3-jsonschema not installed (scripts/install-deps.sh --test)"; exit 77; }
export XDG_CONFIG_HOME="$T/config"        # no user rules.conf or smtop.conf
SCHEMA="$SMTOP_SRC/tui/report/report.schema.json"
VALIDATE="$SMTOP_SRC/tests/tools/validate_report.py"

# --- jobs of every shape ---------------------------------------------------
synth() { "$SMTOP" synth --out "$T/$1" "${@:2}" >/dev/null 2>"$T/err" ||
            fail "synth $1: $(cat "$T/err")"; }
synth sys --nodes 2 --minutes 2 --no-traces
synth traces --nodes 3 --gpus 2 --cpus 2 --minutes 2 --slow-node 1
synth flat --nodes 1 --minutes 2 --flat --interval-ms 1000
synth py --nodes 2 --minutes 3 --python-stats 5
synth py2 --nodes 2 --minutes 3 --python-stats 5 --seed 2 --step-ms 150
synth kin --shape gloo --minutes 2
python3 "$SMTOP_SRC/tests/tools/pystats_fixture.py" cprofile "$T/cprof/profiler-output" ||
  fail "cProfile fixture"
python3 "$SMTOP_SRC/tests/tools/pystats_fixture.py" pyinstrument "$T/pyi" || fail "pyinstrument fixture"
scen="$SMTOP_SRC/tests/integration/make_rule_scenario.py"
python3 "$scen" "$T/rule_cpu" cpu_fire --profiler-report || fail "rule scenario cpu_fire"
python3 "$scen" "$T/rule_steps" steps_fire || fail "rule scenario steps_fire"
python3 "$scen" "$T/rule_balance" balance_fire || fail "rule scenario balance_fire"
# corrupt: a garbage line in one system file, another file cut mid-line
cp -r "$T/traces" "$T/corrupt"
mapfile -t sysf < <(find "$T/corrupt" -path '*system*' -name '*.json' | sort)
printf '{"Type": "cpu", garbage\n' >>"${sysf[0]}"
head -c 333 "${sysf[1]}" >"$T/cut" && mv "$T/cut" "${sysf[1]}"

# --- reports ---------------------------------------------------------------
n=0
reports=() diffs=()
report() {  # report NAME ARGS... (exit 0, or 3 when --fail-on fired)
  n=$((n + 1))
  local out="$T/r$n-$1.json"; shift
  "$SMTOP" report --json "$@" >"$out" 2>"$T/err"
  local rc=$?
  if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then fail "report $*: exit $rc: $(cat "$T/err")"; return; fi
  reports+=("$out")
}
diff_() {
  n=$((n + 1))
  local out="$T/d$n-$1.json"; shift
  "$SMTOP" diff --json "$@" >"$out" 2>"$T/err" || { fail "diff $*: $(cat "$T/err")"; return; }
  diffs+=("$out")
}
for j in sys traces flat py cprof pyi rule_cpu rule_steps rule_balance corrupt; do
  report "$j" "$T/$j"
done
report cprof-sorted --python-sort cumtime --top 3 --python-node algo-1 "$T/cprof"
report cprof-phase --python-phase before --python-steps 0:5 "$T/cprof"
report empty-window --since 4000000000 "$T/traces"
report rule-override --rule StepOutlier.stddev=1 --fail-on StepOutlier "$T/rule_steps"
report profiler-output "$T/rule_cpu/profiler-output"
report kineto-gloo "$T/kin"

diff_ sys-traces "$T/sys" "$T/traces"
diff_ traces-py "$T/traces" "$T/py"
diff_ py-py2 "$T/py" "$T/py2"
diff_ cprof-self "$T/cprof" "$T/cprof"
diff_ rules "$T/rule_steps" "$T/rule_cpu"
diff_ corrupt "$T/traces" "$T/corrupt"

python3 "$VALIDATE" "$SCHEMA" --kind report "${reports[@]}" || fail "a report does not match the schema"
python3 "$VALIDATE" "$SCHEMA" --kind diff "${diffs[@]}" || fail "a diff does not match the schema"
python3 "$VALIDATE" "$SCHEMA" "${reports[@]}" "${diffs[@]}" >/dev/null ||
  fail "the schema's top level does not tell reports from diffs"

# The optional branches of the schema were really exercised.
python3 - "${reports[@]}" -- "${diffs[@]}" <<'PY' || fail "the fixtures miss a shape"
import json, sys
args = sys.argv[1:]
cut = args.index("--")
reps = [json.load(open(f)) for f in args[:cut]]
diffs = [json.load(open(f)) for f in args[cut + 1:]]
def some(what, cond, docs):
    assert any(cond(d) for d in docs), "no fixture has " + what
some("python: null", lambda r: r["python"] is None, reps)
some("pyinstrument", lambda r: (r["python"] or {}).get("profiler") == "pyinstrument", reps)
some("cProfile", lambda r: (r["python"] or {}).get("profiler") == "cprofile", reps)
some("a failed pyinstrument session",
     lambda r: any(w["failed"] for w in (r["python"] or {}).get("windows", [])), reps)
some("job phases without steps", lambda r: not r["job_phases"]["has_steps"], reps)
some("job phases with steps", lambda r: r["job_phases"]["has_steps"], reps)
some("SageMaker verdicts", lambda r: any("sagemaker" in x for x in r["rules"]), reps)
some("rule_output_errors", lambda r: "rule_output_errors" in r, reps)
some("a triggered rule", lambda r: any(x["status"] == "triggered" for x in r["rules"]), reps)
some("warning messages", lambda r: r["warnings"]["messages"] and r["warnings"]["corrupt_lines"], reps)
some("GPU device usage", lambda r: any(u["kind"] == "gpu" for u in r["device_usage"]), reps)
some("no data at all", lambda r: not r["nodes"] and r["time_range"]["start_us"] == 0, reps)
some("a fired rule's cause and fix", lambda r: any(x["cause"] and x["fix"] for x in r["rules"]), reps)
some("a finding's why and knob", lambda r: any(f["why"] and f["knob"] and f["rule"]
                                               for f in (r.get("verdict") or {}).get("findings", [])), reps)
some("a rank's backend", lambda r: any(g["backend"] for g in r["gpu"]), reps)
for sec in ("steps", "utilization", "breakdown", "python"):
    some("diff rows in " + sec, lambda d: d[sec], diffs)
some("a diff with changes", lambda d: d["changed"] > 0, diffs)
some("an identical diff", lambda d: d["changed"] == 0 and d["python"], diffs)
print(f"{len(reps)} reports and {len(diffs)} diffs cover every optional shape")
PY

# --- the schema rejects drift: else this test could not fail ---------------
# reports[3] is `py` (pyinstrument stats), reports[4] `cprof` (cProfile),
# diffs[2] `py-py2` (rows in every section)
python3 - "$T/drift" "${reports[3]}" "${diffs[2]}" "${reports[4]}" <<'PY' || fail "writing drifted documents"
import copy, json, os, sys
out, rep, dif = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
cpr = json.load(open(sys.argv[4]))
assert rep["python"]["profiler"] == "pyinstrument" and cpr["python"]["profiler"] == "cprofile"
os.makedirs(out)
assert rep["nodes"][0]["metrics"][0]["unit"] == "pct", rep["nodes"][0]["metrics"][0]
def metric(d):
    return d["nodes"][0]["metrics"][0]
def usage(d):
    r = [x for x in d["rules"] if x["name"] == "OverallSystemUsage"][0]
    return r["details"]["nodes"][0]["metrics"][0]
def first_example(d):
    # StopIteration (a failed test) if the report has no rule example at all
    return next(e for r in d["rules"] for e in (r.get("details") or {}).get("examples", []))
def unitless(e):
    key = next(k for k in e if k not in ("node", "device", "start_us", "end_us", "text"))
    e["value"] = e.pop(key)
muts = {
    "unknown-top-key": (rep, lambda d: d.update(extra=1)),
    "no-schema-version": (rep, lambda d: d.pop("schema_version")),
    "newer-schema-version": (rep, lambda d: d.update(schema_version=6)),
    "schema-version-4": (rep, lambda d: d.update(schema_version=4)),
    "rule-without-fix": (rep, lambda d: d["rules"][0].pop("fix")),
    "finding-without-cause": (rep, lambda d: d["verdict"]["findings"][0].pop("cause")
                              if d["verdict"]["findings"] else d["verdict"].update(extra=1)),
    "idle-cause-bad-kind": (rep, lambda d: d.update(gpu=[{"idle_causes": [{"kind": "io"}]}])),
    "older-schema-version": (rep, lambda d: d.update(schema_version=1)),
    "schema-version-2": (rep, lambda d: d.update(schema_version=2)),
    "node-cpus-string": (rep, lambda d: d["nodes"][0].update(cpus="4")),
    "metric-lost-p95": (rep, lambda d: d["nodes"][0]["metrics"][0].pop("p95_pct")),
    "metric-unitless": (rep, lambda d: metric(d).update(p50=metric(d).pop("p50_pct"))),
    "metric-other-unit": (rep, lambda d: metric(d).update(p50_mb_per_s=metric(d).pop("p50_pct"))),
    "metric-unknown-unit": (rep, lambda d: metric(d).update(unit="percent")),
    "metric-abs-unitless": (rep, lambda d: metric(d)["percentile_error"].update(
        abs=metric(d)["percentile_error"].pop("abs_pct"))),
    "step-abs-in-pct": (rep, lambda d: d["steps"][0]["percentile_error"].update(
        abs_pct=d["steps"][0]["percentile_error"].pop("abs_us"))),
    "usage-metric-unitless": (rep, lambda d: usage(d).update(max=usage(d).pop("max_pct"))),
    "step-new-key": (rep, lambda d: d["steps"][0].update(unit="us")),
    "rule-bad-status": (rep, lambda d: d["rules"][0].update(status="fired")),
    "cprofile-ncalls-null": (cpr, lambda d: d["python"]["top"][0].update(ncalls=None)),
    "pyinstrument-ncalls-zero": (rep, lambda d: d["python"]["top"][0].update(ncalls=0)),
    "pyinstrument-total-calls-zero": (rep, lambda d: d["python"].update(total_calls=0)),
    "phases-half-null": (rep, lambda d: d["job_phases"].update(init_us=None)),
    "diff-row-new-key": (dif, lambda d: d["steps"][0].update(unit="us")),
    "diff-row-unitless": (dif, lambda d: d["steps"][0].update(base=d["steps"][0].pop("base_us"))),
    "diff-util-in-us": (dif, lambda d: d["utilization"][0].update(base_us=d["utilization"][0].pop("base_pct"))),
    "diff-bad-metric": (dif, lambda d: d["utilization"][0].update(metric="gpu")),
    "example-value-unitless": (rep, lambda d: unitless(first_example(d))),
    "example-two-values": (rep, lambda d: first_example(d).update(duration_us=1.0, gpu_pct=1.0)),
    "diff-lost-changed": (dif, lambda d: d.pop("changed")),
}
for name, (doc, f) in muts.items():
    d = copy.deepcopy(doc)
    f(d)
    json.dump(d, open(os.path.join(out, name + ".json"), "w"))
PY
for f in "$T"/drift/*.json; do
  if python3 "$VALIDATE" "$SCHEMA" "$f" >"$T/v" 2>&1; then
    fail "schema accepts drifted $(basename "$f")"
  elif ! grep -q "$(basename "$f"):" "$T/v"; then
    fail "no located error for $(basename "$f"): $(cat "$T/v")"
  fi
done

# The version the binary writes is the one the schema pins.
want=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["$defs"]["schema_version"]["const"])' "$SCHEMA")
got=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["schema_version"])' "${reports[0]}")
[ "$want" = "$got" ] || fail "binary writes schema_version $got, schema pins $want"

[ $fails -eq 0 ] && echo "PASS: ${#reports[@]} reports, ${#diffs[@]} diffs valid; $(ls "$T"/drift/*.json | wc -l) drifts rejected"
it_done
