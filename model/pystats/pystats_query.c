/* pystats_query: merge the selected windows like pstats.add, sort, and
 * index callers/callees. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/pystats/pystats.h"
#include "model/pystats/pystats_pool.h"

/* ---- sorting ---- */

static const char *const sort_names[PYSORT_COUNT] = {
    "tottime", "cumtime", "ncalls", "pcalls", "tpercall", "cpercall"};

const char *pystats_sort_name(pystats_sort k)
{
    return (unsigned)k < PYSORT_COUNT ? sort_names[k] : "";
}

int pystats_sort_parse(const char *s, pystats_sort *out)
{
    static const struct { const char *alias; pystats_sort k; } aliases[] = {
        {"time", PYSORT_TOTTIME}, {"cumulative", PYSORT_CUMTIME},
        {"calls", PYSORT_NCALLS}};
    for (int i = 0; i < PYSORT_COUNT; i++)
        if (strcmp(s, sort_names[i]) == 0) {
            *out = (pystats_sort)i;
            return 0;
        }
    for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++)
        if (strcmp(s, aliases[i].alias) == 0) {
            *out = aliases[i].k;
            return 0;
        }
    return -1;
}

double pystats_func_sort_value(const pystats_func *f, pystats_sort key)
{
    switch (key) {
    case PYSORT_CUMTIME: return f->c.cumtime;
    case PYSORT_NCALLS: return (double)f->c.ncalls;
    case PYSORT_PCALLS: return (double)f->c.pcalls;
    case PYSORT_TPERCALL: return f->c.ncalls ? f->c.tottime / (double)f->c.ncalls : 0;
    case PYSORT_CPERCALL: return f->c.pcalls ? f->c.cumtime / (double)f->c.pcalls : 0;
    default: return f->c.tottime;
    }
}

/* Descending; NaN (only from corrupt data) sorts last. */
static int cmp_desc_d(double a, double b)
{
    if (a == b || (a != a && b != b))
        return 0;
    if (a != a)
        return 1;
    if (b != b)
        return -1;
    return a > b ? -1 : 1;
}

static int cmp_bytes(const char *a, size_t al, const char *b, size_t bl)
{
    int c = memcmp(a, b, al < bl ? al : bl);
    return c ? c : (al > bl) - (al < bl);
}

typedef struct sort_ctx {
    const pystats_result *r;
    pystats_sort key;
} sort_ctx;

static int cmp_func(const void *pa, const void *pb, void *ud)
{
    const sort_ctx *sc = ud;
    const pystats_result *r = sc->r;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const pystats_func *fa = &r->f[a], *fb = &r->f[b];
    int c;
    /* Counts compare as integers: doubles lose precision past 2^53. */
    if (sc->key == PYSORT_NCALLS)
        c = (fa->c.ncalls < fb->c.ncalls) - (fa->c.ncalls > fb->c.ncalls);
    else if (sc->key == PYSORT_PCALLS)
        c = (fa->c.pcalls < fb->c.pcalls) - (fa->c.pcalls > fb->c.pcalls);
    else
        c = cmp_desc_d(pystats_func_sort_value(fa, sc->key), pystats_func_sort_value(fb, sc->key));
    if (c)
        return c;
    if (r->fid[a] != r->fid[b] &&
        (c = cmp_bytes(fa->file, r->flen[a], fb->file, r->flen[b])) != 0)
        return c;
    if (fa->line != fb->line)
        return fa->line < fb->line ? -1 : 1;
    return cmp_bytes(fa->name, r->nlen[a], fb->name, r->nlen[b]);
}

static void remap_peers(pystats_result *r)
{
    size_t ne = r->coff[r->nf];
    for (size_t i = 0; i < ne; i++)
        r->callers[i].peer_index =
            r->caller_peer[i] == PMAP_NONE ? -1 : (long)r->rank[r->caller_peer[i]];
    ne = r->eoff[r->nf];
    for (size_t i = 0; i < ne; i++)
        r->callees[i].peer_index = (long)r->rank[r->callee_peer[i]];
}

void pystats_result_sort(pystats_result *r, pystats_sort key)
{
    sort_ctx sc = {r, key};
    for (size_t i = 0; i < r->nf; i++)
        r->order[i] = i;
    qsort_r(r->order, r->nf, sizeof *r->order, cmp_func, &sc);
    for (size_t i = 0; i < r->nf; i++)
        r->rank[r->order[i]] = i;
    remap_peers(r);
}

size_t pystats_result_count(const pystats_result *r)
{
    return r->nf;
}

const pystats_func *pystats_result_at(const pystats_result *r, size_t i)
{
    return i < r->nf ? &r->f[r->order[i]] : NULL;
}

pystats_call pystats_result_total(const pystats_result *r)
{
    return r->total;
}

size_t pystats_result_window_count(const pystats_result *r)
{
    return r->nw;
}

const pystats_window *pystats_result_window_at(const pystats_result *r, size_t i,
                                               int *failed)
{
    if (i >= r->nw)
        return NULL;
    if (failed)
        *failed = r->wfailed[i];
    return &r->wins[i];
}

size_t pystats_result_failed_count(const pystats_result *r)
{
    return r->nfailed;
}

size_t pystats_result_callers(const pystats_result *r, size_t i, const pystats_edge **out)
{
    if (i >= r->nf)
        return 0;
    size_t m = r->order[i];
    *out = r->callers + r->coff[m];
    return r->coff[m + 1] - r->coff[m];
}

size_t pystats_result_callees(const pystats_result *r, size_t i, const pystats_edge **out)
{
    if (i >= r->nf)
        return 0;
    size_t m = r->order[i];
    *out = r->callees + r->eoff[m];
    return r->eoff[m + 1] - r->eoff[m];
}

int pystats_func_format(const pystats_func *f, char *out, size_t cap)
{
    if (strcmp(f->file, "~") == 0 && f->line == 0) {
        size_t n = strlen(f->name);
        if (n >= 2 && f->name[0] == '<' && f->name[n - 1] == '>')
            return snprintf(out, cap, "{%.*s}", (int)(n - 2), f->name + 1);
        return snprintf(out, cap, "%s", f->name);
    }
    return snprintf(out, cap, "%s:%lld(%s)", f->file, (long long)f->line, f->name);
}

void pystats_result_free(pystats_result *r)
{
    if (!r)
        return;
    free(r->f);
    free(r->fid);
    free(r->nid);
    free(r->flen);
    free(r->nlen);
    free(r->order);
    free(r->rank);
    free(r->callers);
    free(r->callees);
    free(r->caller_peer);
    free(r->callee_peer);
    free(r->coff);
    free(r->eoff);
    free(r->wins);
    free(r->wfailed);
    free(r);
}
