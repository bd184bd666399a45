/* joblist: rows by name, merged and viewed; see joblist.h. */
#include "model/jobs/joblist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/util/idmap.h"
#include "model/util/name_match.h"
#include "model/util/stable_sort.h"
#include "model/util/vec.h"

struct joblist {
    jobrow *rows;
    size_t n, cap;
    idmap by_name;   /* item: row index + 1 */
};

static const char *const col_names[JOBCOL_COUNT] = {
    "name", "status", "type", "age", "train", "gpu%", "cpu%", "mem%",
    "step", "alerts", "idle-gpu-h", "inst-h"};

const char *joblist_col_name(jobcol c)
{
    return c < JOBCOL_COUNT ? col_names[c] : "?";
}

int joblist_col_parse(const char *s)
{
    for (int c = 0; c < JOBCOL_COUNT; c++)
        if (!strcasecmp(s, col_names[c]))
            return c;
    return -1;
}

joblist *joblist_new(void)
{
    joblist *l = calloc(1, sizeof *l);
    if (l)
        idmap_init(&l->by_name);
    return l;
}

void joblist_free(joblist *l)
{
    if (!l)
        return;
    idmap_free(&l->by_name);
    free(l->rows);
    free(l);
}

typedef struct name_key {
    const joblist *l;
    const char *name;
} name_key;

static int row_eq(const void *item, const void *key)
{
    const name_key *k = key;
    return !strcmp(k->l->rows[(uintptr_t)item - 1].name, k->name);
}

static uint64_t name_hash(const char *name)
{
    sm_str s = sm_str_c(name);
    return idmap_hash(&s, 1);
}

static jobrow *row_find(const joblist *l, const char *name)
{
    name_key k = {l, name};
    void *it = idmap_find(&l->by_name, name_hash(name), row_eq, &k);
    return it ? &l->rows[(uintptr_t)it - 1] : NULL;
}

const jobrow *joblist_find(const joblist *l, const char *name)
{
    return row_find(l, name);
}

int joblist_put(joblist *l, const jobrow *r)
{
    jobrow *have = row_find(l, r->name);
    if (have) {
        *have = *r;
        return 0;
    }
    if (vec_grow(&l->rows, &l->cap, l->n + 1, sizeof *l->rows, 64) != 0 ||
        idmap_reserve(&l->by_name, 1) != 0)
        return -1;
    l->rows[l->n] = *r;
    l->n++;
    return idmap_put(&l->by_name, name_hash(r->name), (void *)(uintptr_t)l->n);
}

int joblist_put_summary(joblist *l, const jobrow *sum)
{
    jobrow *have = row_find(l, sum->name);
    if (!have)
        return joblist_put(l, sum);
    if (have->described && !jobrow_ended(have) && jobrow_ended(sum))
        have->described = 0;   /* one last describe for the final figures */
    memcpy(have->status, sum->status, sizeof have->status);
    if (sum->created_s > 0)
        have->created_s = sum->created_s;
    if (sum->end_s > 0)
        have->end_s = sum->end_s;
    if (sum->updated_s > have->updated_s)
        have->updated_s = sum->updated_s;
    return 0;
}

void joblist_put_figures(joblist *l, const jobrow *r)
{
    jobrow *have = row_find(l, r->name);
    if (have)
        jobrow_take_figures(have, r);
}

size_t joblist_count(const joblist *l)
{
    return l->n;
}

const jobrow *joblist_at(const joblist *l, size_t i)
{
    return i < l->n ? &l->rows[i] : NULL;
}

typedef struct sort_ent {
    double k;            /* numeric key, NaN unknown */
    const char *s;       /* text key, or NULL for numeric columns */
    uint32_t idx;
    int desc;
} sort_ent;

/* Unknown figures sort last in both directions; text compares bytewise
 * ignoring case. */
static int ent_less(const sort_ent *a, const sort_ent *b)
{
    if (a->s) {
        int c = strcasecmp(a->s, b->s);
        return a->desc ? c > 0 : c < 0;
    }
    if (isnan(a->k) || isnan(b->k))
        return !isnan(a->k) && isnan(b->k);
    return a->desc ? a->k > b->k : a->k < b->k;
}

STABLE_SORT_DEFINE(sort_ents, sort_ent, ent_less(&A, &B))

static double col_value(const jobrow *r, jobcol c, double now)
{
    switch (c) {
    case JOBCOL_AGE:
        return r->created_s > 0 ? now - r->created_s : NAN;
    case JOBCOL_TRAIN:
        return jobrow_train_s(r, now);
    case JOBCOL_GPU:
        return r->gpu_pct;
    case JOBCOL_CPU:
        return r->cpu_pct;
    case JOBCOL_MEM:
        return r->mem_pct;
    case JOBCOL_STEP:
        return r->step_p50_ms;
    case JOBCOL_ALERTS:
        return r->alerts;
    case JOBCOL_IDLE:
        return r->idle_gpu_h;
    case JOBCOL_INSTH:
        return jobrow_instance_hours(r, now);
    case JOBCOL_TYPE:
        return r->instance_count;   /* after the type's name */
    default:
        return NAN;
    }
}

static const char *col_text(const jobrow *r, jobcol c)
{
    switch (c) {
    case JOBCOL_NAME:
        return r->name;
    case JOBCOL_STATUS:
        return r->status;
    case JOBCOL_TYPE:
        return r->instance_type;
    default:
        return NULL;
    }
}

static size_t view_collect(const joblist *l, const joblist_view_opts *o, sort_ent *e)
{
    size_t m = 0;
    const char *pat = o->filter ? o->filter : "";
    for (size_t i = 0; i < l->n; i++) {
        const jobrow *r = &l->rows[i];
        if (!name_match(pat, r->name))
            continue;
        if (o->faults_only && !jobrow_is_fault(r, o->now_s, o->stale_s))
            continue;
        e[m++] = (sort_ent){col_value(r, o->sort, o->now_s), col_text(r, o->sort),
                            (uint32_t)i, o->desc};
    }
    return m;
}

long joblist_view(const joblist *l, const joblist_view_opts *o, uint32_t *idx, size_t cap)
{
    sort_ent *e = malloc((l->n ? l->n : 1) * 2 * sizeof *e);
    if (!e)
        return -1;
    size_t m = view_collect(l, o, e);
    if (o->sort == JOBCOL_TYPE) {
        /* by type, then count: two stable passes */
        for (size_t i = 0; i < m; i++)
            e[i].s = NULL;
        sort_ents(e, e + l->n, m);
        for (size_t i = 0; i < m; i++)
            e[i].s = l->rows[e[i].idx].instance_type;
    }
    sort_ents(e, e + l->n, m);
    for (size_t i = 0; i < m && i < cap; i++)
        idx[i] = e[i].idx;
    free(e);
    return (long)m;
}
