/* series_tier_form: re-storing a tier in a wider form when a sample or a
 * bucket does not fit the one it has (forms only widen: H16, a 4-byte
 * form, then full width for good); see series_tier.h. The checks that
 * find nothing to do are inline there: this is the rare path. */
#include "model/series/series_tier.h"

#include <stdlib.h>

/* Rewrites tier `level`'s buckets from its form to `form`, in form's
 * element size (forms only widen): last slot first, so that a widened
 * slot is never written before the old slots it covers are read. 0, or
 * -1 on OOM with the buckets unchanged. */
static int bucket_recode(tiers *t, int level, int form)
{
    deque *d = level == 1 ? &t->t1 : &t->t2;
    int old = t->bform[level - 1];
    size_t oe = d->elem, ne = series_tier_bucket_elem(form);
    if (ne > oe && deque_widen(d, ne) != 0)
        return -1;
    for (size_t i = d->head + d->len; i-- > d->head;) {
        bucket b = series_tier_bucket_decode(old, d->buf + i * oe);
        series_tier_bucket_encode(form, &b, d->buf + i * ne);
    }
    t->bform[level - 1] = form;
    return 0;
}

static int buckets_all_fit(const tiers *t, int level, int form)
{
    for (size_t i = 0; i < series_tier_buckets(t, level)->len; i++) {
        bucket x = series_tier_bucket_at(t, level, i);
        if (!series_tier_bucket_fits(form, &x))
            return 0;
    }
    return 1;
}

int series_tier_bucket_widen(tiers *t, int level, const bucket *b)
{
    int form = t->bform[level - 1];
    int want = 0;
    if (form == NARROW_H16) {
        /* H16 buckets fit DEC2 (whose count has 32 bits): only b is new. */
        if (series_tier_bucket_fits(NARROW_DEC2, b))
            want = NARROW_DEC2;
        else if (series_tier_bucket_fits(NARROW_F32, b) && buckets_all_fit(t, level, NARROW_F32))
            want = NARROW_F32;
    } else if (series_tier_bucket_fits(narrow_other(form), b) &&
               buckets_all_fit(t, level, narrow_other(form))) {
        want = narrow_other(form);
    }
    return bucket_recode(t, level, want);
}

/* Re-stores slots [first, first + n) of buf from (old form, old base,
 * old_elem bytes a slot) to t's form and base, in place: last slot first,
 * so that a widened slot is never written before the old slots it
 * covers are read. */
static void raw_restore(const tiers *t, unsigned char *buf, size_t first, size_t n, int old,
                        int64_t obase, size_t old_elem)
{
    size_t e = t->raw.elem;
    for (size_t i = first + n; i-- > first;) {
        raw_pt p = series_tier_raw_decode(old, obase, buf + i * old_elem);
        series_tier_raw_put(t, buf + i * e, p.ts, p.v);
    }
}

/* Rewrites every raw and staged sample from the current form and base to
 * (form, base), in form's element size (forms only widen). 0, or -1 on
 * OOM with the samples unchanged. */
static int raw_recode(tiers *t, int form, int64_t base)
{
    size_t oe = t->raw.elem, ne = series_tier_raw_elem(form);
    if (ne > oe) {
        if (t->caprun) {
            unsigned char *r = realloc(t->run, t->caprun * ne);
            if (!r)
                return -1;
            t->run = r;
        }
        if (deque_widen(&t->raw, ne) != 0)
            return -1;
    }
    int old = t->form;
    int64_t obase = t->base;
    t->form = form;
    t->base = base;
    raw_restore(t, t->run, 0, t->nrun, old, obase, oe);
    raw_restore(t, t->raw.buf, t->raw.head, t->raw.len, old, obase, oe);
    return 0;
}

static int raw_all_fit(const tiers *t, int form)
{
    for (size_t i = 0; i < t->raw.len + t->nrun; i++) {
        raw_pt p = i < t->nrun ? series_tier_run_at(t, i) : series_tier_raw_at(t, i - t->nrun);
        if (!narrow_fits(form, p.v))
            return 0;
    }
    return 1;
}

/* The form raw takes for a value v its own does not fit: a 4-byte form
 * every sample and v fit, else 0. */
static int raw_wider_form(const tiers *t, double v)
{
    if (t->form == NARROW_H16) {
        /* H16 values are DEC2 values: DEC2 needs only v to fit. */
        if (narrow_fits(NARROW_DEC2, v))
            return NARROW_DEC2;
        return narrow_fits(NARROW_F32, v) && raw_all_fit(t, NARROW_F32) ? NARROW_F32 : 0;
    }
    int other = narrow_other(t->form);
    return narrow_fits(other, v) && raw_all_fit(t, other) ? other : 0;
}

int series_tier_raw_widen(tiers *t, int64_t ts, double v, int vfit, int tfit)
{
    int form = t->form;
    if (!vfit && !(form = raw_wider_form(t, v)))
        return raw_recode(t, 0, 0);
    int64_t base = t->base;
    if (!tfit) {
        /* The run precedes raw: the span's ends are its first and raw's last. */
        int64_t lo = t->nrun ? series_tier_run_at(t, 0).ts : series_tier_raw_ts(t, 0);
        int64_t hi = t->raw.len ? series_tier_raw_ts(t, t->raw.len - 1)
                                : series_tier_run_at(t, t->nrun - 1).ts;
        if (ts < lo)
            lo = ts;
        if (ts > hi)
            hi = ts;
        int64_t span;
        if (__builtin_sub_overflow(hi, lo, &span) || span > INT32_MAX)
            return raw_recode(t, 0, 0);
        base = lo + span / 2;
    }
    return raw_recode(t, form, base);
}

