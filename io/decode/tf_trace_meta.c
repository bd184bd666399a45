/* tf_trace_meta: a TF trace's step (from its key), the fallback time base
 * from the model's step events, and the scanner's glue. See tf_trace.h;
 * smdebug's .metadata record is read by tf_meta.c. */
#include "io/decode/tf_trace.h"

#include <stdlib.h>
#include <string.h>

#include "model/steps/phase_stats.h"

static int parse_digits(const char *p, size_t n, int64_t *out)
{
    if (n == 0 || n > 18)
        return -1;
    int64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return -1;
        v = v * 10 + (p[i] - '0');
    }
    *out = v;
    return 0;
}

int64_t tf_trace_step_from_key(const char *key)
{
    static const char dp[] = "detailed_profiling/";
    const char *p = strstr(key, dp);
    if (!p)
        return -1;
    p = strchr(p + sizeof dp - 1, '/');    /* skip the hour directory */
    if (!p)
        return -1;
    p++;
    const char *q = strchr(p, '/');
    int64_t step;
    if (!q || parse_digits(p, (size_t)(q - p), &step) != 0)
        return -1;
    return step;
}

/* Start of `step` among a Step phase's retained events, or NO_BASE. */
static int64_t find_in_phase(const phase_stats *p, int64_t step)
{
    phase_event *buf = malloc(PHASE_RECENT_CAP * sizeof *buf);
    if (!buf)
        return TF_TRACE_NO_BASE;
    size_t n = phase_stats_recent(p, buf, PHASE_RECENT_CAP);
    int64_t t = TF_TRACE_NO_BASE;
    for (size_t i = n; i-- > 0 && t == TF_TRACE_NO_BASE;)
        if (buf[i].step == step)
            t = buf[i].start_us;
    free(buf);
    return t;
}

int64_t tf_trace_step_start(const model *m, const char *node_id, int64_t step)
{
    const model_node *n = model_find_node(m, node_id);
    if (!n || step < 0)
        return TF_TRACE_NO_BASE;
    /* Phases are ordered TRAIN, EVAL, GLOBAL, other modes: first hit wins. */
    for (size_t i = 0; i < model_node_phase_count(n); i++) {
        const phase_stats *p = model_node_phase_at(n, i);
        if (phase_stats_kind(p) != PHASE_STEP)
            continue;
        int64_t t = find_in_phase(p, step);
        if (t != TF_TRACE_NO_BASE)
            return t;
    }
    return TF_TRACE_NO_BASE;
}

static void ingest_sink(void *ud, const sm_event *e)
{
    model_add_event(ud, e);   /* OOM drops one event; the file still counts */
}

int tf_trace_ingest(model *m, const char *node_id, const char *key, int64_t base_us,
                    const void *gz, size_t len, sm_err *err)
{
    int64_t step = tf_trace_step_from_key(key);
    int64_t base = base_us != TF_TRACE_NO_BASE ? base_us : tf_trace_step_start(m, node_id, step);
    return tf_trace_load_at(gz, len, node_id, step, base, ingest_sink, m, err) < 0
               ? -1 : 0;
}
