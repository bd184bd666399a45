/* model_gpu: see model_gpu.h. A sorted array of rows; a job has a few
 * hundred ranks at most, so insertion keeps it simple. */
#include "model/core/model_gpu.h"

#include <stdlib.h>
#include <string.h>

#include "model/core/model_node.h"
#include "model/util/vec.h"

typedef struct model_gpus {
    model_gpu_row *v;
    size_t n, cap;
} model_gpus;

void model_gpus_free(model_gpus *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->n; i++) {
        free((char *)g->v[i].node);
        free((char *)g->v[i].process);
        gpu_rank_free((gpu_rank *)g->v[i].gpu);
    }
    free(g->v);
    free(g);
}

static int row_cmp(const model_gpu_row *r, const char *node, const char *process)
{
    int c = model_natural_cmp(r->node, node);
    return c ? c : model_natural_cmp(r->process, process);
}

/* The row's index, or where it goes (*found 0). */
static size_t row_pos(const model_gpus *g, const char *node, const char *process, int *found)
{
    size_t lo = 0, hi = g ? g->n : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (row_cmp(&g->v[mid], node, process) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = g && lo < g->n && !row_cmp(&g->v[lo], node, process);
    return lo;
}

static model_gpu_row *row_get(model *m, const char *node, const char *process, int64_t rank)
{
    model_gpus **gp = model_gpus_ref(m);
    if (!*gp && !(*gp = calloc(1, sizeof **gp)))
        return NULL;
    model_gpus *g = *gp;
    int found;
    size_t pos = row_pos(g, node, process, &found);
    if (found)
        return &g->v[pos];
    if (vec_grow(&g->v, &g->cap, g->n + 1, sizeof *g->v, 16) != 0)
        return NULL;
    model_gpu_row r = {strdup(node), strdup(process), rank, 0, gpu_rank_new()};
    model_config c = model_get_config(m);
    /* --since/--until: a rank's figures count the steps that overlap
     * the window, as the model keeps an event (gpu_rank_set_filter) */
    if (r.gpu && (c.since_us || c.until_us) &&
        gpu_rank_set_filter((gpu_rank *)r.gpu, c.since_us ? c.since_us : GPU_WINDOW_ALL + 1,
                            c.until_us ? c.until_us : INT64_MAX) != 0) {
        gpu_rank_free((gpu_rank *)r.gpu);
        r.gpu = NULL;
    }
    if (!r.node || !r.process || !r.gpu) {
        free((char *)r.node);
        free((char *)r.process);
        gpu_rank_free((gpu_rank *)r.gpu);
        return NULL;
    }
    memmove(&g->v[pos + 1], &g->v[pos], (g->n - pos) * sizeof *g->v);
    g->v[pos] = r;
    g->n++;
    return &g->v[pos];
}

int model_gpu_merge(model *m, const char *node, const char *process, int64_t rank,
                    const gpu_trace *t, int placed)
{
    model_gpu_row *r = row_get(m, node, process, rank);
    if (!r)
        return -1;
    if (rank >= 0)
        r->rank = rank;
    if (!placed)
        r->unplaced++;
    int rc = gpu_rank_merge((gpu_rank *)r->gpu, t);
    model_bump_generation(m);
    return rc;
}

size_t model_gpu_count(const model *m)
{
    const model_gpus *g = *model_gpus_ref((model *)m);
    return g ? g->n : 0;
}

const model_gpu_row *model_gpu_at(const model *m, size_t i)
{
    const model_gpus *g = *model_gpus_ref((model *)m);
    return g && i < g->n ? &g->v[i] : NULL;
}

const gpu_rank *model_process_gpu(const model *m, const char *node, const char *process)
{
    const model_gpus *g = *model_gpus_ref((model *)m);
    int found;
    size_t pos = row_pos(g, node, process, &found);
    return found ? g->v[pos].gpu : NULL;
}
