/* step_breakdown_node: gathers a node's retained events for the pure core
 * in step_breakdown.c. */
#include "model/query/step_breakdown.h"

#include <stdlib.h>
#include <string.h>
#include "model/util/vec.h"

const phase_stats *step_breakdown_phase(const model_node *n, const char *label)
{
    if (!n)
        return NULL;
    for (size_t i = 0; i < model_node_phase_count(n); i++) {
        const phase_stats *p = model_node_phase_at(n, i);
        if (phase_stats_kind(p) != PHASE_STEP)
            continue;
        if (!label || !strcmp(phase_stats_label(p), label))
            return p;
    }
    return NULL;
}

/* Appends the categorised events of every phase overlapping [t0, t1) to
 * *spans (grown as needed). -1 on OOM. */
static int gather_spans(const model_node *n, int64_t t0, int64_t t1,
                        sb_span **spans, size_t *nspans, phase_event *buf)
{
    size_t cap = 0;
    for (size_t i = 0; i < model_node_phase_count(n); i++) {
        const phase_stats *p = model_node_phase_at(n, i);
        int cat = step_breakdown_category(phase_stats_label(p), phase_stats_kind(p));
        if (cat < 0)
            continue;
        size_t k = phase_stats_in_range(p, t0, t1, buf, PHASE_RECENT_CAP);
        if (vec_grow(spans, &cap, *nspans + k, sizeof **spans, 64) != 0)
            return -1;
        for (size_t j = 0; j < k; j++)
            (*spans)[(*nspans)++] = (sb_span){buf[j].start_us,
                                              buf[j].start_us + buf[j].dur_us, cat};
    }
    return 0;
}

int step_breakdown_node(const model_node *n, const char *step_label,
                        step_breakdown *out, size_t max)
{
    const phase_stats *sp = step_breakdown_phase(n, step_label);
    size_t len = sp ? phase_stats_recent_count(sp) : 0;
    return step_breakdown_node_from(n, step_label, len > max ? len - max : 0, out, max);
}

int step_breakdown_node_from(const model_node *n, const char *step_label, size_t first,
                             step_breakdown *out, size_t max)
{
    const phase_stats *sp = step_breakdown_phase(n, step_label);
    if (!sp || max == 0)
        return 0;
    phase_event *buf = malloc(PHASE_RECENT_CAP * sizeof *buf);
    if (!buf)
        return -1;
    size_t ns = phase_stats_recent_from(sp, first, buf,
                                        max < PHASE_RECENT_CAP ? max : PHASE_RECENT_CAP);
    int64_t t0 = INT64_MAX, t1 = INT64_MIN;
    step_breakdown *tmp = malloc((ns ? ns : 1) * sizeof *tmp);
    if (!tmp) {
        free(buf);
        return -1;
    }
    for (size_t i = 0; i < ns; i++) {
        memset(&tmp[i], 0, sizeof tmp[i]);
        tmp[i].step = buf[i].step;
        tmp[i].start_us = buf[i].start_us;
        tmp[i].dur_us = buf[i].dur_us;
        if (buf[i].start_us < t0)
            t0 = buf[i].start_us;
        if (buf[i].start_us + buf[i].dur_us > t1)
            t1 = buf[i].start_us + buf[i].dur_us;
    }
    sb_span *spans = NULL;
    size_t nspans = 0;
    int rc = -1;
    if (ns && gather_spans(n, t0, t1 > t0 ? t1 : t0 + 1, &spans, &nspans, buf) == 0 &&
        step_breakdown_compute(tmp, ns, spans, nspans) == 0) {
        memcpy(out, tmp, ns * sizeof *tmp);
        rc = (int)ns;
    } else if (!ns) {
        rc = 0;
    }
    free(spans);
    free(tmp);
    free(buf);
    return rc;
}
