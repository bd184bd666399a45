#!/usr/bin/env bash
# `smtop report --json` on crafted jobs (tests/integration/make_rule_scenario.py
# writes system metrics and traces in the real formats): every rule fires on
# its scenario and stays quiet on the near miss, --rule flips a verdict,
# rules.conf is read, --fail-on exits 3, and SageMaker's own verdicts from
# rule-output/ProfilerReport-*/ appear beside smtop's.
: "${SMTOP:?}" "${SMTOP_SRC:?}"
source "$(dirname "$0")/it_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
GEN="$SMTOP_SRC/tests/integration/make_rule_scenario.py"
TMP=$T
export XDG_CONFIG_HOME="$TMP/config"    # no user rules.conf unless a test writes one

python3 "$GEN" "$TMP/jobs" --all || { echo "FAIL: make_rule_scenario.py --all"; exit 1; }
job() { echo "$TMP/jobs/$1"; }

# Reports run as the test goes; their statuses are checked by one python
# at the end (python start-up dominates on a loaded machine).
n=0
expect() {  # expect SCENARIO RULE STATUS [report options...]
    local scen=$1 rule=$2 want=$3; shift 3
    n=$((n + 1))
    local out="$TMP/out$n.json"
    "$SMTOP" report --json "$@" "$(job "$scen")" >"$out" 2>"$TMP/err"
    local rc=$?
    if [ $rc -ne 0 ]; then fail "$scen: report exited $rc: $(cat "$TMP/err")"; return; fi
    printf '%s\t%s\t%s\t%s\n' "$out" "$rule" "$want" "$scen $*" >>"$TMP/expect.tsv"
}

check_expectations() {
    "$SMTOP_SRC/tests/tools/schema_ok.sh" $(cut -f1 "$TMP/expect.tsv") || fail "a rule report does not match the schema"
    python3 - "$TMP/expect.tsv" <<'PY' || fail "rule statuses (see above)"
import json, sys
bad = 0
for line in open(sys.argv[1]):
    out, rule, want, what = line.rstrip("\n").split("\t")
    got = [r for r in json.load(open(out))["rules"] if r["name"] == rule][0]
    if got["status"] != want:
        bad += 1
        print("FAIL: %s: %s is %s, expected %s (%s)" % (what, rule, got["status"], want,
                                                       got["details"]["message"]))
sys.exit(1 if bad else 0)
PY
}

for pair in cpu:CPUBottleneck io:IOBottleneck lowgpu:LowGPUUtilization \
            batch:BatchSize gpumem:GPUMemoryIncrease balance:LoadBalancing \
            steps:StepOutlier steps:Dataloader init:MaxInitializationTime; do
    s=${pair%%:*} rule=${pair#*:}
    expect "${s}_fire" "$rule" triggered
    expect "${s}_near" "$rule" ok
done

# absent data is no_data, never ok
expect cpu_fire IOBottleneck no_data
expect cpu_fire StepOutlier no_data
expect cpu_fire MaxInitializationTime no_data
expect cpu_fire OverallFrameworkMetrics no_data
expect cpu_fire OverallSystemUsage ok

# an override flips the verdict both ways
expect cpu_near CPUBottleneck triggered --rule CPUBottleneck.gpu_threshold=20
expect cpu_fire CPUBottleneck ok --rule CPUBottleneck.threshold=100
expect steps_near StepOutlier triggered --rule StepOutlier.n_outliers=5
# patience: with the whole run counted the bottleneck share falls below 50 %
expect cpu_fire CPUBottleneck ok --rule CPUBottleneck.patience=0

# rules.conf, and --rule wins over it
mkdir -p "$XDG_CONFIG_HOME/smtop"
printf '# lenient\nCPUBottleneck.threshold = 100\n' >"$XDG_CONFIG_HOME/smtop/rules.conf"
expect cpu_fire CPUBottleneck ok
expect cpu_fire CPUBottleneck triggered --rule CPUBottleneck.threshold=50
expect cpu_fire CPUBottleneck triggered --no-rules-config
printf 'CPUBottleneck.treshold = 1\n' >"$XDG_CONFIG_HOME/smtop/rules.conf"
"$SMTOP" report "$(job cpu_fire)" >/dev/null 2>"$TMP/err"; rc=$?
[ $rc -eq 2 ] || fail "bad rules.conf: exit $rc, expected 2"
grep -q "rules.conf:1: rule CPUBottleneck has no parameter 'treshold'" "$TMP/err" ||
    fail "bad rules.conf message: $(cat "$TMP/err")"
rm "$XDG_CONFIG_HOME/smtop/rules.conf"

check_expectations

# --fail-on
"$SMTOP" report --fail-on StepOutlier,CPUBottleneck "$(job cpu_fire)" >/dev/null 2>&1
rc=$?; [ $rc -eq 3 ] || fail "--fail-on with a triggered rule: exit $rc, expected 3"
"$SMTOP" report --fail-on CPUBottleneck "$(job cpu_near)" >/dev/null 2>&1
rc=$?; [ $rc -eq 0 ] || fail "--fail-on with no triggered rule: exit $rc, expected 0"
"$SMTOP" report --fail-on NoSuchRule "$(job cpu_fire)" >/dev/null 2>"$TMP/err"
rc=$?; [ $rc -eq 2 ] || fail "--fail-on NoSuchRule: exit $rc, expected 2"
grep -q "unknown rule 'NoSuchRule'" "$TMP/err" || fail "--fail-on message: $(cat "$TMP/err")"
"$SMTOP" report --rule CPUBottleneck.threshold=abc "$(job cpu_fire)" >/dev/null 2>"$TMP/err"
rc=$?; [ $rc -eq 2 ] || fail "bad --rule: exit $rc, expected 2"

# SageMaker's verdicts beside smtop's, found from the job dir and from
# its profiler-output (rule-output is a sibling of it), device usage and
# idle GPU-hours checked against hand computation
python3 "$GEN" "$TMP/pr" cpu_fire --profiler-report >/dev/null
for src in "$TMP/pr" "$TMP/pr/profiler-output"; do
    "$SMTOP" report --json "$src" >"$TMP/pr.json" 2>"$TMP/err" || fail "report $src: $(cat "$TMP/err")"
    "$SMTOP_SRC/tests/tools/schema_ok.sh" "$TMP/pr.json" || fail "schema"
    python3 - "$TMP/pr.json" <<'PY' || fail "rule-output / usage checks on $src"
import json, sys
d = json.load(open(sys.argv[1]))
rules = {r["name"]: r for r in d["rules"]}
cpu = rules["CPUBottleneck"]
assert cpu["status"] == "triggered", cpu
assert cpu["sagemaker"]["triggered"] is True, cpu["sagemaker"]
assert cpu["sagemaker"]["violations"] == 180 and cpu["sagemaker"]["datapoints"] == 200
assert "cpu_threshold:90" in cpu["sagemaker"]["parameters"]
assert cpu["parameters"]["cpu_threshold"] == 90
assert cpu["violations"] == 200 and cpu["datapoints"] == 200, cpu
assert cpu["details"]["node"] == "algo-1" and cpu["details"]["end_us"] > cpu["details"]["start_us"]
assert len(cpu["details"]["examples"]) > 0
assert rules["LowGPUUtilization"]["sagemaker"]["triggered"] is False
assert "sagemaker" not in rules["IOBottleneck"]
errs = d.get("rule_output_errors", [])
assert any("Broken.json" in e and "not JSON" in e for e in errs), errs
# gpu0: 1000 samples at 80 %, then 200 at 5 %; 0.5 s each
g = [u for u in d["device_usage"] if u["device"] == "gpu0"][0]
assert g["kind"] == "gpu" and g["samples"] == 1200, g
assert abs(g["below_10_pct"] - 100 * 200 / 1200) < 1e-9, g
assert abs(g["between_10_90_pct"] - 100 * 1000 / 1200) < 1e-9, g
c = [u for u in d["device_usage"] if u["device"] == "cpu0"][0]
assert abs(c["above_90_pct"] - 100 * 200 / 1200) < 1e-9, c
idle = d["idle_gpu_hours"][0]
assert idle["node"] == "algo-1" and idle["gpus"] == 1
assert abs(idle["gpu_hours"] - 1200 * 0.5 / 3600) < 1e-9, idle
assert abs(idle["idle_gpu_hours"] - 200 * 0.5 / 3600) < 1e-9, idle
PY
done

# the text report shows the same sections
"$SMTOP" report "$TMP/pr" >"$TMP/pr.txt" 2>&1
grep -Eq '^  CPUBottleneck +triggered +high +200/200 +triggered 180/200' "$TMP/pr.txt" ||
    fail "text rules table: $(grep -A3 '^rules' "$TMP/pr.txt")"
grep -q '^idle GPU-hours' "$TMP/pr.txt" || fail "text idle GPU-hours section missing"

[ $fails -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "all rule report checks passed"
