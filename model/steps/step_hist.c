/* step_hist: see step_hist.h. */
#include "model/steps/step_hist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/util/lbound.h"

enum { Q_P1, Q_P5, Q_Q1, Q_Q3, Q_P95, Q_P99, Q_N };
static const double pct[Q_N] = {1, 5, 25, 75, 95, 99};

/* The bulk from the percentiles: p1..p99 narrowed to the far fences,
 * never so far that p5 or p95 (and so p50) leave it. */
static void bulk_of(const double *q, step_hist_bounds *b)
{
    double iqr = q[Q_Q3] - q[Q_Q1];
    b->hi_us = fmax(fmin(q[Q_P99], q[Q_Q3] + 3 * iqr), q[Q_P95]);
    b->lo_us = fmin(fmax(q[Q_P1], q[Q_Q1] - 3 * iqr), q[Q_P5]);
}

static void bounds_clear(step_hist_bounds *b)
{
    b->lo_us = b->hi_us = b->min_us = b->max_us = NAN;
    b->exact = 0;
}

/* Sorts d[0..n) (all within [mn, mx]) by their offsets from mn, 11 bits a
 * pass, as many passes as the range needs (three up to 2^33 µs): a frame
 * sorts the window's steps, and this is several times a comparison sort's
 * speed. tmp holds n. */
static void radix_sort(int64_t *d, int64_t *tmp, size_t n, int64_t mn, int64_t mx)
{
    enum { BITS = 11, NB = 1 << BITS };
    uint64_t range = (uint64_t)mx - (uint64_t)mn;
    size_t count[NB];
    int64_t *src = d, *dst = tmp;
    for (unsigned shift = 0; shift < 64 && (range >> shift) != 0; shift += BITS) {
        memset(count, 0, sizeof count);
        for (size_t i = 0; i < n; i++)
            count[(((uint64_t)src[i] - (uint64_t)mn) >> shift) & (NB - 1)]++;
        size_t at = 0;
        for (size_t k = 0; k < NB; k++) {
            size_t c = count[k];
            count[k] = at;
            at += c;
        }
        for (size_t i = 0; i < n; i++)
            dst[count[(((uint64_t)src[i] - (uint64_t)mn) >> shift) & (NB - 1)]++] = src[i];
        int64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != d)
        memcpy(d, src, n * sizeof *d);
}

int step_hist_bounds_of(int64_t *dur, size_t n, step_hist_bounds *out)
{
    bounds_clear(out);
    int64_t *tmp = n ? malloc(n * sizeof *tmp) : NULL;
    if (!tmp)
        return -1;
    int64_t mn = dur[0], mx = dur[0];
    for (size_t i = 1; i < n; i++) {
        mn = dur[i] < mn ? dur[i] : mn;
        mx = dur[i] > mx ? dur[i] : mx;
    }
    radix_sort(dur, tmp, n, mn, mx);
    free(tmp);
    /* quantile.h's exact percentiles: linear between the closest ranks. */
    double q[Q_N];
    for (int i = 0; i < Q_N; i++) {
        double rank = pct[i] / 100.0 * (double)(n - 1);
        size_t k = (size_t)floor(rank);
        double a = (double)dur[k], b = k + 1 < n ? (double)dur[k + 1] : a;
        q[i] = a + (rank - (double)k) * (b - a);
    }
    out->min_us = (double)mn;
    out->max_us = (double)mx;
    bulk_of(q, out);
    out->exact = 1;
    return 0;
}

/* ---- a quantile table as a distribution ------------------------------ */

/* Finer at the tails, where a stall or two among many steps lie. */
static const double tail_lo[] = {0, 0.01, 0.03, 0.1, 0.3, 0.6};
static const double tail_hi[] = {99.4, 99.7, 99.9, 99.97, 99.99, 100};
#define NTAIL (sizeof tail_lo / sizeof *tail_lo)

void step_hist_table_pcts(step_hist_table *t)
{
    size_t n = 0;
    for (size_t i = 0; i < NTAIL; i++)
        t->pct[n++] = tail_lo[i];
    for (int k = 2; k <= 198; k++)
        t->pct[n++] = k / 2.0;
    for (size_t i = 0; i < NTAIL; i++)
        t->pct[n++] = tail_hi[i];
    t->n = n;
}

void step_hist_table_fix(step_hist_table *t, double min_us, double max_us, double err_rel)
{
    size_t n = t->n;
    t->err_rel = err_rel;
    t->us[0] = min_us;
    t->us[n - 1] = max_us;
    for (size_t i = 1; i < n; i++)
        t->us[i] = fmin(fmax(t->us[i], t->us[i - 1]), max_us);
    /* A run of one estimate: steps of one sketch bin, spread over it. */
    for (size_t i = 1, j; i + 1 < n; i = j) {
        double v = t->us[i];
        for (j = i + 1; j + 1 < n && t->us[j] == v; j++)
            ;
        if (j - i < 2)
            continue;
        double lo = fmax(v * (1 - err_rel), t->us[i - 1]);
        double hi = fmin(v * (1 + err_rel), t->us[j]);
        for (size_t k = i; k < j; k++)
            t->us[k] = lo + (hi - lo) * (double)(k - i) / (double)(j - i);
    }
}

typedef struct table_key {
    const double *us;
    double x;
} table_key;

static int below_x(const void *ctx, size_t i)
{
    const table_key *k = ctx;
    return k->us[i] < k->x;
}

/* The share of the steps below x: linear between the table's entries. */
static double table_below(const step_hist_table *t, double x)
{
    table_key k = {t->us, x};
    size_t j = lbound(t->n, below_x, &k);   /* the first entry >= x */
    if (j == 0)
        return 0;
    if (j == t->n)
        return 1;
    double a = t->us[j - 1], z = t->us[j];
    return (t->pct[j - 1] + (x - a) / (z - a) * (t->pct[j] - t->pct[j - 1])) / 100;
}

/* The duration below which pct percent of the steps lie. */
static double table_at(const step_hist_table *t, double pct_)
{
    size_t i = 0;
    while (i + 2 < t->n && t->pct[i + 1] <= pct_)
        i++;
    double f = (pct_ - t->pct[i]) / (t->pct[i + 1] - t->pct[i]);
    return t->us[i] + (t->us[i + 1] - t->us[i]) * fmin(fmax(f, 0), 1);
}

void step_hist_bounds_table(const step_hist_table *t, const phase_summary *s,
                            step_hist_bounds *out)
{
    bounds_clear(out);
    if (!s || s->count <= 0 || t->n < 2)
        return;
    out->min_us = t->us[0];
    out->max_us = t->us[t->n - 1];
    double q[Q_N];
    for (int k = Q_P1; k <= Q_Q3; k++)
        q[k] = table_at(t, pct[k]);
    q[Q_P95] = s->p95_us;
    q[Q_P99] = s->p99_us;
    bulk_of(q, out);
    /* A bound never cuts a sketch bin: the table's entries within the
     * error of one join the bulk. */
    for (size_t i = 0; i < t->n; i++) {
        if (t->us[i] <= out->hi_us * (1 + 2 * t->err_rel))
            out->hi_us = fmax(out->hi_us, t->us[i]);
        if (t->us[t->n - 1 - i] >= out->lo_us / (1 + 2 * t->err_rel))
            out->lo_us = fmin(out->lo_us, t->us[t->n - 1 - i]);
    }
    /* The markers, drawn from s, stay inside the bulk. */
    out->lo_us = fmax(fmin(out->lo_us, s->p50_us), out->min_us);
    out->hi_us = fmin(fmax(out->hi_us, s->p50_us), out->max_us);
}

/* ---- rows ------------------------------------------------------------- */

static size_t bar_index(double us, double lo, double w, size_t nbars)
{
    if (!(w > 0) || us <= lo)
        return 0;
    double k = floor((us - lo) / w);
    return k >= (double)nbars ? nbars - 1 : (size_t)k;
}

/* Which rows there are, given how many steps lie under / over the bulk and
 * inside it: the over row goes last, as it holds the outliers. Sets the
 * bars' range and count and h->first_bar; the rows themselves are not
 * filled. Returns 0 when no row fits. */
static int plan_rows(const step_hist_bounds *b, uint64_t under, uint64_t over, uint64_t n,
                     size_t max_rows, step_hist *h, int *keep_under, int *keep_over)
{
    memset(h, 0, sizeof *h);
    if (max_rows > STEP_HIST_MAX_ROWS)
        max_rows = STEP_HIST_MAX_ROWS;
    if (n == 0 || max_rows == 0 || isnan(b->lo_us))
        return 0;
    *keep_over = over > 0 && max_rows >= 2;
    *keep_under = under > 0 && max_rows >= 2 + (size_t)*keep_over;
    /* Steps within a bar's width of the bulk are no outliers: they go to
     * the end bar (below 100 steps p1 and p99 lie between two steps). */
    double w = (b->hi_us - b->lo_us) / (double)(max_rows - (size_t)*keep_under - (size_t)*keep_over);
    *keep_under = *keep_under && b->lo_us - b->min_us > w;
    *keep_over = *keep_over && b->max_us - b->hi_us > w;
    double lo = *keep_under ? b->lo_us : b->min_us, hi = *keep_over ? b->hi_us : b->max_us;
    hi = hi < lo ? lo : hi;
    uint64_t inside = n - (*keep_under ? under : 0) - (*keep_over ? over : 0);
    size_t nbars = max_rows - (size_t)*keep_under - (size_t)*keep_over;
    if (nbars > inside)
        nbars = inside ? (size_t)inside : 1;
    if (hi - lo < (double)nbars)
        nbars = (size_t)floor(hi - lo) + 1;
    h->first_bar = (size_t)*keep_under;
    h->nbars = nbars;
    h->nrows = nbars + (size_t)*keep_under + (size_t)*keep_over;
    h->lo_us = lo;
    h->width_us = (hi - lo) / (double)nbars;
    for (size_t i = 0; i < nbars; i++) {
        step_hist_row *r = &h->row[h->first_bar + i];
        r->kind = STEP_HIST_BAR;
        r->lo_us = lo + (double)i * h->width_us;
        r->hi_us = i + 1 == nbars ? hi : lo + (double)(i + 1) * h->width_us;
    }
    if (*keep_under)
        h->row[0] = (step_hist_row){STEP_HIST_UNDER, b->min_us, lo, under};
    if (*keep_over)
        h->row[h->nrows - 1] = (step_hist_row){STEP_HIST_OVER, hi, b->max_us, over};
    return 1;
}

size_t step_hist_build(const int64_t *dur, size_t n, const step_hist_bounds *b,
                       size_t max_rows, step_hist *h)
{
    uint64_t under = 0, over = 0;
    for (size_t i = 0; i < n; i++) {
        under += (double)dur[i] < b->lo_us;
        over += (double)dur[i] > b->hi_us;
    }
    int ku = 0, ko = 0;
    if (!plan_rows(b, under, over, n, max_rows, h, &ku, &ko))
        return 0;
    double hi = h->row[h->first_bar + h->nbars - 1].hi_us;
    for (size_t i = 0; i < n; i++) {
        double d = (double)dur[i];
        if ((ku && d < h->lo_us) || (ko && d > hi))
            continue;
        h->row[h->first_bar + bar_index(d, h->lo_us, h->width_us, h->nbars)].count++;
    }
    return h->nrows;
}

size_t step_hist_build_table(const step_hist_table *t, uint64_t n,
                             const step_hist_bounds *b, size_t max_rows, step_hist *h)
{
    if (t->n < 2) {
        memset(h, 0, sizeof *h);
        return 0;
    }
    double dn = (double)n;
    uint64_t under = (uint64_t)llround(dn * table_below(t, b->lo_us));
    uint64_t below_hi = (uint64_t)llround(dn * table_below(t, b->hi_us));
    uint64_t over = n - (below_hi < n ? below_hi : n);
    int ku = 0, ko = 0;
    if (!plan_rows(b, under, over, n, max_rows, h, &ku, &ko))
        return 0;
    /* Each bar: the rounded steps below its top less those below its
     * bottom, so the rows sum to n. */
    uint64_t prev = ku ? under : 0, end = n - (ko ? over : 0);
    for (size_t i = 0; i < h->nbars; i++) {
        step_hist_row *r = &h->row[h->first_bar + i];
        uint64_t upto = i + 1 == h->nbars ? end
                      : (uint64_t)llround(dn * table_below(t, r->hi_us));
        upto = upto < prev ? prev : upto > end ? end : upto;
        r->count = upto - prev;
        prev = upto;
    }
    return h->nrows;
}

size_t step_hist_row_of(const step_hist *h, double us)
{
    if (h->nrows == 0 || isnan(us))
        return h->nrows;
    const step_hist_row *first = &h->row[0], *last = &h->row[h->nrows - 1];
    if (us < first->lo_us || us > last->hi_us)
        return h->nrows;
    if (us < h->lo_us)
        return 0;   /* the under row (the bars start at min without one) */
    if (us > h->row[h->first_bar + h->nbars - 1].hi_us)
        return h->nrows - 1;
    return h->first_bar + bar_index(us, h->lo_us, h->width_us, h->nbars);
}
