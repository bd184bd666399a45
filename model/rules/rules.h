/* rules: SageMaker's ProfilerReport bottleneck rules, evaluated on what the
 * model holds.
 *
 * A `rules` object owns the parameter values (defaults from the const rule
 * table, overridable with `Name.param=value`) and the results of the last
 * evaluation. rules_evaluate() re-runs every rule over the model's held data
 * whenever the model or a parameter changed, so an edited threshold shows
 * its effect at once.
 *
 * Resolution: rules look at each node's series on one aligned time grid
 * (model/rules/rule_grid.c, fed by series_visit). The newest SERIES_RAW_CAP
 * samples of a series are held at full resolution: there one grid cell is
 * one sampling tick, so "at the same timestamp" means the same tick and
 * windows/patience count real samples. Older data only exists rolled up
 * (10 s, then 5 min buckets): there a cell holds a bucket's mean weighted
 * by its sample count, so counts still add up but a spike shorter than a
 * bucket is averaged away. Jobs longer than RGRID_MAX_CELLS ticks get
 * wider cells (bounded memory). Windows and patience are counts of
 * smdebug's 500 ms samples; over a source published more coarsely
 * (model_system_source: CloudWatch, once a minute) they count the
 * samples of the same time span instead, at least one, so a rule says
 * the same of an hour of CloudWatch as of an hour of Debugger.
 *
 * Incremental: a rule re-runs only when what it reads changed (see
 * rules_evaluate), and the window-percentile rules (LowGPUUtilization,
 * BatchSize) keep their windows between runs on one model, recomputing
 * only the windows whose cells an append changed (model/rules/rule_sysgpu.c). The
 * results always equal a fresh evaluation
 * (tests/unit/test_rules_incremental.c checks it).
 *
 * Status: RULE_NO_DATA when the data a rule needs is absent or still inside
 * its patience — never RULE_OK. Pure: no I/O. Not thread-safe: the caller
 * holds the model lock while evaluating. */
#ifndef SMTOP_RULES_H
#define SMTOP_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "model/gpu/gpu_rank.h"
#include "model/model.h"
#include "model/util/sm_err.h"

#define RULE_MAX_PARAMS 6
#define RULE_MAX_EXAMPLES 8
#define RULE_CAUSE 200
#define RULE_FIX 160
#define RULE_EVIDENCE 160

typedef enum rule_status {
    RULE_NO_DATA = 0,
    RULE_OK,
    RULE_TRIGGERED
} rule_status;

typedef enum rule_severity {
    RULE_SEV_INFO = 0,  /* summaries that never fire */
    RULE_SEV_LOW,
    RULE_SEV_MED,
    RULE_SEV_HIGH
} rule_severity;

/* One datapoint that crossed a threshold: when, which device, the value
 * compared and a one-line explanation ("p95 42.0% < 70"). */
typedef struct rule_example {
    int64_t t0_us, t1_us;
    double value;
    char node[64];
    char device[32];
    char text[96];
} rule_example;

typedef struct rule_result {
    const char *name;          /* static rule name */
    /* What every examples[].value is, unit included, as a JSON key
     * ("cpu_pct", "duration_us", ...; static; NULL: the rule gives none). */
    const char *example_key;
    rule_status status;
    rule_severity severity;    /* of the rule; meaningful when triggered */
    int64_t violations;        /* what crossed: windows, samples, steps, ... */
    int64_t datapoints;        /* what was checked */
    /* The worst violation (or, when ok, the most borderline datapoint). */
    char node[64];
    char device[32];
    int64_t t0_us, t1_us;      /* its time span; 0 when none */
    char message[200];         /* one line: why it fired / why no data */
    /* How far the worst violation went, in percent over the rule's own
     * baseline (Straggler: how much slower than the peers' median); the
     * verdict (model/view/verdict.h) quotes it. 0 when the rule gives none. */
    double worst_pct;
    double worst_value;        /* and its own value (Straggler: its p50, µs) */
    /* 1: no_data because the job holds fewer samples or steps than the
     * rule needs; message then starts with RULE_TOO_SHORT and gives both
     * numbers. A live job may still get there (the dashboard says
     * "waiting: " instead); an ended one never will. */
    int too_short;
    /* When the rule fired (triggered; "" otherwise): what caused it, where
     * and how much, with the figures ("algo-1 gpu0 underused: p95 42.0% <
     * 70; 3 of 8 windows"); the concrete knob to turn (the table's fix, or
     * one the rule named from the job's figures: "DataLoader(num_workers=
     * 7, pin_memory=True)"); and the figure to check and where to look
     * (pane and key). */
    char cause[RULE_CAUSE];
    char fix[RULE_FIX];
    char evidence[RULE_EVIDENCE];
    size_t n_examples;
    rule_example examples[RULE_MAX_EXAMPLES];
} rule_result;

#define RULE_TOO_SHORT "job too short: "

typedef struct rules rules;

/* New rule set with every parameter at its default and no results yet
 * (every rule RULE_NO_DATA). NULL on OOM. */
rules *rules_new(void);
void rules_free(rules *r);

/* Rules in table order (stable). */
size_t rules_count(void);
const char *rules_name_at(size_t i);
/* Index of a rule by name (case-insensitive), or -1. */
int rules_find(const char *name);
const char *rules_summary_at(size_t i);   /* one-line "fires when" */
/* Rule i's fix as its table row states it ("a bigger batch, or a smaller
 * instance"); where its thresholds come from ("ProfilerReport", "TensorBoard
 * profiler", "HTA", "smtop"); what one datapoint is ("windows", "samples",
 * "ranks"); and where a reader sees its evidence ("System (1): the node's
 * CPU and GPU charts"). Static strings; NULL past the end. */
const char *rules_fix_at(size_t i);
const char *rules_origin_at(size_t i);
const char *rules_unit_at(size_t i);
const char *rules_look_at(size_t i);

/* Parameters of rule i, in table order. */
size_t rules_param_count(size_t i);
const char *rules_param_name(size_t i, size_t p);
double rules_param_default(size_t i, size_t p);
double rules_param_value(const rules *r, size_t i, size_t p);

/* Sets one parameter. Returns 0, or -1 with err (SM_ERR_USAGE) naming the
 * unknown rule/parameter or the allowed range; r unchanged then. */
int rules_set_param(rules *r, const char *rule, const char *param,
                    double value, sm_err *err);

/* Bumped by every successful rules_set_param: views use it in stamps. */
uint64_t rules_generation(const rules *r);

/* Brings every rule's result up to date with m: a rule re-runs only when
 * what it reads changed since its last run — the model's system or event
 * generation (model_system_generation / model_event_generation, by the
 * rule's inputs) or one of its own parameters — so an idle pass costs
 * nothing and a `:set` re-derives that rule alone. Returns 1 when any
 * rule re-ran, 0 when every result stood. A different model address
 * re-runs all; after freeing a model and evaluating another, call
 * rules_invalidate (a new model may get the old address). -1 on OOM
 * (that rule's result says so, status no_data, and it re-runs next
 * call). */
int rules_evaluate(rules *r, const model *m);
/* rules_evaluate in parts, for a caller that runs the rules on several
 * threads (the report, issue 28). rules_stale: the rules rules_evaluate
 * would run now, their indexes into out (room for rules_count()), how
 * many returned; it also notes m as rules_evaluate does. rules_run_one:
 * runs rule i as rules_evaluate would (0, or -1 on OOM). Distinct rules
 * may run at once on several threads when m is settled (model_settle)
 * and nothing writes it, except those rules_reads_ranks names (the Kineto
 * ranks' summaries sort on read): run them on one thread, while no other
 * reads the ranks. Each rule writes its own result and state alone, so
 * the results do not depend on which thread ran what. */
size_t rules_stale(rules *r, const model *m, size_t *out);
int rules_run_one(rules *r, size_t i, const model *m);
int rules_reads_ranks(size_t i);
/* Rule i's verdict on one PyTorch profiler rank's summary at its default
 * parameters, for a rule that runs on every rank: 0 with out filled, or
 * -1 for any other rule. */
int rules_eval_rank_default(size_t i, const gpu_summary *s, rule_result *out);
/* Forgets the cached results: the next rules_evaluate recomputes all. */
void rules_invalidate(rules *r);
/* How many single-rule runs rules_evaluate did since rules_new: tests
 * and benchmarks check that idle passes cost none. */
uint64_t rules_evaluation_count(const rules *r);

/* Result of rule i from the last evaluation; valid until the next
 * rules_evaluate or rules_free. */
const rule_result *rules_result_at(const rules *r, size_t i);

/* Number of triggered rules in the last evaluation. */
size_t rules_triggered_count(const rules *r);

const char *rules_status_name(rule_status s);      /* "triggered", "ok", "no_data" */
const char *rules_severity_name(rule_severity s);  /* "high", "medium", "low", "info" */

/* The PyTorch profiler's DataLoader time against the TRAIN steps' on the
 * node where it is the largest share (model/rules/rule_dataloader.c, the
 * Dataloader rule's figure): *out filled, 1; 0 when no node has the
 * `enumerate(DataLoader)` annotation beside its steps. */
typedef struct rules_loader {
    const char *node;         /* the model's */
    double pct;               /* of the TRAIN steps' time */
    double per_step_us, step_us;
    int main_thread;          /* _SingleProcessDataLoaderIter: num_workers=0 */
} rules_loader;
int rules_loader_share(const model *m, rules_loader *out);

/* --- overrides (model/rules/rules_params.c) --- */

/* Applies one "Name.param=value" override (spaces around '=' allowed).
 * 0, or -1 with err (SM_ERR_USAGE) quoting the bad part; r unchanged. */
int rules_apply_override(rules *r, const char *spec, sm_err *err);

/* Applies a config text: one `Name.param = value` per line, '#' comments,
 * blank lines. All-or-nothing: on the first bad line returns -1 with err
 * "origin:line: ..." and r is unchanged. */
int rules_apply_config(rules *r, const char *text, size_t len,
                       const char *origin, sm_err *err);

/* Parses a comma-separated rule list ("CPUBottleneck,StepOutlier") into
 * idx (rule indices, up to max). Returns the count, or -1 with err naming
 * the unknown rule. */
int rules_parse_list(const char *list, int *idx, size_t max, sm_err *err);

#endif
