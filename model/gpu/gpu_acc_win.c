/* gpu_acc_win: the analysed windows of an acc (gpu_impl.h): merged from
 * a trace into its rank, and summed over a range of them into the
 * critical path and idle parts of a summary (gpu_wsum). Ties are broken
 * by the names' bytes, never by table row numbers, which depend on the
 * order traces were merged in. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/gpu/gpu_impl.h"
#include "model/util/heap_sort.h"
#include "model/util/stable_sort.h"
#include "model/util/vec.h"

#define WIN_BEFORE(A, B)                                                            \
    ((A).start_us < (B).start_us ||                                                 \
     ((A).start_us == (B).start_us && ((A).step < (B).step ||                       \
     ((A).step == (B).step && (A).end_us < (B).end_us))))
STABLE_SORT_DEFINE(sort_wins, gpu_win, WIN_BEFORE(A, B))

/* The names of d for s's segment seg: s's row -> d's, through s's own
 * renaming when seg is not s's own. */
static int compose(gpu_wseg *out, const gpu_wseg *seg, const gpu_acc *s, uint32_t *const *map)
{
    for (int t = 0; t < GPU_NT_N; t++) {
        size_t n = seg->map[t] ? seg->n_map[t] : gpu_acc_names(s, t)->n;
        out->map[t] = malloc((n ? n : 1) * sizeof *out->map[t]);
        if (!out->map[t])
            return -1;
        out->n_map[t] = n;
        for (size_t i = 0; i < n; i++)
            out->map[t][i] = map[t][seg->map[t] ? seg->map[t][i] : i];
    }
    return 0;
}

int gpu_acc_merge_wins(gpu_acc *d, const gpu_acc *s, uint32_t *const *map)
{
    if (s->n_wins == 0)
        return 0;
    size_t n = d->n_wins + s->n_wins, base = d->n_segs;
    if (vec_grow(&d->wins, &d->cap_wins, n, sizeof *d->wins, 16) != 0 ||
        vec_grow(&d->segs, &d->cap_segs, d->n_segs + s->n_segs, sizeof *d->segs, 4) != 0)
        return -1;
    for (size_t k = 0; k < s->n_segs; k++) {
        gpu_wseg *seg = &d->segs[d->n_segs];
        memset(seg, 0, sizeof *seg);
        if (compose(seg, &s->segs[k], s, map) != 0) {
            for (int t = 0; t < GPU_NT_N; t++)
                free(seg->map[t]);
            return -1;
        }
        seg->blob = s->segs[k].blob;
        seg->blob->refs++;
        d->n_segs++;
    }
    for (size_t i = 0; i < s->n_wins; i++) {
        gpu_win w = s->wins[i];
        w.seg += (uint32_t)base;
        d->wins[d->n_wins++] = w;
    }
    gpu_win *tmp = malloc(n * sizeof *tmp);
    if (!tmp)
        return -1;
    sort_wins(d->wins, tmp, n);
    free(tmp);
    return 0;
}

void gpu_acc_free_segs(gpu_acc *a)
{
    for (size_t k = 0; k < a->n_segs; k++) {
        gpu_wseg *seg = &a->segs[k];
        for (int t = 0; t < GPU_NT_N; t++)
            free(seg->map[t]);
        if (seg->blob && --seg->blob->refs == 0)
            gpu_wblob_free(seg->blob);
    }
    free(a->segs);
    a->segs = NULL;
    a->n_segs = a->cap_segs = 0;
}

/* ---- sums over windows */

static int name_cmp(const gpu_stat *a, const gpu_stat *b)
{
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->name, b->name, n);
    return c ? c : (a->len > b->len) - (a->len < b->len);
}

/* A row being summed: its key and its time. */
typedef struct sum_row {
    uint8_t table, kind;
    uint32_t name;
    int64_t tid, us;
    const gpu_stat *st;
} sum_row;

#define SUM_KEY(A, B)                                                               \
    ((A).table != (B).table ? (A).table < (B).table                                 \
     : (A).name != (B).name ? (A).name < (B).name                                   \
     : (A).kind != (B).kind ? (A).kind < (B).kind : (A).tid < (B).tid)
HEAP_SORT_DEFINE(sort_sum_key, sum_row, SUM_KEY(A, B))

static int sum_more(const sum_row *a, const sum_row *b)
{
    if (a->us != b->us)
        return a->us > b->us;
    if (a->table != b->table)
        return a->table < b->table;
    int c = name_cmp(a->st, b->st);
    if (c)
        return c < 0;
    return a->kind != b->kind ? a->kind < b->kind : a->tid < b->tid;
}
HEAP_SORT_DEFINE(sort_sum_us, sum_row, sum_more(&A, &B))

/* Rows summed by key, then by time descending; returns how many. */
static size_t sum_rows(const gpu_acc *a, sum_row *r, size_t n)
{
    sort_sum_key(r, n);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && !SUM_KEY(r[m - 1], r[i]) && !SUM_KEY(r[i], r[m - 1]))
            r[m - 1].us += r[i].us;
        else
            r[m++] = r[i];
    }
    for (size_t i = 0; i < m; i++)
        r[i].st = &gpu_acc_names(a, r[i].table)->rows[r[i].name];
    sort_sum_us(r, m);
    return m;
}

static int grow_rows(sum_row **r, size_t *cap, size_t need)
{
    return vec_grow(r, cap, need, sizeof **r, 64);
}

void gpu_wsum_free(gpu_wsum *w)
{
    free(w->top);
    free(w->causes);
    free(w->threads);
    memset(w, 0, sizeof *w);
}

/* The windows' rows collected: tops, idle causes, threads. */
typedef struct collect {
    sum_row *top, *idle, *thr;
    size_t n_top, n_idle, n_thr, cap_top, cap_idle, cap_thr;
} collect;

static int collect_win(const gpu_win_rows *r, collect *c)
{
    if (grow_rows(&c->top, &c->cap_top, c->n_top + r->n_top) != 0 ||
        grow_rows(&c->idle, &c->cap_idle, c->n_idle + r->n_idle) != 0 ||
        grow_rows(&c->thr, &c->cap_thr, c->n_thr + r->n_threads) != 0)
        return -1;
    for (size_t i = 0; i < r->n_top && r->fig.cp_status == GPU_CPATH_OK; i++)
        c->top[c->n_top++] = (sum_row){r->top[i].table, 0, r->top[i].name, 0, r->top[i].us, NULL};
    for (size_t i = 0; i < r->n_idle; i++)
        c->idle[c->n_idle++] = (sum_row){r->idle[i].table, r->idle[i].kind, r->idle[i].name,
                                         r->idle[i].tid, r->idle[i].overlap_us, NULL};
    for (size_t i = 0; i < r->n_threads; i++)
        c->thr[c->n_thr++] = (sum_row){0, 0, 0, r->threads[i].tid, r->threads[i].busy_us, NULL};
    return 0;
}

/* A top event with its shortened name: windows sum their top events by
 * shortened name, as HTA does, each group named by its largest. */
typedef struct top_short {
    sum_row r;
    char s[256];
} top_short;

static int short_before(const top_short *a, const top_short *b)
{
    int c = strcmp(a->s, b->s);
    return c ? c < 0 : sum_more(&a->r, &b->r);
}
HEAP_SORT_DEFINE(sort_short, top_short, short_before(&A, &B))

static size_t group_tops(sum_row *r, size_t n)
{
    top_short *g = malloc((n ? n : 1) * sizeof *g);
    if (!g)
        return n;   /* by name as they are */
    for (size_t i = 0; i < n; i++) {
        g[i].r = r[i];
        gpu_shorten_name(r[i].st->name, r[i].st->len, g[i].s, sizeof g[i].s);
    }
    sort_short(g, n);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (i && !strcmp(g[i].s, g[i - 1].s))
            r[m - 1].us += g[i].r.us;
        else
            r[m++] = g[i].r;
    }
    free(g);
    sort_sum_us(r, m);
    return m;
}

static int make_lists(const gpu_acc *a, collect *c, gpu_wsum *out)
{
    size_t nt = group_tops(c->top, sum_rows(a, c->top, c->n_top));
    size_t ni = sum_rows(a, c->idle, c->n_idle);
    /* threads: by tid alone (their rows carry no name) */
    sort_sum_key(c->thr, c->n_thr);
    size_t nh = 0;
    for (size_t i = 0; i < c->n_thr; i++) {
        if (nh && c->thr[nh - 1].tid == c->thr[i].tid)
            c->thr[nh - 1].us += c->thr[i].us;
        else
            c->thr[nh++] = c->thr[i];
    }
    nt = nt < GPU_CPATH_TOP ? nt : GPU_CPATH_TOP;
    out->top = malloc((nt ? nt : 1) * sizeof *out->top);
    out->causes = malloc((ni ? ni : 1) * sizeof *out->causes);
    out->threads = malloc((nh ? nh : 1) * sizeof *out->threads);
    if (!out->top || !out->causes || !out->threads)
        return -1;
    for (size_t i = 0; i < nt; i++)
        out->top[i] = (gpu_name_us){c->top[i].st->name, c->top[i].st->len, c->top[i].table,
                                    c->top[i].us};
    double idle = (double)out->gap_us;
    for (size_t i = 0; i < ni; i++)
        out->causes[i] = (gpu_idle_cause){
            c->idle[i].st->name, c->idle[i].st->len, c->idle[i].table, c->idle[i].kind,
            c->idle[i].tid, c->idle[i].us, idle > 0 ? 100.0 * (double)c->idle[i].us / idle : NAN};
    for (size_t i = 0; i < nh; i++)
        out->threads[i] = (gpu_thread_share){
            c->thr[i].tid, c->thr[i].us,
            idle > 0 ? 100.0 * (double)c->thr[i].us / idle : NAN};
    for (size_t i = 1; i < nh; i++)   /* by share: few threads */
        for (size_t k = i; k > 0 && out->threads[k].busy_us > out->threads[k - 1].busy_us; k--) {
            gpu_thread_share x = out->threads[k];
            out->threads[k] = out->threads[k - 1];
            out->threads[k - 1] = x;
        }
    out->n_top = nt;
    out->n_causes = ni;
    out->n_threads = nh;
    return 0;
}

void gpu_wsum_add(gpu_wsum *out, const gpu_win_rows *r, void *collector)
{
    const gpu_wfig *f = &r->fig;
    out->windows++;
    if (f->cp_status == GPU_CPATH_OK) {
        out->cp_steps++;
        out->path_us += f->path_us;
        for (int b = 0; b < GPU_BOUND_N; b++)
            out->bound_us[b] += f->bound_us[b];
    } else {
        out->cp_failed++;
    }
    out->gap_us += f->gap_us;
    out->idle_other_us += f->idle_other_us;
    out->host_comm_us += f->host_comm_us;
    out->host_comm_idle_us += f->host_comm_idle_us;
    if (collector && collect_win(r, collector) != 0)
        out->oom = 1;
}

void *gpu_wsum_begin(void)
{
    return calloc(1, sizeof(collect));
}

int gpu_wsum_end(const gpu_acc *a, gpu_wsum *out, void *collector)
{
    collect *c = collector;
    int rc = c && !out->oom ? make_lists(a, c, out) : -1;
    if (c) {
        free(c->top);
        free(c->idle);
        free(c->thr);
        free(c);
    }
    if (rc != 0)
        gpu_wsum_free(out);
    return rc;
}

int gpu_wsum_make(const gpu_acc *a, size_t lo, size_t hi, gpu_wsum *out)
{
    memset(out, 0, sizeof *out);
    void *c = gpu_wsum_begin();
    int rc = c ? 0 : -1;
    for (size_t i = lo; rc == 0 && i < hi; i++) {
        gpu_win_rows r;
        if ((rc = gpu_win_rows_read(a, &a->wins[i], &r)) == 0)
            gpu_wsum_add(out, &r, c);
        gpu_win_rows_free(&r);
    }
    return gpu_wsum_end(a, out, rc == 0 ? c : (free(c), NULL));
}

void gpu_wsum_fill(const gpu_wsum *w, gpu_summary *s)
{
    s->critical_path.steps = w->cp_steps;
    s->critical_path.failed = w->cp_failed;
    s->critical_path.path_us = w->path_us;
    for (int b = 0; b < GPU_BOUND_N; b++) {
        s->critical_path.bound_us[b] = w->bound_us[b];
        s->critical_path.bound_pct[b] =
            w->path_us > 0 ? 100.0 * (double)w->bound_us[b] / (double)w->path_us : NAN;
    }
    s->critical_path.top = w->top;
    s->critical_path.n_top = w->n_top;
    s->idle_attr.windows = w->windows;
    s->idle_attr.idle_us = w->gap_us;
    s->idle_attr.other_us = w->idle_other_us;
    s->idle_attr.causes = w->causes;
    s->idle_attr.n_causes = w->n_causes;
    s->idle_attr.threads = w->threads;
    s->idle_attr.n_threads = w->n_threads;
    s->idle_attr.host_comm_us = w->host_comm_us;
    s->idle_attr.host_comm_idle_us = w->host_comm_idle_us;
    s->idle_attr.host_comm_per_step_us =
        w->windows ? (double)w->host_comm_us / (double)w->windows : NAN;
}
