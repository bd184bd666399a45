/* gpu_table: name-keyed statistics (see gpu_table.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/gpu/gpu_table.h"
#include "model/util/stable_sort.h"
#include "model/util/vec.h"

void gpu_table_init(gpu_table *t)
{
    memset(t, 0, sizeof *t);
    idmap_init(&t->map);
}

void gpu_table_free(gpu_table *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->rows[i].name);
    free(t->rows);
    idmap_free(&t->map);
    memset(t, 0, sizeof *t);
}

typedef struct key {
    const gpu_table *t;
    sm_str name;
} key;

/* Items are row index + 1 cast to a pointer: row addresses move as the
 * array grows, indices do not. */
static int row_eq(const void *item, const void *k)
{
    const key *q = k;
    const gpu_stat *r = &q->t->rows[(uintptr_t)item - 1];
    /* an event with no name comes as {NULL, 0}: memcmp takes no NULL */
    return r->len == q->name.len && (!r->len || memcmp(r->name, q->name.ptr, r->len) == 0);
}

static int64_t find_row(const gpu_table *t, sm_str name, uint64_t h)
{
    key k = {t, name};
    void *it = idmap_find(&t->map, h, row_eq, &k);
    return it ? (int64_t)((uintptr_t)it - 1) : -1;
}

int64_t gpu_table_intern(gpu_table *t, sm_str name)
{
    uint64_t h = idmap_hash(&name, 1);
    int64_t i = find_row(t, name, h);
    if (i >= 0)
        return i;
    if (vec_grow(&t->rows, &t->cap, t->n + 1, sizeof *t->rows, 64) != 0 ||
        idmap_reserve(&t->map, 1) != 0)
        return -1;
    char *copy = malloc(name.len + 1);
    if (!copy)
        return -1;
    if (name.len)
        memcpy(copy, name.ptr, name.len);
    copy[name.len] = 0;
    gpu_stat *r = &t->rows[t->n];
    memset(r, 0, sizeof *r);
    r->name = copy;
    r->len = name.len;
    r->min_us = INT64_MAX;
    (void)idmap_put(&t->map, h, (void *)(uintptr_t)(t->n + 1)); /* reserved */
    return (int64_t)t->n++;
}

int gpu_table_rename(gpu_table *t, gpu_table_name_fn fn, void *ud)
{
    idmap map;
    idmap_init(&map);
    if (idmap_reserve(&map, t->n) != 0)
        return -1;
    char **names = calloc(t->n ? t->n : 1, sizeof *names);
    size_t *lens = calloc(t->n ? t->n : 1, sizeof *lens);
    int rc = names && lens ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < t->n; i++)
        if (!(names[i] = fn(ud, t->rows[i].name, t->rows[i].len, &lens[i])))
            rc = -1;
    for (size_t i = 0; names && i < t->n; i++) {
        if (rc != 0) {
            free(names[i]);
            continue;
        }
        free(t->rows[i].name);
        t->rows[i].name = names[i];
        t->rows[i].len = lens[i];
        sm_str k = {names[i], lens[i]};
        uint64_t h = idmap_hash(&k, 1);
        key q = {t, k};
        /* two spellings of one name: found as the first, merged by
         * gpu_table_merge as one */
        if (!idmap_find(&map, h, row_eq, &q))
            (void)idmap_put(&map, h, (void *)(uintptr_t)(i + 1)); /* reserved */
    }
    free(names);
    free(lens);
    if (rc != 0) {
        idmap_free(&map);
        return -1;
    }
    idmap_free(&t->map);
    t->map = map;
    return 0;
}

const gpu_stat *gpu_table_find(const gpu_table *t, const char *name)
{
    sm_str s = sm_str_c(name);
    int64_t i = find_row(t, s, idmap_hash(&s, 1));
    return i >= 0 ? &t->rows[i] : NULL;
}

void gpu_table_count(gpu_table *t, size_t i, int64_t dur_us, int64_t self_us)
{
    gpu_stat *r = &t->rows[i];
    r->count++;
    r->sum_us += dur_us;
    r->self_us += self_us;
    if (dur_us > r->max_us || r->count == 1)
        r->max_us = dur_us;
    if (dur_us < r->min_us)
        r->min_us = dur_us;
}

int gpu_table_merge(gpu_table *dst, const gpu_table *src)
{
    return gpu_table_merge_map(dst, src, NULL);
}

int gpu_table_merge_map(gpu_table *dst, const gpu_table *src, uint32_t *map)
{
    for (size_t i = 0; i < src->n; i++) {
        const gpu_stat *s = &src->rows[i];
        if (map)
            map[i] = UINT32_MAX;
        if (s->count == 0)
            continue;
        int64_t j = gpu_table_intern(dst, (sm_str){s->name, s->len});
        if (j < 0)
            return -1;
        if (map)
            map[i] = (uint32_t)j;
        gpu_stat *d = &dst->rows[j];
        if (d->count == 0 || s->max_us > d->max_us)
            d->max_us = s->max_us;
        if (s->min_us < d->min_us)
            d->min_us = s->min_us;
        d->count += s->count;
        d->sum_us += s->sum_us;
        d->self_us += s->self_us;
        d->type = s->type;
    }
    return 0;
}

typedef struct rowref {
    const gpu_stat *r;
    int64_t k;
} rowref;

/* Ties on the sum fall back to the name, so the order never depends on
 * which trace came first. */
static int ref_less(rowref a, rowref b)
{
    if (a.k != b.k)
        return a.k > b.k;
    size_t n = a.r->len < b.r->len ? a.r->len : b.r->len;
    int c = memcmp(a.r->name, b.r->name, n);
    return c < 0 || (c == 0 && a.r->len < b.r->len);
}

STABLE_SORT_DEFINE(sort_refs, rowref, ref_less(A, B))

const gpu_stat **gpu_table_sorted(const gpu_table *t, int by_self, size_t *n)
{
    *n = 0;
    size_t m = 0;
    for (size_t i = 0; i < t->n; i++)
        m += t->rows[i].count > 0;
    if (m == 0)
        return NULL;
    rowref *refs = malloc(2 * m * sizeof *refs);
    const gpu_stat **out = malloc(m * sizeof *out);
    if (!refs || !out) {
        free(refs);
        free(out);
        return NULL;
    }
    size_t k = 0;
    for (size_t i = 0; i < t->n; i++)
        if (t->rows[i].count > 0)
            refs[k++] = (rowref){&t->rows[i],
                                 by_self ? t->rows[i].self_us : t->rows[i].sum_us};
    sort_refs(refs, refs + m, m);
    for (size_t i = 0; i < m; i++)
        out[i] = refs[i].r;
    free(refs);
    *n = m;
    return out;
}

size_t gpu_table_memory_bytes(const gpu_table *t)
{
    size_t b = t->cap * sizeof *t->rows + t->map.cap * sizeof *t->map.slots;
    for (size_t i = 0; i < t->n; i++)
        b += t->rows[i].len + 1;
    return b;
}
