/* rule_report: SageMaker's own verdicts, read from the files its built-in
 * ProfilerReport rule writes:
 *   rule-output/ProfilerReport-<id>/profiler-output/profiler-reports/<Rule>.json
 * with fields RuleTriggered, Violations, Datapoints, RuleParameters and
 * Details. smtop shows them beside its own evaluation of the same rule.
 *
 * A malformed file does not stop the others: it is recorded as an error
 * naming the file and what is wrong with it. */
#ifndef SMTOP_RULE_REPORT_H
#define SMTOP_RULE_REPORT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "model/util/sm_err.h"
#include "io/source/source.h"

typedef struct rule_verdict {
    char rule[64];            /* <Rule> from the file name */
    char key[512];            /* the file it came from */
    int64_t triggered;        /* RuleTriggered: how often it fired (0 = not) */
    int64_t violations;
    int64_t datapoints;
    json_t *parameters;       /* RuleParameters as in the file (string or
                                 object); owned; NULL when absent */
    json_t *details;          /* Details; owned; NULL when absent */
} rule_verdict;

/* Parses one <Rule>.json body into out (zeroed first). Returns 0, or -1
 * with err (SM_ERR_FORMAT) naming `key` and the problem ("not JSON at line
 * 3: ...", "RuleTriggered missing", "Violations is not a number"); out is
 * then left empty. */
int rule_verdict_parse(const char *key, const void *buf, size_t len,
                       rule_verdict *out, sm_err *err);
/* Releases what out owns and zeroes it. */
void rule_verdict_clear(rule_verdict *v);

/* The rule name a key names, when it is a profiler-reports/<Rule>.json
 * file under a ProfilerReport-* directory: copies it into name and returns
 * 1; 0 for any other key. */
int rule_report_key_rule(const char *key, char *name, size_t cap);

typedef struct rule_reports rule_reports;

/* Lists `prefix` (e.g. "rule-output/") in src and reads every ProfilerReport
 * rule file (for a rule found under several ProfilerReport-* directories,
 * the last in key order wins). Returns a set (possibly empty), or NULL with
 * err when the listing failed or on OOM. */
rule_reports *rule_reports_load(source *src, const char *prefix, sm_err *err);
void rule_reports_free(rule_reports *r);

size_t rule_reports_count(const rule_reports *r);
/* Case-insensitive lookup by rule name; NULL when absent. */
const rule_verdict *rule_reports_find(const rule_reports *r, const char *rule);
/* Messages about files that could not be read or parsed. */
size_t rule_reports_error_count(const rule_reports *r);
const char *rule_reports_error_at(const rule_reports *r, size_t i);

#endif
