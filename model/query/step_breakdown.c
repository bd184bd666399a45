/* step_breakdown: see step_breakdown.h. */
#include "model/query/step_breakdown.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "model/util/lbound.h"

static const char *const comm_tokens[] = {
    "ALLREDUCE", "ALLGATHER", "BROADCAST", "ALLTOALL", "REDUCESCATTER",
    "REDUCE_SCATTER", "NCCL", "MPI_", "HOROVOD", "SMDDP",
};

int step_breakdown_category(const char *label, phase_kind kind)
{
    switch (kind) {
    case PHASE_DATALOADER:
        /* Workers prefetch in their own processes while the step runs;
         * the step waits for data only in GetNext / DataIterator. */
        return label && strstr(label, "DataLoaderWorker") ? -1 : SB_DATA;
    case PHASE_FORWARD: return SB_FORWARD;
    case PHASE_BACKWARD: return SB_BACKWARD;
    case PHASE_OTHER:
        for (size_t i = 0; label && i < sizeof comm_tokens / sizeof *comm_tokens; i++)
            if (strcasestr(label, comm_tokens[i]))
                return SB_COMM;
        return -1;
    default:
        return -1;
    }
}

const char *step_breakdown_cat_name(sb_cat c)
{
    static const char *const names[SB_NCAT] = {"data", "forward", "backward", "comm"};
    return c < SB_NCAT ? names[c] : "?";
}

static int span_cmp(const void *a, const void *b)
{
    const sb_span *x = a, *y = b;
    return (x->start_us > y->start_us) - (x->start_us < y->start_us);
}

/* Length of the union of sorted-by-start intervals whose category matches
 * `cat` (or all when cat < 0). */
static int64_t union_len(const sb_span *s, size_t n, int cat)
{
    int64_t total = 0, cur_s = 0, cur_e = 0;
    int open = 0;
    for (size_t i = 0; i < n; i++) {
        if (cat >= 0 && (int)s[i].cat != cat)
            continue;
        if (open && s[i].start_us <= cur_e) {
            if (s[i].end_us > cur_e)
                cur_e = s[i].end_us;
            continue;
        }
        if (open)
            total += cur_e - cur_s;
        cur_s = s[i].start_us;
        cur_e = s[i].end_us;
        open = 1;
    }
    return open ? total + cur_e - cur_s : total;
}

/* First index whose start is >= t (spans sorted by start). */
typedef struct span_key {
    const sb_span *s;
    int64_t t;
} span_key;

static int starts_before(const void *ctx, size_t i)
{
    const span_key *k = ctx;
    return k->s[i].start_us < k->t;
}

static size_t lower_bound(const sb_span *s, size_t n, int64_t t)
{
    span_key k = {s, t};
    return lbound(n, starts_before, &k);
}

static void one_step(step_breakdown *st, const sb_span *s, size_t n,
                     int64_t maxlen, sb_span *tmp)
{
    int64_t t0 = st->start_us, t1 = st->start_us + (st->dur_us > 0 ? st->dur_us : 0);
    size_t k = 0;
    /* A span starting before t0 - maxlen cannot reach t0. */
    int64_t reach = t0 > INT64_MIN + maxlen ? t0 - maxlen : INT64_MIN;
    for (size_t i = lower_bound(s, n, reach); i < n && s[i].start_us < t1; i++) {
        if (s[i].end_us <= t0)
            continue;
        sb_span c = s[i];
        if (c.start_us < t0)
            c.start_us = t0;    /* clipping keeps start order: all become t0 */
        if (c.end_us > t1)
            c.end_us = t1;
        tmp[k++] = c;
    }
    for (int c = 0; c < SB_NCAT; c++)
        st->cat_us[c] = union_len(tmp, k, c);
    int64_t covered = union_len(tmp, k, -1);
    st->other_us = t1 - t0 - covered;
}

int step_breakdown_compute(step_breakdown *steps, size_t nsteps,
                           const sb_span *spans, size_t nspans)
{
    sb_span *s = malloc((nspans ? nspans : 1) * sizeof *s);
    sb_span *tmp = malloc((nspans ? nspans : 1) * sizeof *tmp);
    if (!s || !tmp) {
        free(s);
        free(tmp);
        return -1;
    }
    int64_t maxlen = 0;
    for (size_t i = 0; i < nspans; i++) {
        s[i] = spans[i];
        if (s[i].end_us < s[i].start_us)
            s[i].end_us = s[i].start_us;
        if (s[i].end_us - s[i].start_us > maxlen)
            maxlen = s[i].end_us - s[i].start_us;
    }
    if (nspans)   /* qsort(NULL, 0, ...) is undefined */
        qsort(s, nspans, sizeof *s, span_cmp);
    for (size_t i = 0; i < nsteps; i++)
        one_step(&steps[i], s, nspans, maxlen, tmp);
    free(s);
    free(tmp);
    return 0;
}
