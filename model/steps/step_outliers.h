/* step_outliers: the steps of one phase that StepOutlier counts as
 * outliers — slower than the phase's mean + sigma standard deviations —
 * with the slowest of them and the time they cost over the median.
 *
 * One definition for the StepOutlier rule (model/rules/rule_steps.c),
 * which adds its patience (100 steps) and its allowance (n_outliers), and
 * for the job's verdict (model/view/verdict.c), which names the slow step
 * of a job too short for the rule. Mean and deviation are over every step
 * the phase has seen; outliers are looked for among its retained (newest)
 * steps, as the rule always did. Pure; the caller holds the model lock. */
#ifndef SMTOP_STEP_OUTLIERS_H
#define SMTOP_STEP_OUTLIERS_H

#include <stddef.h>
#include <stdint.h>

#include "model/steps/phase_stats.h"

typedef struct step_outliers {
    int64_t count;          /* steps the phase has seen (mean, deviation, p50 over these) */
    double mean_us, stddev_us, p50_us;
    double threshold_us;    /* mean + sigma * stddev: slower is an outlier */
    size_t checked;         /* retained steps looked at */
    size_t outliers;        /* of them, over threshold_us */
    phase_event slowest;    /* the slowest outlier (dur_us 0, step -1 when none) */
    double lost_us;         /* sum over the outliers of (duration - p50) */
    double checked_us;      /* sum of the checked steps' durations */
} step_outliers;

/* Fills *out for phase ph with outliers over mean + sigma * stddev. ev is
 * scratch of cap events (the retained steps are copied there, oldest
 * first, and stay for the caller to walk). Never fails. */
void step_outliers_find(const phase_stats *ph, double sigma, phase_event *ev, size_t cap,
                        step_outliers *out);

/* The share of the checked step time the outliers cost over the median
 * (lost_us / checked_us), in percent; 0 when nothing was checked. */
double step_outliers_lost_pct(const step_outliers *o);

#endif
