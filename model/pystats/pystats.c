/* pystats: names, windows and the store. Merging and sorting live in
 * pystats_query.c. */
#include "model/pystats/pystats.h"

#include <stdlib.h>
#include <string.h>

#include "model/pystats/pystats_pool.h"
#include "model/util/vec.h"

static const char *const mode_names[] = {
    "", "train", "eval", "predict", "global", "prestepzero", "posthookclose"};
static const char *const phase_names[] = {
    "", "start", "stepstart", "forwardpassend", "stepend", "end"};

const char *pystats_mode_name(pystats_mode m)
{
    return (unsigned)m < sizeof mode_names / sizeof *mode_names ? mode_names[m] : "";
}

const char *pystats_phase_name(pystats_phase p)
{
    return (unsigned)p < sizeof phase_names / sizeof *phase_names ? phase_names[p] : "";
}

static int word_lookup(const char *const *names, int n, const char *s, size_t len)
{
    for (int i = 1; i < n; i++)
        if (strlen(names[i]) == len && memcmp(names[i], s, len) == 0)
            return i;
    return -1;
}

int pystats_mode_parse(const char *s, size_t len, pystats_mode *out)
{
    int i = word_lookup(mode_names, (int)(sizeof mode_names / sizeof *mode_names), s, len);
    if (i < 0)
        return -1;
    *out = (pystats_mode)i;
    return 0;
}

int pystats_phase_parse(const char *s, size_t len, pystats_phase *out)
{
    int i = word_lookup(phase_names, (int)(sizeof phase_names / sizeof *phase_names), s, len);
    if (i < 0)
        return -1;
    *out = (pystats_phase)i;
    return 0;
}

unsigned pystats_window_jobphase(const pystats_window *w)
{
    if (w->legacy)
        return w->start_step < 0 ? PYJOB_BEFORE_STEP0 : PYJOB_TRAINING;
    if (w->start_mode == PYMODE_PRESTEPZERO)
        return PYJOB_BEFORE_STEP0;
    if (w->end_mode == PYMODE_POSTHOOKCLOSE || w->start_mode == PYMODE_POSTHOOKCLOSE)
        return PYJOB_AFTER_CLOSE;
    return PYJOB_TRAINING;
}

int64_t pystats_sat_add(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r))
        return b > 0 ? INT64_MAX : INT64_MIN;
    return r;
}

void pystats_call_add(pystats_call *dst, const pystats_call *src)
{
    dst->pcalls = pystats_sat_add(dst->pcalls, src->pcalls);
    dst->ncalls = pystats_sat_add(dst->ncalls, src->ncalls);
    dst->tottime += src->tottime;
    dst->cumtime += src->cumtime;
}

/* ---- windows ---- */

pystats_win *pystats_win_new(pystats_store *s, const pystats_window *info)
{
    pystats_win *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->owner = s;
    w->info = *info;
    w->info.node[sizeof w->info.node - 1] = '\0';
    w->info.framework[sizeof w->info.framework - 1] = '\0';
    return w;
}

void pystats_win_free(pystats_win *w)
{
    if (!w)
        return;
    free(w->key);
    for (size_t i = 0; i < w->nfch; i++)
        free(w->fch[i]);
    for (size_t i = 0; i < w->nech; i++)
        free(w->ech[i]);
    free(w->fch);
    free(w->ech);
    free(w);
}

void pystats_win_set_failed(pystats_win *w)
{
    w->failed = 1;
}

/* Makes room for `need` items in chunks of PW_CHUNK. */
static int chunks_reserve(void ***ch, size_t *nch, size_t need, size_t elem)
{
    size_t want = (need + PW_CHUNK - 1) / PW_CHUNK;
    if (want <= *nch)
        return 0;
    void **n = realloc(*ch, want * sizeof *n);
    if (!n)
        return -1;
    *ch = n;
    while (*nch < want)
        if (!(n[*nch] = malloc(PW_CHUNK * elem)))
            return -1;
        else
            (*nch)++;
    return 0;
}

/* A stored window no longer grows: the last chunk shrinks to what it
 * holds (in place, no copy), so small windows stay small. */
static void chunks_trim(void **ch, size_t nch, size_t n, size_t elem)
{
    if (nch == 0 || n % PW_CHUNK == 0)
        return;
    void *p = realloc(ch[nch - 1], (n % PW_CHUNK) * elem);
    if (p)
        ch[nch - 1] = p;
}

/* Everything that can fail happens before the window changes. */
static int win_reserve(pystats_win *w, const pystats_func_rec *f, uint32_t *ids)
{
    pystats_store *s = w->owner;
    if (pystats_keys_intern(&s->keys, &s->strs, f->file, f->line, f->name, &ids[0]) < 0)
        return -1;
    for (size_t i = 0; i < f->ncallers; i++) {
        const pystats_caller_rec *c = &f->callers[i];
        if (pystats_keys_intern(&s->keys, &s->strs, c->file, c->line, c->name, &ids[1 + i]) < 0)
            return -1;
    }
    if (chunks_reserve((void ***)&w->fch, &w->nfch, w->nf + 1, sizeof(pw_func)) < 0 ||
        chunks_reserve((void ***)&w->ech, &w->nech, w->ne + f->ncallers, sizeof(pw_edge)) < 0)
        return -1;
    return 0;
}

int pystats_win_add(pystats_win *w, const pystats_func_rec *f)
{
    uint32_t small[16], *ids = small;
    if (f->ncallers >= 16) {
        if (f->ncallers > SIZE_MAX / sizeof *ids - 1)
            return -1;
        ids = malloc((1 + f->ncallers) * sizeof *ids);
        if (!ids)
            return -1;
    }
    int rc = win_reserve(w, f, ids);
    if (rc == 0) {
        /* Appended as is: a function seen twice is summed by the merge in
         * pystats_store_query, like the same function in two windows. */
        uint32_t fi = (uint32_t)w->nf++;
        *PW_F(w, fi) = (pw_func){f->c, ids[0]};
        for (size_t i = 0; i < f->ncallers; i++, w->ne++)
            *PW_E(w, w->ne) = (pw_edge){f->callers[i].c, fi, ids[1 + i]};
    }
    if (ids != small)
        free(ids);
    return rc;
}

/* ---- store ---- */

pystats_store *pystats_store_new(void)
{
    return calloc(1, sizeof(pystats_store));
}

void pystats_store_free(pystats_store *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        pystats_win_free(s->w[i]);
    free(s->w);
    pystats_win_free(s->building);
    pystats_keys_free(&s->keys);
    pystats_pool_free(&s->strs);
    free(s);
}

static int win_cmp(const pystats_win *a, const pystats_win *b)
{
    if (a->info.start_us != b->info.start_us)
        return a->info.start_us < b->info.start_us ? -1 : 1;
    int c = strcmp(a->info.node, b->info.node);
    return c ? c : strcmp(a->key, b->key);
}

int pystats_store_put(pystats_store *s, const char *key, pystats_win *w)
{
    char *k = strdup(key);
    if (!k)
        return -1;
    size_t old = s->n;
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->w[i]->key, key) == 0)
            old = i;
    if (old == s->n && vec_grow(&s->w, &s->cap, s->n + 1, sizeof *s->w, 64) < 0) {
        free(k);
        return -1;
    }
    free(w->key);
    w->key = k;
    chunks_trim((void **)w->fch, w->nfch, w->nf, sizeof(pw_func));
    chunks_trim((void **)w->ech, w->nech, w->ne, sizeof(pw_edge));
    if (old < s->n) {
        pystats_win_free(s->w[old]);
        memmove(s->w + old, s->w + old + 1, (s->n - old - 1) * sizeof *s->w);
        s->n--;
    }
    size_t at = s->n;
    while (at > 0 && win_cmp(s->w[at - 1], w) > 0)
        at--;
    memmove(s->w + at + 1, s->w + at, (s->n - at) * sizeof *s->w);
    s->w[at] = w;
    s->n++;
    s->gen++;
    return 0;
}

size_t pystats_store_window_count(const pystats_store *s)
{
    return s->n;
}

const pystats_window *pystats_store_window_at(const pystats_store *s, size_t i,
                                              int *failed, size_t *nfuncs)
{
    if (i >= s->n)
        return NULL;
    if (failed)
        *failed = s->w[i]->failed;
    if (nfuncs)
        *nfuncs = s->w[i]->nf;
    return &s->w[i]->info;
}

uint64_t pystats_store_generation(const pystats_store *s)
{
    return s->gen;
}

/* ---- selection ---- */

void pystats_select_all(pystats_select *sel, pystats_profiler p)
{
    memset(sel, 0, sizeof *sel);
    sel->profiler = p;
    sel->step_lo = INT64_MIN;
    sel->step_hi = INT64_MAX;
}

static int steps_selected(const pystats_window *w, const pystats_select *sel)
{
    if (sel->step_lo == INT64_MIN && sel->step_hi == INT64_MAX)
        return 1;
    int64_t lo = w->start_step, hi = w->end_step;
    if (lo == PYSTATS_NO_STEP)
        lo = hi;
    if (hi == PYSTATS_NO_STEP)
        hi = lo;
    if (lo == PYSTATS_NO_STEP)   /* no step at all: only an open range selects it */
        return 0;
    return sel->step_lo <= lo && hi <= sel->step_hi;
}

static int mode_selected(const pystats_window *w, const pystats_select *sel)
{
    return sel->mode == PYMODE_NONE || w->legacy ||
           (w->start_mode == sel->mode && w->end_mode == sel->mode);
}

int pystats_window_selected(const pystats_window *w, const pystats_select *sel)
{
    if (w->profiler != sel->profiler)
        return 0;
    if (sel->node && sel->node[0] && strcmp(sel->node, w->node) != 0)
        return 0;
    if (sel->jobphases && !(sel->jobphases & pystats_window_jobphase(w)))
        return 0;
    if (sel->t_lo_us && w->end_us < sel->t_lo_us)
        return 0;
    if (sel->t_hi_us && w->start_us >= sel->t_hi_us)
        return 0;
    return mode_selected(w, sel) && steps_selected(w, sel);
}
