/* model_settle: see model.h. The lazy work of the model's const readers
 * (issue 28): the report runs its rules on several threads at once, which
 * is safe only when reading writes nothing. */
#include "model/core/model_internal.h"

#include "model/series/series.h"
#include "model/steps/phase_stats.h"

static void settle_phases(model_node *n)
{
    for (size_t i = 0; i < n->phases.n; i++)
        phase_stats_settle(n->phases.v[i]);
}

static void settle_series(const ptrvec *v)
{
    for (size_t i = 0; i < v->n; i++)
        series_settle(v->v[i]);
}

/* Every series a reader can reach: the raw ones, and those the node
 * keeps lists or aggregates of (settling one twice does nothing). */
static void settle_node(model_node *n)
{
    for (size_t i = 0; i < n->series.n; i++)
        series_settle(((ser_ent *)n->series.v[i])->s);
    settle_series(&n->cores);
    settle_series(&n->io);
    settle_series(&n->net);
    if (n->cpu_total)
        series_settle(n->cpu_total);
    if (n->host_mem)
        series_settle(n->host_mem);
    settle_phases(n);
    for (size_t i = 0; i < n->procs.n; i++)
        settle_phases(n->procs.v[i]);
}

void model_settle(model *m)
{
    for (size_t i = 0; i < m->nodes.n; i++)
        settle_node(m->nodes.v[i]);
}
