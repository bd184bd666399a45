/* rule_watch: the checkpoint of a rule's walk over a unit's grid (a GPU,
 * a node), kept where no later append can change a cell, so a pass
 * resumes the walk there (see rule_impl.h). Correctness never rests on
 * where the checkpoint is: a change reaching before it starts the unit
 * over. */
#include <stdlib.h>
#include <string.h>

#include "model/rules/rule_impl.h"

static int watch_same_series(const rwatch *w, const series *const *ss, size_t n)
{
    if (w->n != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (w->ss[i] != ss[i])
            return 0;
    return 1;
}

/* Takes the cursors anew over ss; -1 on OOM. */
static int watch_restart(rwatch *w, const series *const *ss, size_t n)
{
    if (!watch_same_series(w, ss, n)) {
        rule_watch_free(w);
        w->ss = malloc((n ? n : 1) * sizeof *w->ss);
        w->cur = malloc((n ? n : 1) * sizeof *w->cur);
        w->t1_rolls = malloc(n ? n : 1);
        if (!w->ss || !w->cur || !w->t1_rolls) {
            rule_watch_free(w);
            return -1;
        }
        memcpy(w->ss, ss, n * sizeof *ss);
        w->n = n;
    }
    for (size_t i = 0; i < n; i++) {
        rule_cursor_init(&w->cur[i], ss[i]);
        w->t1_rolls[i] = 0;
    }
    w->stable = 0;
    return 0;
}

int rule_watch_advance(rwatch *w, const series *const *ss, size_t n, const rgrid *g)
{
    int ok = w->valid && watch_same_series(w, ss, n) && w->g.t0_us == g->t0_us &&
             w->g.width_us == g->width_us && g->n >= w->g.n;
    for (size_t i = 0; ok && i < n; i++) {
        rspan sp[RCURSOR_SPANS];
        int r = rule_cursor_advance(&w->cur[i], sp);
        if (r < 0)
            ok = 0;
        for (int k = 0; k < r; k++) {
            if (rule_grid_cell_at(g, sp[k].t0) < w->stable)
                ok = 0;
            else if (sp[k].kind == RSPAN_T1)
                w->t1_rolls[i] = 1;
        }
    }
    if (ok)
        return 1;
    w->valid = 0;
    return watch_restart(w, ss, n) < 0 ? -1 : 0;
}

size_t rule_watch_keep(const rwatch *w, const rgrid *g)
{
    size_t to = g->n;
    for (size_t i = 0; i < w->n; i++) {
        const rcursor *c = &w->cur[i];
        int64_t keep = c->raw_from - SERIES_T1_WIDTH_US;
        if (w->t1_rolls[i] && c->t1_from - SERIES_T2_WIDTH_US < keep)
            keep = c->t1_from - SERIES_T2_WIDTH_US;
        size_t k = rule_grid_cell_at(g, keep);
        if (k < to)
            to = k;
    }
    return to > w->stable ? to : w->stable;
}

void rule_watch_done(rwatch *w, const rgrid *g)
{
    w->g = *g;
    w->valid = 1;
}

void rule_watch_free(rwatch *w)
{
    free(w->ss);
    free(w->cur);
    free(w->t1_rolls);
    w->ss = NULL;
    w->cur = NULL;
    w->t1_rolls = NULL;
    w->n = 0;
    w->valid = 0;
}

runits *rule_units_get(void **state, size_t size)
{
    if (!*state) {
        runits *t = calloc(1, sizeof *t);
        if (!t)
            return NULL;
        t->size = size;
        *state = t;
    }
    return *state;
}

void *rule_units_of(runits *t, const void *key)
{
    for (size_t k = 0; k < t->n; k++) {
        size_t i = (t->next + k) % t->n;
        unsigned char *u = t->u + i * t->size;
        const void *uk;
        memcpy(&uk, u, sizeof uk);
        if (uk == key) {
            t->next = i + 1;
            return u;
        }
    }
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        unsigned char *u = realloc(t->u, cap * t->size);
        if (!u)
            return NULL;
        t->u = u;
        t->cap = cap;
    }
    unsigned char *u = t->u + t->n * t->size;
    memset(u, 0, t->size);
    memcpy(u, &key, sizeof key);
    t->next = t->n + 1;
    t->n++;
    return u;
}

void rule_units_free(runits *t, void (*fin)(void *unit))
{
    for (size_t i = 0; t && fin && i < t->n; i++)
        fin(t->u + i * t->size);
    if (t)
        free(t->u);
    free(t);
}
