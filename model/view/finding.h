/* finding: one thing wrong with a job, in words with numbers, as the
 * verdict (verdict.h) and the PyTorch profiler's findings (gpuview.h)
 * both keep it, and the one way a source appends one to its list. Pure. */
#ifndef SMTOP_FINDING_H
#define SMTOP_FINDING_H

#include <stddef.h>

#include "model/rules/rules.h"

#define FINDING_TEXT 112
#define FINDING_BRIEF 40

typedef struct finding {
    /* static: where it comes from, a verdict source ("idle_gpu", "kineto",
     * "straggler", "outlier_steps", "rule") or a rule's name; may be NULL */
    const char *source;
    rule_severity severity;    /* LOW .. HIGH */
    char text[FINDING_TEXT];   /* "GPU idle 57 %": words and a number; names from data unsanitized */
    /* The same in fewer columns, for a line too narrow for text ("2 %
     * outlier steps" for "2 % outlier steps: algo-2 step 30 took ..."); ""
     * when text is as short as it gets. */
    char brief[FINDING_BRIEF];
} finding;

/* Appends a finding to v[0..*n), v holding max: source and sev as given,
 * text printed from fmt (cut to FINDING_TEXT - 1 bytes), brief "".
 * Returns it (so the caller may give it a brief), or NULL, writing
 * nothing, when *n == max. */
finding *finding_add(finding *v, size_t *n, size_t max, const char *source, rule_severity sev,
                     const char *fmt, ...) __attribute__((format(printf, 6, 7)));

#endif
