/* pystats_merge: pystats_store_query — the pstats.add merge of selected
 * windows, then the caller/callee indexes. */
#include <stdlib.h>
#include <string.h>

#include "model/pystats/pystats.h"
#include "model/pystats/pystats_pool.h"

typedef struct merge {
    const pystats_store *s;
    pystats_result *r;
    size_t capf, capw;
    uint32_t *mof;          /* store key id -> merged index (PMAP_NONE: not yet) */
    pmap emap;
    m_edge *e;
    size_t ne, cape;
    uint32_t *local;        /* window function index -> merged index */
    size_t caplocal;
} merge;

static int grow_n(void **arr, size_t ncap, size_t elem)
{
    void *p = realloc(*arr, ncap * elem);
    if (!p)
        return -1;
    *arr = p;
    return 0;
}

static int grow_funcs(merge *mg)
{
    pystats_result *r = mg->r;
    if (r->nf < mg->capf)
        return 0;
    size_t nc = mg->capf ? mg->capf * 2 : 256;
    if (grow_n((void **)&r->f, nc, sizeof *r->f) < 0 ||
        grow_n((void **)&r->fid, nc, sizeof *r->fid) < 0 ||
        grow_n((void **)&r->nid, nc, sizeof *r->nid) < 0 ||
        grow_n((void **)&r->flen, nc, sizeof *r->flen) < 0 ||
        grow_n((void **)&r->nlen, nc, sizeof *r->nlen) < 0)
        return -1;
    mg->capf = nc;
    return 0;
}

static int merge_func(merge *mg, const pw_func *wf, uint32_t *mi)
{
    pystats_result *r = mg->r;
    const pool *p = &mg->s->strs;
    const pkeys *k = &mg->s->keys;
    if (mg->mof[wf->key] == PMAP_NONE) {
        if (grow_funcs(mg) < 0)
            return -1;
        size_t i = r->nf++;
        uint32_t fi = k->file[wf->key], ni = k->name[wf->key];
        r->f[i] = (pystats_func){p->str[fi], k->line[wf->key], p->str[ni], {0, 0, 0, 0}};
        r->fid[i] = fi;
        r->nid[i] = ni;
        r->flen[i] = p->len[fi];
        r->nlen[i] = p->len[ni];
        mg->mof[wf->key] = (uint32_t)i;
    }
    *mi = mg->mof[wf->key];
    pystats_call_add(&r->f[*mi].c, &wf->c);
    return 0;
}

static int merge_edge(merge *mg, const pw_edge *we, uint32_t callee)
{
    uint32_t ei;
    int added;
    if (mg->ne == mg->cape) {
        size_t nc = mg->cape ? mg->cape * 2 : 256;
        if (grow_n((void **)&mg->e, nc, sizeof *mg->e) < 0)
            return -1;
        mg->cape = nc;
    }
    if (pystats_map_put(&mg->emap, (pmap_key){we->key, 0, callee, 0}, (uint32_t)mg->ne, &ei,
                        &added) < 0)
        return -1;
    if (added)
        mg->e[mg->ne++] = (m_edge){{0, 0, 0, 0}, callee, we->key};
    pystats_call_add(&mg->e[ei].c, &we->c);
    return 0;
}

static int merge_window(merge *mg, const pystats_win *w)
{
    pystats_result *r = mg->r;
    if (r->nw == mg->capw) {
        size_t nc = mg->capw ? mg->capw * 2 : 16;
        if (grow_n((void **)&r->wins, nc, sizeof *r->wins) < 0 ||
            grow_n((void **)&r->wfailed, nc, sizeof *r->wfailed) < 0)
            return -1;
        mg->capw = nc;
    }
    r->wins[r->nw] = w->info;
    r->wfailed[r->nw++] = w->failed;
    r->nfailed += w->failed != 0;
    if (w->nf > mg->caplocal) {
        if (grow_n((void **)&mg->local, w->nf, sizeof *mg->local) < 0)
            return -1;
        mg->caplocal = w->nf;
    }
    /* pstats sums each file's totals first, then adds them up. */
    pystats_call tot = {0, 0, 0, 0};
    for (size_t j = 0; j < w->nf; j++) {
        const pw_func *wf = PW_F(w, j);
        if (merge_func(mg, wf, &mg->local[j]) < 0)
            return -1;
        tot.pcalls = pystats_sat_add(tot.pcalls, wf->c.pcalls);
        tot.ncalls = pystats_sat_add(tot.ncalls, wf->c.ncalls);
        tot.tottime += wf->c.tottime;
    }
    pystats_call_add(&r->total, &tot);
    for (size_t j = 0; j < w->ne; j++)
        if (merge_edge(mg, PW_E(w, j), mg->local[PW_E(w, j)->callee]) < 0)
            return -1;
    return 0;
}

/* ---- caller / callee indexes ---- */

typedef struct edge_ctx {
    const merge *mg;
    const uint32_t *group;  /* group (function) of each edge */
    int callees;            /* order peers by callee instead of caller key */
} edge_ctx;

static int cmp_edge(const void *pa, const void *pb, void *ud)
{
    const edge_ctx *ec = ud;
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    if (ec->group[a] != ec->group[b])
        return ec->group[a] < ec->group[b] ? -1 : 1;
    const m_edge *ea = &ec->mg->e[a], *eb = &ec->mg->e[b];
    if (ea->c.cumtime != eb->c.cumtime)
        return ea->c.cumtime > eb->c.cumtime ? -1 : 1;
    const pool *p = &ec->mg->s->strs;
    const pkeys *k = &ec->mg->s->keys;
    const pystats_result *r = ec->mg->r;
    /* The peer's key: the callee's for callee lists, else the caller's. */
    uint32_t fa, fb, na, nb;
    int64_t la, lb;
    if (ec->callees) {
        fa = r->fid[ea->callee], na = r->nid[ea->callee], la = r->f[ea->callee].line;
        fb = r->fid[eb->callee], nb = r->nid[eb->callee], lb = r->f[eb->callee].line;
    } else {
        fa = k->file[ea->key], na = k->name[ea->key], la = k->line[ea->key];
        fb = k->file[eb->key], nb = k->name[eb->key], lb = k->line[eb->key];
    }
    int c = fa == fb ? 0 : strcmp(p->str[fa], p->str[fb]);
    if (c)
        return c;
    if (la != lb)
        return la < lb ? -1 : 1;
    return na == nb ? 0 : strcmp(p->str[na], p->str[nb]);
}

/* Edges grouped by `group` (PMAP_NONE = left out), each group ordered. */
static int build_index(merge *mg, const uint32_t *group, int callees,
                       pystats_edge **out, uint32_t **peer, size_t **off)
{
    pystats_result *r = mg->r;
    size_t n = 0;
    uint32_t *idx = malloc((mg->ne + 1) * sizeof *idx);
    *off = calloc(r->nf + 1, sizeof **off);
    *out = malloc((mg->ne + 1) * sizeof **out);
    *peer = malloc((mg->ne + 1) * sizeof **peer);
    if (!idx || !*off || !*out || !*peer) {
        free(idx);
        return -1;
    }
    for (size_t i = 0; i < mg->ne; i++)
        if (group[i] != PMAP_NONE) {
            idx[n++] = (uint32_t)i;
            (*off)[group[i] + 1]++;
        }
    edge_ctx ec = {mg, group, callees};
    qsort_r(idx, n, sizeof *idx, cmp_edge, &ec);
    for (size_t g = 0; g < r->nf; g++)
        (*off)[g + 1] += (*off)[g];
    const pool *p = &mg->s->strs;
    const pkeys *ks = &mg->s->keys;
    for (size_t k = 0; k < n; k++) {
        const m_edge *e = &mg->e[idx[k]];
        if (callees) {
            (*out)[k].peer = r->f[e->callee];
            (*peer)[k] = e->callee;
        } else {
            (*out)[k].peer = (pystats_func){p->str[ks->file[e->key]], ks->line[e->key],
                                            p->str[ks->name[e->key]], {0, 0, 0, 0}};
            (*peer)[k] = mg->mof[e->key];
        }
        (*out)[k].peer.c = e->c;
        (*out)[k].peer_index = -1;
    }
    free(idx);
    return 0;
}

static int build_edges(merge *mg)
{
    pystats_result *r = mg->r;
    uint32_t *g = malloc((mg->ne + 1) * sizeof *g);
    if (!g)
        return -1;
    for (size_t i = 0; i < mg->ne; i++)
        g[i] = mg->e[i].callee;
    int rc = build_index(mg, g, 0, &r->callers, &r->caller_peer, &r->coff);
    for (size_t i = 0; rc == 0 && i < mg->ne; i++)
        g[i] = mg->mof[mg->e[i].key];
    if (rc == 0)
        rc = build_index(mg, g, 1, &r->callees, &r->callee_peer, &r->eoff);
    free(g);
    return rc;
}

pystats_result *pystats_store_query(const pystats_store *s, const pystats_select *sel,
                                    sm_err *err)
{
    merge mg = {.s = s, .r = calloc(1, sizeof(pystats_result)),
                .mof = malloc((s->keys.n + 1) * sizeof(uint32_t))};
    int rc = mg.r && mg.mof ? 0 : -1;
    if (mg.mof)
        memset(mg.mof, 0xff, (s->keys.n + 1) * sizeof(uint32_t));
    for (size_t i = 0; rc == 0 && i < s->n; i++)
        if (pystats_window_selected(&s->w[i]->info, sel))
            rc = merge_window(&mg, s->w[i]);
    if (rc == 0)
        rc = build_edges(&mg);
    if (rc == 0) {
        mg.r->order = malloc((mg.r->nf + 1) * sizeof *mg.r->order);
        mg.r->rank = malloc((mg.r->nf + 1) * sizeof *mg.r->rank);
        rc = mg.r->order && mg.r->rank ? 0 : -1;
    }
    if (rc == 0)
        pystats_result_sort(mg.r, PYSORT_TOTTIME);
    free(mg.mof);
    pystats_map_free(&mg.emap);
    free(mg.e);
    free(mg.local);
    if (rc < 0) {
        pystats_result_free(mg.r);
        sm_err_set(err, SM_ERR_NOMEM, "out of memory merging Python stats");
        return NULL;
    }
    return mg.r;
}
