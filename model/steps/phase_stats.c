/* phase_stats: durations of one kind of framework event on one node.
 *
 * stddev is the population standard deviation (divide by n), kept with
 * Welford's update so it stays accurate for long runs of similar values.
 * The recent-event deque is sorted by start time; an out-of-order event is
 * inserted in place, and once full an event older than every retained one
 * only counts in the statistics. */
#include "model/steps/phase_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/series/deque.h"
#include "model/series/quantile.h"
#include "model/util/lbound.h"

struct phase_stats {
    char *label;
    phase_kind kind;
    /* While `deferred`, q holds no value: exact_cap <= the recent cap, so
     * while count <= exact_cap every duration is also a retained event,
     * and exact percentiles are taken from those (a node's phases: 16 KB
     * each not kept twice). The duration that ends exact mode hands q
     * every retained one first (undefer). */
    quant *q;
    int deferred;
    size_t exact_cap;
    uint64_t pct_gen;           /* p50/p95/p99 computed at this gen + 1 */
    double pct[3];
    int64_t count;
    double mean, m2;            /* Welford, for the deviation */
    /* The exact sum of durations, for a mean that does not depend on the
     * order events arrived in (the live scanner's order is not the
     * report's). 2^127 µs: no overflow. */
    __extension__ __int128 sum;
    int64_t min, max;
    int64_t first_start, last_end;
    uint32_t hist[PHASE_HIST_BUCKETS];
    /* By start_us, in the smallest form every retained event fits
     * (ev_form): near_event (12 bytes, start after base), packed_event
     * (16) or phase_event (24). */
    deque recent;
    int form;
    int64_t base;
    uint64_t gen;
    /* Events staged in front of recent, in its element form: an older
     * file's events, each older than every retained one and in start
     * order, so that they join recent in one block (settle) instead of
     * one insert each, which moved every event staged before it
     * (issue 15: 4 % of a report's CPU). Readers settle first. */
    unsigned char *run;
    size_t nrun, caprun;        /* caprun in bytes */
};

/* A retained event in 16 bytes: a step's duration fits 32 bits of µs
 * (71 min) and its number 32 bits; the 4,096 newest events of each phase
 * were a sixth of a node's memory at 24 bytes. */
typedef struct packed_event {
    int64_t start_us;
    uint32_t dur_us;
    int32_t step;
} packed_event;

/* The same in 12 bytes while the retained events' starts lie within 71
 * min of each other (a busy phase's 4,096 newest span seconds to
 * minutes): the start as µs after the phase's base. At 10 min of 64
 * nodes the retained events were the largest single cost of the model. */
typedef struct near_event {
    uint32_t start_off;
    uint32_t dur_us;
    int32_t step;
} near_event;

/* Forms only ever widen (as series buckets do), so a phase re-stores its
 * events at most twice; only a new base re-stores near events in place
 * of each other, and a base leaves room on both sides (near_rebase). */
enum { EV_NEAR, EV_PACKED, EV_WIDE };
/* A full recent deque re-centres (a 48 KB move) once per ~100 appends
 * with 1/32 of slack; 1/8 cost 6 KB a phase, 8 MB at 256 nodes. */
#define PHASE_RECENT_SLACK(cap) ((cap) / 32)

static const size_t ev_size[] = {sizeof(near_event), sizeof(packed_event),
                                 sizeof(phase_event)};

static int packs(const phase_event *e)
{
    return e->dur_us >= 0 && e->dur_us <= UINT32_MAX && e->step >= INT32_MIN &&
           e->step <= INT32_MAX;
}

static int near_fits(const phase_stats *p, int64_t start_us)
{
    return start_us >= p->base && (uint64_t)start_us - (uint64_t)p->base <= UINT32_MAX;
}

static phase_event event_at(const phase_stats *p, size_t i)
{
    const void *at = deque_at(&p->recent, i);
    if (p->form == EV_WIDE)
        return *(const phase_event *)at;
    if (p->form == EV_PACKED) {
        const packed_event *k = at;
        return (phase_event){k->step, k->start_us, k->dur_us};
    }
    const near_event *k = at;
    return (phase_event){k->step, p->base + (int64_t)k->start_off, k->dur_us};
}

/* The start of an event stored in p's form at `at`. */
static int64_t elem_start(const phase_stats *p, const void *at)
{
    if (p->form == EV_WIDE)
        return ((const phase_event *)at)->start_us;
    if (p->form == EV_PACKED)
        return ((const packed_event *)at)->start_us;
    return p->base + (int64_t)((const near_event *)at)->start_off;
}

static int64_t start_at(const phase_stats *p, size_t i)
{
    return elem_start(p, deque_at(&p->recent, i));
}

/* Joins the staged events to recent, in front (stage reserved the
 * room). A cache flush that changes no answer, as quantile_get's sort:
 * readers call it through a const pointer under the model's lock. */
static const phase_stats *settle(const phase_stats *cp)
{
    phase_stats *p = (phase_stats *)cp;
    if (p->nrun) {
        deque_prepend(&p->recent, p->run, p->nrun);
        p->nrun = 0;
    }
    return cp;
}

/* Writes e in p's form into out (ev_size[p->form] bytes); e must fit it. */
static void ev_encode(const phase_stats *p, const phase_event *e, void *out)
{
    if (p->form == EV_WIDE) {
        memcpy(out, e, sizeof *e);
    } else if (p->form == EV_PACKED) {
        packed_event k = {e->start_us, (uint32_t)e->dur_us, (int32_t)e->step};
        memcpy(out, &k, sizeof k);
    } else {
        near_event k = {(uint32_t)((uint64_t)e->start_us - (uint64_t)p->base),
                        (uint32_t)e->dur_us, (int32_t)e->step};
        memcpy(out, &k, sizeof k);
    }
}

/* Re-stores the retained events in form (with base, for EV_NEAR), room
 * for one more reserved. 0, or -1 on OOM (p unchanged). */
static int restore_recent(phase_stats *p, int form, int64_t base)
{
    deque w;
    deque_init(&w, ev_size[form], p->recent.max_len, p->recent.slack);
    if (deque_reserve(&w, p->recent.len + 1) != 0)
        return -1;
    phase_stats to = *p;
    to.form = form;
    to.base = base;
    unsigned char buf[sizeof(phase_event)];
    for (size_t i = 0; i < p->recent.len; i++) {
        phase_event e = event_at(p, i);
        ev_encode(&to, &e, buf);
        deque_insert(&w, i, buf);    /* reserved: cannot fail */
    }
    deque_free(&p->recent);
    p->recent = w;
    p->form = form;
    p->base = base;
    return 0;
}

/* The start of the newest staged event. */
static int64_t run_last_start(const phase_stats *p)
{
    return elem_start(p, p->run + (p->nrun - 1) * p->recent.elem);
}

/* Stages ev when recent_put would insert it right after the staged
 * events: older than every retained event, not older than the last staged
 * one, fitting the retained events' form as it is, and room for all
 * without an eviction. 1 when staged, 0 when not applicable, -1 on OOM (p
 * unchanged). */
static int stage(phase_stats *p, const phase_event *ev)
{
    deque *d = &p->recent;
    if (p->nrun && ev->start_us < run_last_start(p))
        settle(p);   /* the next older file begins */
    if (!d->len || d->len + p->nrun + 1 > d->max_len || ev->start_us >= start_at(p, 0))
        return 0;
    if (p->form != EV_WIDE && !packs(ev))
        return 0;
    if (p->form == EV_NEAR && !near_fits(p, ev->start_us))
        return 0;
    if ((p->nrun + 1) * d->elem > p->caprun) {
        /* In bytes: the form, so the element size, may have widened
         * since the last run. */
        size_t cap = p->caprun ? p->caprun * 2 : 64 * d->elem;
        if (cap < (p->nrun + 1) * d->elem)
            cap = (p->nrun + 1) * d->elem;
        unsigned char *r = realloc(p->run, cap);
        if (!r)
            return -1;
        p->run = r;
        p->caprun = cap;
    }
    if (deque_reserve(d, d->len + p->nrun + 1) != 0)
        return -1;
    ev_encode(p, ev, p->run + p->nrun++ * d->elem);
    return 1;
}

/* Near events with start_us among them: a base that leaves a quarter of
 * the free span before the oldest start and the rest after the newest,
 * so that events arriving in time order or a file back re-store rarely;
 * packed form once the starts span over 3/4 of 32 bits. 0 or -1 (OOM). */
static int near_rebase(phase_stats *p, int64_t start_us)
{
    int64_t lo = start_us, hi = start_us;
    if (p->recent.len) {
        int64_t a = start_at(p, 0), b = start_at(p, p->recent.len - 1);
        lo = a < lo ? a : lo;
        hi = b > hi ? b : hi;
    }
    uint64_t span = (uint64_t)hi - (uint64_t)lo;
    const uint64_t most = (uint64_t)UINT32_MAX / 4 * 3;
    int64_t base;
    if (span > most || __builtin_sub_overflow(lo, (int64_t)(((uint64_t)UINT32_MAX - span) / 4), &base))
        return restore_recent(p, EV_PACKED, 0);
    if (!p->recent.len) {
        p->base = base;
        return 0;
    }
    return restore_recent(p, EV_NEAR, base);
}

phase_stats *phase_stats_new_bounded(const char *label, phase_kind kind, size_t exact_cap,
                                     size_t recent_cap)
{
    phase_stats *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->label = strdup(label ? label : "");
    p->q = quantile_new(exact_cap);
    p->exact_cap = exact_cap;
    p->deferred = exact_cap <= recent_cap;
    if (!p->label || !p->q) {
        phase_stats_free(p);
        return NULL;
    }
    p->kind = kind;
    p->form = EV_NEAR;
    deque_init(&p->recent, ev_size[EV_NEAR], recent_cap, PHASE_RECENT_SLACK(recent_cap));
    return p;
}

phase_stats *phase_stats_new(const char *label, phase_kind kind)
{
    return phase_stats_new_bounded(label, kind, PHASE_EXACT_CAP, PHASE_RECENT_CAP);
}

/* Adds every retained duration of p to q. 0, or -1 on OOM. */
static double retained_dur(const void *ctx, size_t i)
{
    return (double)event_at(ctx, i).dur_us;
}

static int add_retained(quant *q, const phase_stats *p)
{
    settle(p);   /* first: it changes recent.len */
    return quantile_add_all(q, retained_dur, p, p->recent.len);
}

/* Gives clone c p's durations: c stays deferred when p is and c's
 * bounds allow it (c's recent will hold all p's events, and c is still
 * exact with that many), else c's quant takes them. 0, or -1 on OOM. */
static int clone_quant(phase_stats *c, const phase_stats *p)
{
    if (!p->deferred) {
        c->deferred = 0;
        return quantile_merge(c->q, p->q);
    }
    if (c->deferred && (uint64_t)p->count <= c->recent.max_len &&
        (uint64_t)p->count <= c->exact_cap)
        return 0;
    c->deferred = 0;
    return add_retained(c->q, p);
}

/* Ends deferred mode: q takes every duration so far (all retained).
 * 0, or -1 on OOM (p unchanged). */
static int undefer(phase_stats *p)
{
    quant *q = quantile_new(p->exact_cap);
    if (!q || add_retained(q, p) != 0) {
        quantile_free(q);
        return -1;
    }
    quantile_free(p->q);
    p->q = q;
    p->deferred = 0;
    return 0;
}

phase_stats *phase_stats_clone(const phase_stats *p, size_t exact_cap, size_t recent_cap)
{
    phase_stats *c = phase_stats_new_bounded(settle(p)->label, p->kind, exact_cap, recent_cap);
    size_t keep = p->recent.len < recent_cap ? p->recent.len : recent_cap;
    if (c) {     /* the same layout, so that the copy is one block */
        c->form = p->form;
        c->base = p->base;
        deque_init(&c->recent, ev_size[p->form], recent_cap, PHASE_RECENT_SLACK(recent_cap));
    }
    if (!c || clone_quant(c, p) != 0 || deque_reserve(&c->recent, keep) != 0) {
        phase_stats_free(c);
        return NULL;
    }
    if (keep)   /* the newest: recent is in start order */
        deque_prepend(&c->recent, deque_at(&p->recent, p->recent.len - keep), keep);
    c->count = p->count;
    c->sum = p->sum;
    c->mean = p->mean;
    c->m2 = p->m2;
    c->min = p->min;
    c->max = p->max;
    c->first_start = p->first_start;
    c->last_end = p->last_end;
    memcpy(c->hist, p->hist, sizeof c->hist);
    c->gen = p->gen;
    return c;
}

void phase_stats_free(phase_stats *p)
{
    if (!p)
        return;
    free(p->label);
    quantile_free(p->q);
    deque_free(&p->recent);
    free(p->run);
    free(p);
}

size_t phase_hist_bucket(int64_t dur)
{
    if (dur <= 1)
        return 0;
    double b = floor(PHASE_HIST_PER_OCTAVE * log2((double)dur));
    return b >= PHASE_HIST_BUCKETS - 1 ? PHASE_HIST_BUCKETS - 1 : (size_t)b;
}

double phase_hist_lower_us(size_t bucket)
{
    return exp2((double)bucket / PHASE_HIST_PER_OCTAVE);
}

typedef struct start_key {
    const phase_stats *p;
    int64_t t;
} start_key;

static int starts_by(const void *ctx, size_t i)
{
    const start_key *k = ctx;
    return start_at(k->p, i) <= k->t;
}

/* First retained index whose start is > t (stable after equal starts). */
static size_t recent_upper(const phase_stats *p, int64_t t)
{
    size_t n = p->recent.len;
    if (n && start_at(p, n - 1) <= t)
        return n;   /* the usual case: in time order */
    start_key k = {p, t};
    return lbound(n, starts_by, &k);
}

/* 0, or -1 on OOM (the retained events unchanged). */
static int recent_put(phase_stats *p, const phase_event *ev)
{
    deque *d = &p->recent;
    int st = stage(p, ev);
    if (st != 0)
        return st < 0 ? -1 : 0;
    settle(p);
    if (p->nrun == 0 && p->caprun && d->len == d->max_len) {
        /* Nothing stages into a full deque: free the staging room. */
        free(p->run);
        p->run = NULL;
        p->caprun = 0;
    }
    if (d->len == d->max_len && ev->start_us < start_at(p, 0))
        return 0;
    if (p->form != EV_WIDE && !packs(ev)) {
        if (restore_recent(p, EV_WIDE, 0) != 0)
            return -1;
    } else if (p->form == EV_NEAR && (!d->len || !near_fits(p, ev->start_us))) {
        if (near_rebase(p, ev->start_us) != 0)
            return -1;
    }
    unsigned char buf[sizeof(phase_event)];
    ev_encode(p, ev, buf);
    if (deque_insert(d, recent_upper(p, ev->start_us), buf) != 0)
        return -1;
    if (d->len > d->max_len)
        deque_pop_front(d);
    return 0;
}

int phase_stats_add(phase_stats *p, int64_t step, int64_t start_us, int64_t dur_us)
{
    if (dur_us < 0)
        dur_us = 0;  /* a clock step backwards; 0 is the honest lower bound */
    phase_event ev = {step, start_us, dur_us};
    double d = (double)dur_us;
    if (p->deferred && (uint64_t)p->count >= p->exact_cap && undefer(p) != 0)
        return -1;
    if ((!p->deferred && quantile_reserve(p->q, d) != 0) || recent_put(p, &ev) != 0)
        return -1;
    if (!p->deferred)
        quantile_add(p->q, d);
    int64_t end;
    if (__builtin_add_overflow(start_us, dur_us, &end))
        end = INT64_MAX;
    if (p->count == 0) {
        p->min = p->max = dur_us;
        p->first_start = start_us;
        p->last_end = end;
    }
    if (dur_us < p->min)
        p->min = dur_us;
    if (dur_us > p->max)
        p->max = dur_us;
    if (start_us < p->first_start)
        p->first_start = start_us;
    if (end > p->last_end)
        p->last_end = end;
    p->count++;
    p->sum += dur_us;
    double delta = d - p->mean;
    p->mean += delta / (double)p->count;
    p->m2 += delta * (d - p->mean);
    p->hist[phase_hist_bucket(dur_us)]++;
    p->gen++;
    return 0;
}

const char *phase_stats_label(const phase_stats *p) { return p->label; }
phase_kind phase_stats_kind(const phase_stats *p) { return p->kind; }
uint64_t phase_stats_generation(const phase_stats *p) { return p->gen; }
const uint32_t *phase_stats_histogram(const phase_stats *p) { return p->hist; }

static const double *percentiles(const phase_stats *cp);

void phase_stats_settle(phase_stats *p)
{
    settle(p);
    if (p->count)
        (void)percentiles(p);
}

/* p50, p95 and p99, cached per generation. A deferred phase takes them
 * exactly from its retained durations (quantile_exact_of: the same
 * definition as q's exact mode); NAN on OOM. Like quantile_get's sort, a
 * cache that changes no answer: the const getter may fill it (the model's
 * lock serialises readers and writers). */
static const double *percentiles(const phase_stats *cp)
{
    phase_stats *p = (phase_stats *)cp;
    if (p->pct_gen == p->gen + 1)
        return p->pct;
    static const double pct[3] = {50, 95, 99};
    int rc = 0;
    if (p->deferred) {
        settle(p);   /* first: it changes recent.len */
        rc = quantile_exact_of(retained_dur, p, p->recent.len, pct, 3, p->pct);
    } else {
        for (int i = 0; i < 3; i++)
            p->pct[i] = quantile_get(p->q, pct[i]);
    }
    if (rc == 0)
        p->pct_gen = p->gen + 1;
    return p->pct;
}

int phase_stats_quantiles(const phase_stats *cp, const double *pct, size_t k, double *out)
{
    phase_stats *p = (phase_stats *)cp;   /* caches only, as percentiles() */
    if (p->deferred) {
        settle(p);
        return quantile_exact_of(retained_dur, p, p->recent.len, pct, k, out);
    }
    for (size_t i = 0; i < k; i++)
        out[i] = quantile_get(p->q, pct[i]);
    return 0;
}

void phase_stats_get_summary(const phase_stats *p, phase_summary *out)
{
    memset(out, 0, sizeof *out);
    out->count = p->count;
    out->exact = 1;
    if (p->count == 0) {
        out->mean_us = out->stddev_us = out->p50_us = out->p95_us = out->p99_us = NAN;
        return;
    }
    out->mean_us = (double)p->sum / (double)p->count;
    out->stddev_us = sqrt(p->m2 / (double)p->count);
    out->min_us = p->min;
    out->max_us = p->max;
    out->first_start_us = p->first_start;
    out->last_end_us = p->last_end;
    const double *pct = percentiles(p);
    out->p50_us = pct[0];
    out->p95_us = pct[1];
    out->p99_us = pct[2];
    out->exact = p->deferred || quantile_is_exact(p->q);
    double err_abs;   /* 0: durations use the log sketch alone */
    out->err_rel = 0;
    if (!p->deferred)
        quantile_error_bound(p->q, &err_abs, &out->err_rel);
}

size_t phase_stats_recent(const phase_stats *p, phase_event *out, size_t max)
{
    settle(p);
    size_t n = p->recent.len < max ? p->recent.len : max;
    for (size_t i = 0; i < n; i++)
        out[i] = event_at(p, p->recent.len - n + i);
    return n;
}

size_t phase_stats_recent_count(const phase_stats *p)
{
    return p->recent.len + p->nrun;
}

size_t phase_stats_recent_bytes(const phase_stats *p)
{
    return ev_size[p->form];
}

size_t phase_stats_memory_bytes(const phase_stats *p)
{
    return sizeof *p + strlen(p->label) + 1 + quantile_memory_bytes(p->q) +
           deque_bytes(&p->recent) + p->caprun;
}

size_t phase_stats_recent_upto(const phase_stats *p, int64_t t_us)
{
    return recent_upper(settle(p), t_us);
}

size_t phase_stats_recent_from(const phase_stats *p, size_t first, phase_event *out,
                               size_t max)
{
    settle(p);
    if (first >= p->recent.len)
        return 0;
    size_t n = p->recent.len - first < max ? p->recent.len - first : max;
    for (size_t i = 0; i < n; i++)   /* events are packed: unpack each */
        out[i] = event_at(p, first + i);
    return n;
}

size_t phase_stats_in_range(const phase_stats *p, int64_t t0_us, int64_t t1_us,
                            phase_event *out, size_t max)
{
    const deque *d = &settle(p)->recent;
    if (t1_us <= t0_us || !d->len)
        return 0;
    size_t end = recent_upper(p, t1_us - 1), n = 0;
    /* Long events starting before t0 may still overlap: scan from 0. */
    for (size_t i = 0; i < end && n < max; i++) {
        phase_event e = event_at(p, i);
        int64_t stop = e.start_us + e.dur_us;
        if (stop > t0_us || (e.dur_us == 0 && e.start_us >= t0_us))
            out[n++] = e;
    }
    return n;
}
