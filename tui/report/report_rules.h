/* report_rules: the rules sections of `smtop report` and the rule options.
 *
 * JSON added to the report object:
 *   rules[] {name, status: triggered|ok|no_data, severity, violations,
 *            datapoints, parameters{name: value}, summary,
 *            details{node, device, start_us, end_us, message,
 *                    examples[] {node, device, start_us, end_us, value, text},
 *                    nodes[] (OverallSystemUsage / OverallFrameworkMetrics)},
 *            sagemaker {triggered, violations, datapoints, parameters,
 *                       details, file}   (only when rule-output has it)}
 *   device_usage[] {node, device, kind: cpu|gpu, samples, above_90_pct,
 *                   between_10_90_pct, below_10_pct}
 *   idle_gpu_hours[] {node, gpus, gpu_hours, idle_gpu_hours}
 *   rule_output_errors[] (only when a SageMaker rule file was unreadable)
 *
 * Precedence of parameters: defaults < $XDG_CONFIG_HOME/smtop/rules.conf
 * < --rule options. */
#ifndef SMTOP_REPORT_RULES_H
#define SMTOP_REPORT_RULES_H

#include <jansson.h>
#include <stdio.h>

#include "io/decode/rule_report.h"
#include "io/run/job.h"
#include "io/source/source_open.h"
#include "model/rules/rules.h"
#include "tui/report/report_stream.h"

#define REPORT_RULES_MAX_ARGS 64

typedef struct report_rules_opts {
    const char *overrides[REPORT_RULES_MAX_ARGS];  /* --rule specs (argv) */
    size_t n_overrides;
    int fail_on[REPORT_RULES_MAX_ARGS];             /* rule indices */
    size_t n_fail_on;
    int no_config;                                  /* --no-rules-config */
} report_rules_opts;

/* Parses `--rule Name.param=value` (repeatable; checked here, applied by
 * report_rules_configure), `--fail-on RULE[,RULE]` and `--no-rules-config`
 * at argv[*i]. 1 when consumed, 0 when not ours, -1 with err (SM_ERR_USAGE). */
int report_rules_parse_arg(report_rules_opts *o, int argc, char **argv, int *i,
                           sm_err *err);
const char *report_rules_help(void);

/* Applies the config file, $XDG_CONFIG_HOME/smtop/rules.conf (else
 * ~/.config/smtop/rules.conf; tui/conf/conf_file.h; a missing file is not
 * an error), then the
 * --rule overrides of o (o may be NULL). -1 with err naming the file and
 * line or the bad override; r is then unchanged by the failing step. */
int report_rules_configure(rules *r, const report_rules_opts *o, sm_err *err);

/* A new rule set configured as report_rules_configure does (caller frees
 * with rules_free). NULL with err (the bad line/override, or OOM). */
rules *report_rules_new_configured(const report_rules_opts *o, sm_err *err);

/* Reads SageMaker's rule-output for the job opened from `spec`: looks in
 * src under rule-output/, and when that has nothing and spec ends in
 * profiler-output, in the sibling rule-output/ of spec's parent. Returns a
 * set (possibly empty; caller frees), or NULL with err. */
rule_reports *report_rules_sagemaker(source *src, const char *spec,
                                     const source_opts *so, sm_err *err);

/* The rules part of the verdict at the top of the text report: every
 * rule that fired (most severe first) and the job's idle GPU-hours. */
void report_rules_print_verdict(const json_t *obj, FILE *f);

/* The text report's "causes and fixes" section, after the verdict: each
 * finding of the verdict with its cause, fix and where to look, then each
 * fired rule no finding tells, with the same. */
void report_rules_print_causes(const json_t *obj, FILE *f);

/* Evaluates r over m (caller holds the model lock) and sets obj["rules"],
 * obj["device_usage"], obj["idle_gpu_hours"]; sm may be NULL. With st, the
 * per-node arrays (device_usage, idle_gpu_hours, and the "nodes" of
 * OverallSystemUsage's and OverallFrameworkMetrics' details) are
 * placeholders of st (report_stream.h), read from m when st is dumped;
 * with st NULL they are whole. 0, or -1 with err on OOM. */
int report_rules_add(json_t *obj, const model *m, rules *r,
                     const rule_reports *sm, report_stream *st, sm_err *err);

/* rules_evaluate(r, m) on up to `threads` threads (caller holds the model
 * lock): settles m (model_settle), then runs the stale rules at once, the
 * Kineto ranks' rules on this thread. The same results whatever the
 * count; fewer than 2 is rules_evaluate itself. Returns as rules_evaluate. */
int report_rules_evaluate(rules *r, model *m, size_t threads);

/* 1 when a rule named by --fail-on triggered in the last evaluation. */
int report_rules_failed(const rules *r, const report_rules_opts *o);

/* Everything `smtop report` needs, in one call: configures a rule set
 * from rules.conf and o, reads SageMaker's verdicts for `spec`, evaluates
 * under the job's lock and adds the sections to obj (per-node arrays as
 * placeholders of st when st is given). Returns 1 when a
 * --fail-on rule triggered, 0 when not, -1 with err (SM_ERR_USAGE for a bad
 * rules.conf line; obj then lacks the sections). */
int report_rules_run(json_t *obj, job *j, const char *spec,
                     const source_opts *so, const report_rules_opts *o,
                     report_stream *st, sm_err *err);

/* Renders the rules, device usage and idle-GPU sections of obj as text. */
void report_rules_print_text(const json_t *obj, FILE *f);

#endif
