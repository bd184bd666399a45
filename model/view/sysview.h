/* sysview: the System pane's charts — per visible node its metrics
 * (labels, what kind of series), and for the nodes on or near the screen
 * each chart's binned means over the window, its current value and window
 * mean, or the samples of a focused step; a node whose system metrics have
 * no GPU memory gets one chart per PyTorch profiler rank on it, from the
 * rank's [memory] events ("gmem rank 0": reserved, % of the device when
 * its size is known, else bytes). Built by the loader
 * (model/view/viewdata.h); immutable once built; nothing points into the
 * model. */
#ifndef SMTOP_SYSVIEW_H
#define SMTOP_SYSVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/series/series.h"
#include "model/view/viewdata.h"

typedef enum sysview_kind {
    SYSVIEW_CPU, SYSVIEW_GPU, SYSVIEW_GPUMEM, SYSVIEW_MEM, SYSVIEW_IO, SYSVIEW_NET,
    SYSVIEW_OTHER
} sysview_kind;

typedef struct sysview_metric {
    const series *s;        /* the model's, from sysview_node_metrics; NULL in a sysview */
    sysview_kind kind;
    int percent;            /* 1: CPU, GPU and GPU memory: 0-100 % whatever the
                               dimension; 0: the dimension and name tell */
    char label[32];         /* "cpu", " cpu3", "gpu0", "gmem0", "mem",
                               "nvme0n1 read" (raw: sanitize before drawing) */
    char dimension[64], name[64];
} sysview_metric;

/* The charts of node nd in screen order (CPU total, cores when per_core,
 * GPUs and their memory, host memory, I/O, network, then any other
 * series), at most max into out. Returns the count written. */
size_t sysview_node_metrics(const model_node *nd, int per_core, sysview_metric *out,
                            size_t max);

/* Samples of s inside a focused step's window [t0, t1) (at most max into
 * vals, the count inside returned, which may exceed max) and the nearest
 * sample outside it within a minute (*have_near, time, value). */
size_t sysview_step_samples(const series *s, int64_t t0_us, int64_t t1_us, double *vals,
                            size_t max, int *have_near, int64_t *near_us, double *near_v);

/* The value shown as "now": the series' last sample when it falls in the
 * window, else the last bin with data. 0 when none. */
int sysview_current_value(const series *s, int64_t t0_us, int64_t t1_us,
                          const series_bin *b, size_t n, double *out);

/* The chart's top: 100 for a percentage (util), else the largest bin max
 * (1 when none). */
double sysview_scale_top(const series_bin *b, size_t n, int util);
/* Each bin's mean into vals, NaN where a bin has no data; returns the
 * bins with data. */
size_t sysview_bin_values(const series_bin *b, size_t n, double *vals);

typedef struct sysview_chart {
    sysview_metric m;
    size_t nbins;           /* 0: not built (node outside the asked range) */
    const double *vals;     /* nbins means, NaN where no data */
    size_t have;            /* bins with data */
    double top;             /* sysview_scale_top(.., 0): the scale when not a percentage */
    int have_cur, have_mean;
    double cur, mean;       /* "now" and the window mean */
    /* In a step focus: the samples inside the step (k, first 3) and the
     * nearest outside; nbins is 0 when k < 3 (too few for a chart). */
    size_t step_k;
    double step_v[3];
    int have_near;
    int64_t near_us;
    double near_v;
} sysview_chart;

typedef struct sysview_node {
    const char *id;
    size_t cpus, gpus, nseries, phases;
    uint64_t gen;           /* model_node_generation it was read at */
    size_t first, count;    /* its charts: sysview_chart_at(first .. first+count) */
} sysview_node;

typedef struct sysview sysview;

/* What the System pane asks (viewdata_ask_for with sysview_query). */
typedef struct sysview_params {
    int per_core;             /* a chart per CPU core too */
    size_t bins;              /* bins per chart */
    size_t first, count;      /* visible nodes whose charts get bins */
} sysview_params;

/* The query: a sysview for sysview_params. */
extern const viewquery sysview_query;

/* The charts of the nodes model_node_at(m, nodes[i]) as sp asks (per_core,
 * bins over [t0, t1), bins only for nodes first .. first+count), in q's
 * step focus. NULL on OOM. */
sysview *sysview_build(const model *m, const size_t *nodes, size_t n, const viewdata_req *q,
                       const sysview_params *sp, int64_t t0_us, int64_t t1_us);
void sysview_free(sysview *v);

size_t sysview_node_count(const sysview *v);
const sysview_node *sysview_node_at(const sysview *v, size_t i);
const sysview_chart *sysview_chart_at(const sysview *v, size_t i);

#endif
