/* rule_grid: one node's series sampled onto a common time grid, so rules
 * can compare metrics "at the same timestamp" and count samples, using only
 * series_visit (every stored point once, raw or rolled-up). */
#include <math.h>
#include <stdlib.h>

#include "model/rules/rule_impl.h"
#include "model/series/sampling.h"
#include "model/series/series_iter.h"

/* The newest gaps are enough for a median, and sorting a few hundred
 * keeps planning cheap when every rule plans grids for every GPU. */
#define GAPS_MAX 255

typedef struct gaps {
    int64_t prev;
    int64_t v[GAPS_MAX];
    size_t n, next;        /* ring: the newest GAPS_MAX gaps */
} gaps;

static int put_gap(void *ud, const series_point *p)
{
    gaps *g = ud;
    if (p->width_us)
        return 0;   /* rolled-up buckets say nothing about the interval */
    if (g->prev && p->t_us > g->prev) {
        g->v[g->next] = p->t_us - g->prev;
        g->next = (g->next + 1) % GAPS_MAX;
        if (g->n < GAPS_MAX)
            g->n++;
    }
    g->prev = p->t_us;
    return 0;
}

/* The k-th smallest of v[0..n) (v is reordered): what v[k] would be after
 * sorting, by Hoare's selection (linear on average; it ran once per series
 * per rule, and a full sort of the gaps was most of this function). */
static int64_t kth_smallest(int64_t *v, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        int64_t pivot = v[lo + (hi - lo) / 2];
        size_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            if (i <= j) {
                int64_t t = v[i];
                v[i] = v[j];
                v[j] = t;
                i++;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return v[k];
    }
    return v[k];
}

int64_t rule_sample_interval(const series *s)
{
    gaps g = {.n = 0};
    /* Only the newest GAPS_MAX gaps count, and the gaps seen from any t0 on
     * are the newest of all gaps: when the last few minutes already fill
     * the ring, it holds exactly what a visit of the whole series would
     * leave (same multiset, sorted below). Otherwise visit everything. */
    int64_t first, last;
    series_extent(s, &first, &last);
    if (last > first && (uint64_t)last - (uint64_t)first > 300000000ULL) {
        series_visit(s, last - 300000000LL, INT64_MAX, put_gap, &g);
        if (g.n < GAPS_MAX)
            g = (gaps){.n = 0};
    }
    if (g.n == 0)
        series_visit(s, INT64_MIN, INT64_MAX, put_gap, &g);
    if (g.n == 0)
        return 0;
    return sampling_snap_interval((double)kth_smallest(g.v, g.n, g.n / 2));
}

int rule_grid_plan(const series *const *ss, size_t n, rgrid *g)
{
    int64_t first = 0, last = 0, dt = 0;
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        if (!ss[i])
            continue;
        int64_t f, l;
        if (series_extent(ss[i], &f, &l) <= 0)
            continue;
        if (!any || f < first)
            first = f;
        if (!any || l > last)
            last = l;
        any = 1;
        int64_t d = rule_sample_interval(ss[i]);
        if (d > 0 && (dt == 0 || d < dt))
            dt = d;
    }
    if (!any)
        return -1;
    if (dt <= 0)
        dt = 1000000;   /* a single tick: any width holds it */
    int64_t span = last - first;
    if (span / dt + 2 > RGRID_MAX_CELLS)
        dt = span / (RGRID_MAX_CELLS - 2) + 1;
    /* centre cells on the ticks so sampling jitter stays inside a cell */
    g->width_us = dt;
    g->t0_us = first - dt / 2;
    g->n = (size_t)((last - g->t0_us) / dt) + 1;
    return 0;
}

size_t rule_grid_cell_at(const rgrid *g, int64_t t)
{
    if (t <= g->t0_us)
        return 0;
    int64_t k = (t - g->t0_us) / g->width_us;
    return (uint64_t)k > g->n ? g->n : (size_t)k;
}

int64_t rule_grid_cell_t0(const rgrid *g, size_t i)
{
    return g->t0_us + (int64_t)i * g->width_us;
}

int64_t rule_grid_cell_t1(const rgrid *g, size_t i)
{
    return g->t0_us + (int64_t)(i + 1) * g->width_us;
}

static int rule_col_alloc(rcol *col, size_t n)
{
    col->val = malloc((n ? n : 1) * sizeof *col->val);
    col->cnt = calloc(n ? n : 1, sizeof *col->cnt);
    if (!col->val || !col->cnt) {
        rule_col_free(col);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        col->val[i] = NAN;
    return 0;
}

void rule_col_free(rcol *col)
{
    free(col->val);
    free(col->cnt);
    col->val = NULL;
    col->cnt = NULL;
}

typedef struct cell_acc {
    const rgrid *g;
    double *sum, *cnt;      /* cells [from, g->n), sum[0] is cell `from` */
    size_t from;
} cell_acc;

static int put_point(void *ud, const series_point *p)
{
    cell_acc *a = ud;
    int64_t k = (p->t_us - a->g->t0_us) / a->g->width_us;
    size_t i = k < (int64_t)a->from ? a->from : (size_t)k >= a->g->n ? a->g->n - 1 : (size_t)k;
    a->sum[i - a->from] += p->mean * (double)p->count;
    a->cnt[i - a->from] += (double)p->count;
    return 0;
}

int rule_col_fill(rcol *col, const series *s, const rgrid *g)
{
    if (!s)
        return rule_col_fill_mean(col, &s, 1, g);
    /* rule_col_fill_mean for one series, summing straight into the column
     * (no scratch arrays): same additions in the same order, and the same
     * final expression, so the same doubles. */
    size_t cells = g->n ? g->n : 1;
    col->val = calloc(cells, sizeof *col->val);
    col->cnt = calloc(cells, sizeof *col->cnt);
    if (!col->val || !col->cnt) {
        rule_col_free(col);
        return -1;
    }
    rule_col_fill_from(col, s, g, 0);
    if (!g->n)
        col->val[0] = NAN;
    return 0;
}

void rule_col_fill_from(rcol *col, const series *s, const rgrid *g, size_t from)
{
    for (size_t i = from; i < g->n; i++)
        col->val[i] = col->cnt[i] = 0;
    cell_acc a = {g, col->val, col->cnt, 0};
    /* a point before cell `from` would be clamped into a cell; none is
     * visited, as every point of the series lies on the grid */
    series_visit(s, rule_grid_cell_t0(g, from), g->t0_us + (int64_t)g->n * g->width_us,
                 put_point, &a);
    for (size_t i = from; i < g->n; i++)
        col->val[i] = col->cnt[i] > 0 ? (0 + col->val[i] / col->cnt[i]) / 1 : NAN;
}

int rule_col_fill_mean(rcol *col, const series *const *ss, size_t n, const rgrid *g)
{
    col->val = col->cnt = NULL;
    if (rule_col_alloc(col, g->n) < 0)
        return -1;
    if (rule_col_fill_mean_from(col, ss, n, g, 0) < 0) {
        rule_col_free(col);
        return -1;
    }
    return 0;
}

int rule_col_fill_mean_from(rcol *col, const series *const *ss, size_t n, const rgrid *g,
                            size_t from)
{
    size_t cells = g->n > from ? g->n - from : 1;
    double *sum = malloc(cells * sizeof *sum), *cnt = malloc(cells * sizeof *cnt);
    double *nser = calloc(cells, sizeof *nser);
    if (!sum || !cnt || !nser) {
        free(sum);
        free(cnt);
        free(nser);
        return -1;
    }
    for (size_t i = from; i < g->n; i++) {
        col->val[i] = NAN;
        col->cnt[i] = 0;
    }
    int64_t t1 = g->t0_us + (int64_t)g->n * g->width_us;
    for (size_t k = 0; k < n; k++) {
        if (!ss[k])
            continue;
        for (size_t i = 0; i + from < g->n; i++)
            sum[i] = cnt[i] = 0;
        cell_acc a = {g, sum, cnt, from};
        series_visit(ss[k], rule_grid_cell_t0(g, from), t1, put_point, &a);
        for (size_t i = from; i < g->n; i++) {
            size_t j = i - from;
            if (cnt[j] <= 0)
                continue;
            /* mean over series of each series' cell mean; the sample count
             * is the largest any series had there (one tick = one sample) */
            double prev = nser[j] > 0 ? col->val[i] * nser[j] : 0;
            nser[j] += 1;
            col->val[i] = (prev + sum[j] / cnt[j]) / nser[j];
            if (cnt[j] > col->cnt[i])
                col->cnt[i] = cnt[j];
        }
    }
    free(sum);
    free(cnt);
    free(nser);
    return 0;
}

size_t rule_grid_skip_patience(const rgrid *g, const double *cnt,
                               const unsigned char *present, double patience)
{
    double seen = 0;
    for (size_t i = 0; i < g->n; i++) {
        if (seen >= patience)
            return i;
        if (present[i])
            seen += cnt[i];
    }
    return g->n;
}
