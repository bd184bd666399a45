/* export_steps: the time windows an export needs before it can write —
 * the extent of steps A..B (--steps) and the time base of each TF trace.
 * See export_perfetto.h. */
#include <stdlib.h>
#include <string.h>

#include "io/export/export_internal.h"
#include "io/decode/tf_trace.h"

static int is_step_phase(const sm_event *e)
{
    return e->phase.len >= 5 && memcmp(e->phase.ptr, "Step:", 5) == 0;
}

/* The window of node, created on first use; NULL on OOM. */
static xwin *node_win(xjob *x, sm_str node)
{
    for (size_t i = 0; i < x->nwins; i++)
        if (sm_str_eq(node, x->wins[i].node))
            return &x->wins[i];
    xwin *nw = realloc(x->wins, (x->nwins + 1) * sizeof *nw);
    if (!nw)
        return NULL;
    x->wins = nw;
    xwin *w = &nw[x->nwins++];
    snprintf(w->node, sizeof w->node, "%.*s", (int)node.len, node.ptr);
    for (int k = 0; k < 2; k++) {
        w->w[k][0] = INT64_MAX;
        w->w[k][1] = INT64_MIN;
    }
    return w;
}

void export_steps_note(xjob *x, const sm_event *e)
{
    if (!is_step_phase(e) || e->step < x->o->step_a || e->step > x->o->step_b)
        return;
    xwin *w = node_win(x, e->node);
    if (!w) {
        x->oom = 1;
        return;
    }
    /* TRAIN steps define the window when present: EVAL numbers its own. */
    int train = sm_str_eq(e->phase, "Step:ModeKeys.TRAIN");
    for (int k = train ? 0 : 1; k < 2; k++) {
        if (e->start_us < w->w[k][0])
            w->w[k][0] = e->start_us;
        if (e->start_us + e->dur_us > w->w[k][1])
            w->w[k][1] = e->start_us + e->dur_us;
    }
}

int export_steps_resolve(xjob *x, int (*walk)(xjob *, int (*)(const xfile *), sm_err *),
                         int (*want)(const xfile *), sm_err *err)
{
    x->prepass = 1;
    int rc = walk(x, want, err);
    x->prepass = 0;
    if (rc != 0)
        return -1;
    if (x->oom)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    if (!x->nwins)
        return sm_err_set(err, SM_ERR_USAGE, "--steps %lld:%lld: no such step in the job's "
                          "framework traces", (long long)x->o->step_a, (long long)x->o->step_b);
    x->st->window_start_us = INT64_MAX;
    x->st->window_end_us = INT64_MIN;
    for (size_t i = 0; i < x->nwins; i++) {
        int k = x->wins[i].w[0][0] != INT64_MAX ? 0 : 1;
        if (x->wins[i].w[k][0] < x->st->window_start_us)
            x->st->window_start_us = x->wins[i].w[k][0];
        if (x->wins[i].w[k][1] > x->st->window_end_us)
            x->st->window_end_us = x->wins[i].w[k][1];
    }
    return 0;
}

/* Length of the directory part of key (up to and including the last '/'). */
static size_t dir_len(const char *key)
{
    const char *s = strrchr(key, '/');
    return s ? (size_t)(s - key + 1) : 0;
}

int export_steps_tf_note_metadata(xjob *x, const char *rel)
{
    if (!x->tfb && !(x->tfb = tf_meta_book_new()))
        return -1;
    return tf_meta_book_note(x->tfb, rel) < 0 ? -1 : 0;
}

int export_steps_tf_need(xjob *x, const xfile *f)
{
    const char *rel = f->key + x->rootlen;
    xtf *nt = realloc(x->tf, (x->ntf + 1) * sizeof *nt);
    if (!nt)
        return -1;
    x->tf = nt;
    xtf *t = &nt[x->ntf++];
    memset(t, 0, sizeof *t);
    snprintf(t->node, sizeof t->node, "%s", f->node);
    size_t dl = dir_len(rel);
    snprintf(t->dir, sizeof t->dir, "%.*s", (int)dl, rel);
    t->step = tf_trace_step_from_key(rel);
    t->base_us = TF_TRACE_NO_BASE;
    return 0;
}

void export_steps_tf_note_step(xjob *x, const sm_event *e)
{
    if (!x->ntf || !is_step_phase(e))
        return;
    int train = sm_str_eq(e->phase, "Step:ModeKeys.TRAIN");
    for (size_t i = 0; i < x->ntf; i++) {
        xtf *t = &x->tf[i];
        if (t->step != e->step || !sm_str_eq(e->node, t->node))
            continue;
        if (t->base_us == TF_TRACE_NO_BASE || (train && !t->from_train)) {
            t->base_us = e->start_us;
            t->from_train = train;
        }
    }
}

static void tf_sink(void *ud, const sm_event *e)
{
    xjob *x = ud;
    if (export_perfetto_in_window(x, e->node, e->start_us, e->dur_us))
        export_writer_event(x->w, e);
}

/* The fallback for a trace without a record: its step's Step event on a
 * node named like the trace's host. */
static int64_t step_anchor(const xjob *x, const xfile *f, const char *rel)
{
    size_t dl = dir_len(rel);
    for (size_t i = 0; i < x->ntf; i++)
        if (strlen(x->tf[i].dir) == dl && !strncmp(x->tf[i].dir, rel, dl) &&
            !strcmp(x->tf[i].node, f->node))
            return x->tf[i].base_us;
    return TF_TRACE_NO_BASE;
}

void export_steps_tf_process(xjob *x, const xfile *f, const char *data, size_t len)
{
    const char *rel = f->key + x->rootlen;
    tf_place pl;
    sm_err place = {0}, err = {0};
    int placed = tf_meta_place(x->tfb, rel, &pl, &place) == 0;   /* smdebug's record wins */
    const char *node = placed ? pl.node : f->node;
    int64_t base = placed ? pl.base_us : step_anchor(x, f, rel);
    if (tf_trace_load_at(data, len, node, tf_trace_step_from_key(rel), base, tf_sink, x,
                         &err) < 0) {
        x->st->skipped_files++;
        snprintf(x->st->last_error, sizeof x->st->last_error, "%.200s: %.300s", rel,
                 !placed && err.code == SM_ERR_NOTFOUND ? place.msg : err.msg);
    }
}

void export_steps_tf_free(xjob *x)
{
    free(x->tf);
    tf_meta_book_free(x->tfb);
}
