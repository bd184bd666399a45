/* finding: one thing wrong with a job, in words with numbers, as the
 * verdict (verdict.h) and the PyTorch profiler's findings (gpucause.h)
 * both keep it, and the one way a source appends one to its list. Pure.
 *
 * A finding says three things besides its symptom (issue 32): its cause
 * (what, where and how much, with the figures), its fix (the knob to turn)
 * and its evidence (the figure to check and where to look: pane, key).
 * Each has a form of a few words too (why, knob) so that the verdict's
 * one line still names the cause and the fix at 80 columns:
 * "GPU idle 86 %: gloo all-reduce on the host → use NCCL". */
#ifndef SMTOP_FINDING_H
#define SMTOP_FINDING_H

#include <stddef.h>

#include "model/rules/rules.h"

#define FINDING_TEXT 112
#define FINDING_BRIEF 40
#define FINDING_SHORT 72
#define FINDING_CAUSE 240
#define FINDING_FIX 200
#define FINDING_EVIDENCE 200

typedef struct finding {
    /* static: where it comes from, a verdict source ("idle_gpu", "kineto",
     * "straggler", "outlier_steps", "rule") or a rule's name; may be NULL */
    const char *source;
    /* the rule it tells (static), or NULL: a rule a finding told is not
     * told again by the verdict's list of fired rules */
    const char *rule;
    rule_severity severity;    /* LOW .. HIGH */
    char text[FINDING_TEXT];   /* "GPU idle 57 %": words and a number; names from data unsanitized */
    /* The same in fewer columns, for a line too narrow for text ("2 %
     * outlier steps" for "2 % outlier steps: algo-2 step 30 took ..."); ""
     * when text is as short as it gets. */
    char brief[FINDING_BRIEF];
    char why[FINDING_SHORT];        /* the cause in a few words; "" none */
    char knob[FINDING_SHORT];       /* the fix in a few words; "" none */
    char cause[FINDING_CAUSE];      /* "" when unknown */
    char fix[FINDING_FIX];
    char evidence[FINDING_EVIDENCE];
} finding;

/* Appends a finding to v[0..*n), v holding max: source and sev as given,
 * text printed from fmt (cut to FINDING_TEXT - 1 bytes), everything else
 * "". Returns it (so the caller may give it a brief and its advice), or
 * NULL, writing nothing, when *n == max. */
finding *finding_add(finding *v, size_t *n, size_t max, const char *source, rule_severity sev,
                     const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* The cause and fix in a few words (either may be NULL: left as is). f
 * may be NULL (a finding that did not fit): then nothing. */
void finding_short(finding *f, const char *why, const char *knob);
/* The full cause, fix and evidence, printed from fmt (cut to their
 * sizes). f may be NULL. */
void finding_cause(finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void finding_fix(finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void finding_evidence(finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A fired rule's result as a finding's advice: its cause, fix and
 * evidence, and f->rule = r->name. f may be NULL. */
void finding_from_rule(finding *f, const rule_result *r);

#endif
