/* rule_cursor: which grid cells a series append can have changed, so the
 * window rules re-derive those alone (see rule_impl.h). Only series_visit
 * and series_extent are used: the tier layout it relies on is what
 * series.h documents — raw samples newest, then 10 s buckets, then 5 min
 * buckets, a bucket's point at the start of its (absolutely aligned)
 * width, clamped to the first sample. */
#include <stdint.h>

#include "model/rules/rule_impl.h"
#include "model/series/series_iter.h"

/* More new samples than this in one pass may have pushed some straight
 * through the raw tier: the spans would not bound that. */
#define RCURSOR_MAX_NEW (SERIES_RAW_CAP / 2)

typedef struct probe {
    int64_t width;          /* the kind of point wanted: 0 = raw */
    int any;                /* any point at all will do */
    int64_t t;              /* its time; INT64_MAX when none */
} probe;

static int probe_point(void *ud, const series_point *p)
{
    probe *q = ud;
    if (!q->any && p->width_us != q->width)
        return 0;
    q->t = p->t_us;
    return 1;
}

/* The oldest point at or after `from` of the given kind. */
static int64_t first_of(const series *s, int64_t from, int64_t width, int any)
{
    probe q = {width, any, INT64_MAX};
    series_visit(s, from, INT64_MAX, probe_point, &q);
    return q.t;
}

typedef struct tally {
    int64_t count;
    int rolled;             /* a point that is not a raw sample */
} tally;

static int tally_point(void *ud, const series_point *p)
{
    tally *t = ud;
    t->count += p->count;
    t->rolled |= p->width_us != 0;
    return 0;
}

void rule_cursor_init(rcursor *c, const series *s)
{
    int64_t first;
    c->s = s;
    c->count = series_extent(s, &first, &c->last_us);
    c->first_pt = first_of(s, INT64_MIN, 0, 1);
    c->raw_from = first_of(s, INT64_MIN, 0, 0);
    c->t1_from = first_of(s, INT64_MIN, SERIES_T1_WIDTH_US, 0);
}

/* Saturating a - b for the span bounds (times are plausible, but a span
 * must never wrap). */
static int64_t sub_sat(int64_t a, int64_t b)
{
    return a < INT64_MIN + b ? INT64_MIN : a - b;
}

static int64_t add_sat(int64_t a, int64_t b)
{
    return a > INT64_MAX - b ? INT64_MAX : a + b;
}

int rule_cursor_advance(rcursor *c, rspan *out)
{
    const series *s = c->s;
    int64_t first, last;
    int64_t count = series_extent(s, &first, &last);
    int64_t added = count - c->count;
    if (added == 0 && last == c->last_us)
        return 0;
    if (added <= 0 || added > RCURSOR_MAX_NEW || c->raw_from == INT64_MAX)
        return -1;
    /* every new sample lies after the previous newest, still raw */
    tally t = {0, 0};
    series_visit(s, c->last_us + 1, INT64_MAX, tally_point, &t);
    if (t.count != added || t.rolled || first_of(s, INT64_MIN, 0, 1) != c->first_pt)
        return -1;
    int n = 0;
    out[n++] = (rspan){c->last_us, INT64_MAX, RSPAN_NEW};
    /* The raw samples rolled up were the oldest: they joined buckets that
     * start at most one width before the old boundary, and the cells up
     * to just past the new boundary now hold them differently. */
    int64_t raw = first_of(s, sub_sat(c->raw_from, SERIES_T1_WIDTH_US), 0, 0);
    if (raw != c->raw_from) {
        out[n++] = (rspan){sub_sat(c->raw_from, SERIES_T1_WIDTH_US),
                           add_sat(raw, SERIES_T1_WIDTH_US), RSPAN_RAW};
        if (c->t1_from == INT64_MAX)
            c->t1_from = first_of(s, INT64_MIN, SERIES_T1_WIDTH_US, 0);
    }
    c->raw_from = raw;
    /* the same one tier up, when the 10 s tier was full */
    if (c->t1_from != INT64_MAX) {
        int64_t t1 = first_of(s, sub_sat(c->t1_from, SERIES_T2_WIDTH_US),
                              SERIES_T1_WIDTH_US, 0);
        if (t1 != c->t1_from)
            out[n++] = (rspan){sub_sat(c->t1_from, SERIES_T2_WIDTH_US),
                               add_sat(t1, SERIES_T2_WIDTH_US), RSPAN_T1};
        c->t1_from = t1;
    }
    c->count = count;
    c->last_us = last;
    return n;
}
