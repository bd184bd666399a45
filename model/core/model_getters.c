/* model_getters: read access to one node for the views. */
#include "model/model.h"

#include <string.h>

#include "model/core/model_node.h"

const char *model_node_id(const model_node *n) { return n->id; }
uint64_t model_node_generation(const model_node *n) { return model_node_phases_of(n)->gen; }
size_t model_node_series_count(const model_node *n) { return n->series.n; }

const series *model_node_series_at(const model_node *n, size_t i)
{
    return i < n->series.n ? ((const ser_ent *)n->series.v[i])->s : NULL;
}

static int key_eq(const void *item, const void *key)
{
    const ser_ent *e = item;
    const sm_str *k = key;
    return e->lt == k[0].len && e->ld == k[1].len && e->ln == k[2].len &&
           !strcmp(series_type(e->s), k[0].ptr) && !strcmp(series_dimension(e->s), k[1].ptr) &&
           !strcmp(series_name(e->s), k[2].ptr);
}

const series *model_node_find_series(const model_node *n, const char *type,
                                     const char *dimension, const char *name)
{
    sm_str k[3] = {sm_str_c(type), sm_str_c(dimension), sm_str_c(name ? name : "")};
    const ser_ent *e = idmap_find(&n->series_map, idmap_hash(k, 3), key_eq, k);
    return e ? e->s : NULL;
}

const series *model_node_cpu_total(const model_node *n)
{
    /* The total exists from the first core on; it is empty until the
     * first timestamp group completes. */
    return n->cpu_total && series_generation(n->cpu_total) ? n->cpu_total : NULL;
}

size_t model_node_cpu_count(const model_node *n) { return n->cores.n; }

const series *model_node_cpu_core(const model_node *n, size_t i)
{
    return i < n->cores.n ? n->cores.v[i] : NULL;
}

size_t model_node_gpu_count(const model_node *n) { return n->ngpus; }

const char *model_node_gpu_name(const model_node *n, size_t i)
{
    return i < n->ngpus ? n->gpus[i].name : NULL;
}

const series *model_node_gpu_util(const model_node *n, size_t i)
{
    return i < n->ngpus ? n->gpus[i].util : NULL;
}

const series *model_node_gpu_mem(const model_node *n, size_t i)
{
    return i < n->ngpus ? n->gpus[i].mem : NULL;
}

const series *model_node_host_mem(const model_node *n) { return n->host_mem; }
size_t model_node_io_count(const model_node *n) { return n->io.n; }
size_t model_node_net_count(const model_node *n) { return n->net.n; }

const series *model_node_io_at(const model_node *n, size_t i)
{
    return i < n->io.n ? n->io.v[i] : NULL;
}

const series *model_node_net_at(const model_node *n, size_t i)
{
    return i < n->net.n ? n->net.v[i] : NULL;
}

size_t model_node_phase_count(const model_node *n) { return model_node_phases_of(n)->phases.n; }

const phase_stats *model_node_phase_at(const model_node *n, size_t i)
{
    n = model_node_phases_of(n);
    return i < n->phases.n ? n->phases.v[i] : NULL;
}

static int label_is(const void *item, const void *key)
{
    return strcmp(phase_stats_label(item), key) == 0;
}

const phase_stats *model_node_find_phase(const model_node *n, const char *label)
{
    sm_str k = sm_str_c(label);
    n = model_node_phases_of(n);
    return idmap_find(&n->phase_map, idmap_hash(&k, 1), label_is, label);
}

size_t model_node_extra_key_count(const model_node *n) { return n->nextra; }

const char *model_node_extra_key_at(const model_node *n, size_t i)
{
    return i < n->nextra ? n->extra[i] : NULL;
}

int model_sample_span(const model *m, int64_t *first_us, int64_t *last_us)
{
    int any = 0;
    int64_t lo = 0, hi = 0;
    for (size_t i = 0; i < model_node_count(m); i++) {
        const model_node *n = model_node_at(m, i);
        for (size_t k = 0; k < n->series.n; k++) {
            int64_t a, b;
            if (series_extent(model_node_series_at(n, k), &a, &b) == 0)
                continue;
            lo = !any || a < lo ? a : lo;
            hi = !any || b > hi ? b : hi;
            any = 1;
        }
    }
    if (any) {
        *first_us = lo;
        *last_us = hi;
    }
    return any;
}
