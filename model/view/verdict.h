/* verdict: the job's story in one line — the worst findings in order, in
 * words with numbers ("GPU idle 57 % · straggler algo-3 +28 % · 2 %
 * outlier steps"), or that nothing is wrong. The dashboard's header and
 * `report --summary` (and report --json's "verdict") both show what
 * verdict_build gives, so the two never tell different stories.
 *
 * Takes the whole job (never a window or a node filter: a filter changes
 * the view, not the verdict) and the rules evaluated on it (their results
 * and the user's parameters); gives
 * a plain `verdict` value. Findings come from an ordered table of
 * sources in verdict.c (idle GPU, straggler, outlier steps, the other
 * rules that fired); a new analysis joins by adding one function there.
 * Pure: no I/O; the caller holds the model lock. */
#ifndef SMTOP_VERDICT_H
#define SMTOP_VERDICT_H

#include <stddef.h>

#include "model/model.h"
#include "model/rules/rules.h"
#include "model/view/finding.h"

#define VERDICT_MAX 12
#define VERDICT_TEXT 112

/* A GPU counts as idle under SAMPLING_BAND_LOW %; the job's idle share is
 * a finding from VERDICT_IDLE_PCT % of its GPU time on. */
#define VERDICT_IDLE_PCT 10.0

/* Step-time outliers (StepOutlier's definition: slower than mean +
 * StepOutlier.stddev sigma) are a finding, when the rule did not fire,
 * from VERDICT_STEP_LOST_PCT % of the step time lost to them over the
 * median (low), from VERDICT_STEP_HEAVY_PCT % at the rule's own severity
 * (medium): one 9 s step among 84 ms ones is the story of a 30-step job
 * that the rule, waiting for 100 steps, cannot tell. */
#define VERDICT_STEP_LOST_PCT 5.0
#define VERDICT_STEP_HEAVY_PCT 25.0

/* A finding's source is one of "idle_gpu", "kineto", "straggler",
 * "outlier_steps", "rule", or the Kineto rule it tells
 * ("CommNotOverlapped", ...); each carries its cause, fix and evidence
 * (finding.h). */
typedef finding verdict_finding;

typedef struct verdict {
    size_t n;                  /* findings, worst first */
    verdict_finding f[VERDICT_MAX];
    int has_data;              /* 0: the job has no samples and no steps yet */
    size_t rules_ok;           /* rules that checked data and found nothing */
    size_t rules_no_data;      /* rules that could not check (no data, too short) */
    /* Why they could not, in a few words ("no system metrics, job too
     * short for 3 rules"); "" when nothing a reader would miss is absent. */
    char lacks[VERDICT_TEXT];
} verdict;

/* Fills *out from m and the results and parameters of r, as the last
 * rules_evaluate(r, m) left them. The findings are ordered by severity,
 * high first; within one severity by the order of the sources. Returns 0,
 * or -1 on OOM (out then holds what was found before). */
int verdict_build(const model *m, const rules *r, verdict *out);

/* The verdict as one line of at most max_cols columns (a UTF-8 code
 * point counts as one column; max_cols <= 0: no limit): findings joined by sep
 * while they fit (a finding's brief where its text does not), then "+N
 * more". The first names its cause and fix where they fit ("GPU idle
 * 86 %: gloo all-reduce on the host → use NCCL", the arrow "->" when sep
 * is the ASCII " | "), else its fix, else itself; "no problem found (8 rules ok)" when
 * there are none, with what the other rules lacked ("no problem found (2
 * rules ok; no system metrics)", shorter where that does not fit); "no
 * data yet" before any. Returns out. */
char *verdict_format(const verdict *v, const char *sep, int max_cols, char *out, size_t cap);

/* Columns the first finding needs to name its cause and fix on the line
 * in its shortest form ("GPU idle 86 %: gloo all-reduce on the host → use
 * NCCL", a cause's "(...)" left out); 0 when it has no fix to name. The dashboard gives the verdict
 * row that much room when it can. */
int verdict_lead_cols(const verdict *v, const char *sep);

/* The worst severity of v's findings; RULE_SEV_INFO when it has none. */
rule_severity verdict_worst(const verdict *v);

#endif
