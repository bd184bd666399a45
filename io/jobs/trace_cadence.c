/* trace_cadence: the gaps between a writer's traces; see trace_cadence.h. */
#include "io/jobs/trace_cadence.h"

#include <stdint.h>
#include <stdlib.h>

#include "model/util/fnv.h"
#include "model/util/stable_sort.h"
#include "model/util/vec.h"

typedef struct stamp {
    uint64_t writer;
    double t;
} stamp;

struct trace_cadence {
    stamp *v;
    size_t n, cap;
};

STABLE_SORT_DEFINE(sort_stamps, stamp, A.writer < B.writer || (A.writer == B.writer && A.t < B.t))

trace_cadence *trace_cadence_new(void)
{
    return calloc(1, sizeof(trace_cadence));
}

void trace_cadence_free(trace_cadence *c)
{
    if (c)
        free(c->v);
    free(c);
}

int trace_cadence_add(trace_cadence *c, const char *writer, double t_s)
{
    if (vec_grow(&c->v, &c->cap, c->n + 1, sizeof *c->v, 64) < 0)
        return -1;
    c->v[c->n++] = (stamp){fnv_add_str(FNV_SEED, writer), t_s};
    return 0;
}

double trace_cadence_gap(trace_cadence *c)
{
    stamp *tmp = c->n > 1 ? malloc(c->n * sizeof *tmp) : NULL;
    if (!tmp)
        return 0;   /* one trace, or no memory: the cadence stays unknown */
    sort_stamps(c->v, tmp, c->n);
    free(tmp);
    double gap = 0;
    for (size_t i = 1; i < c->n; i++)
        if (c->v[i].writer == c->v[i - 1].writer && c->v[i].t - c->v[i - 1].t > gap)
            gap = c->v[i].t - c->v[i - 1].t;
    return gap;
}
