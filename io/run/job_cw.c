/* job_cw: see job_cw.h. */
#include "io/run/job_cw.h"

#include <stdlib.h>
#include <string.h>

#include "io/decode/decoder.h"
#include "model/util/idmap.h"
#include "model/util/vec.h"

#define CW_STREAM 0xC10D3A7C40ULL /* model_set_stream: not a file's */

/* A series' newest point added, by its node, type, dimension and name. */
typedef struct seen {
    char *key;              /* "node\0type\0dimension\0name", one block */
    size_t len;
    int64_t last_us;
} seen;

struct job_cw {
    idmap map;              /* hash of the four names -> seen */
    seen **all;
    size_t n, cap;
    int on;                 /* CloudWatch made the system source */
};

typedef struct put_ctx {
    job_cw *c;
    model *m;
    long added;
    int64_t newest;
} put_ctx;

job_cw *job_cw_new(void)
{
    job_cw *c = calloc(1, sizeof *c);
    if (c)
        idmap_init(&c->map);
    return c;
}

void job_cw_free(job_cw *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++) {
        free(c->all[i]->key);
        free(c->all[i]);
    }
    free(c->all);
    idmap_free(&c->map);
    free(c);
}

/* The four names of s in one block, NULs between: its length. */
static size_t key_of(const sm_sample *s, char *buf, size_t cap)
{
    const sm_str parts[4] = {s->node, s->type, s->dimension, s->name};
    size_t n = 0;
    for (int i = 0; i < 4; i++) {
        if (n + parts[i].len + 1 > cap)
            return 0;
        memcpy(buf + n, parts[i].ptr, parts[i].len);
        n += parts[i].len;
        buf[n++] = '\0';
    }
    return n;
}

typedef struct seen_key {
    const char *p;
    size_t n;
} seen_key;

static int seen_eq(const void *item, const void *key)
{
    const seen *s = item;
    const seen_key *k = key;
    return s->len == k->n && !memcmp(s->key, k->p, k->n);
}

/* The series' record, made when new; NULL on OOM. */
static seen *seen_of(job_cw *c, const sm_sample *s)
{
    char buf[512];
    seen_key k = {buf, key_of(s, buf, sizeof buf)};
    const sm_str whole = {buf, k.n};
    uint64_t h = idmap_hash(&whole, 1);
    seen *e = k.n ? idmap_find(&c->map, h, seen_eq, &k) : NULL;
    if (e || !k.n)
        return e;
    if (vec_grow(&c->all, &c->cap, c->n + 1, sizeof *c->all, 64) != 0 ||
        idmap_reserve(&c->map, 1) != 0 || !(e = calloc(1, sizeof *e)))
        return NULL;
    if (!(e->key = malloc(k.n))) {
        free(e);
        return NULL;
    }
    memcpy(e->key, buf, k.n);
    e->len = k.n;
    e->last_us = INT64_MIN;
    idmap_put(&c->map, h, e);
    c->all[c->n++] = e;
    return e;
}

static int put_sample(void *ud, const sm_sample *s)
{
    put_ctx *p = ud;
    seen *e = seen_of(p->c, s);
    if (!e || s->ts_us <= e->last_us)
        return -1;
    e->last_us = s->ts_us;
    if (s->ts_us > p->newest)
        p->newest = s->ts_us;
    int rc = model_add_sample(p->m, s);
    p->added += rc == 0;
    return rc;
}

/* One fetch into m (the lock held): the model told the period and GPUs
 * of what it holds, then every sample the fetch has that is new. */
static void add_fetch(const job_watch_answers *a, model *m, put_ctx *p)
{
    if (a->gpus > 1)
        model_set_gpus_per_series(m, a->gpus);
    if (a->period_s != 60)
        model_set_system_source(m, "CloudWatch", (int64_t)a->period_s * 1000000);
    key_info ki = {.kind = KEY_CLOUDWATCH};
    const decoder *d = decoder_for(&ki);
    rec_sink out = {.ud = p, .sample = put_sample};
    sm_err err = {0};
    model_set_stream(m, CW_STREAM);
    decoder_read_whole(d, &ki, a->key, a->xml, a->len, &out, &err);
    /* each host's CPU is one core: its total needs no later sample */
    model_flush(m, 1);
}

long job_cw_drain(job_cw *c, job_watch *w, model *m, pthread_mutex_t *lock)
{
    job_watch_answers a;
    put_ctx p = {c, m, 0, 0};
    /* chosen once a pass found no system metrics: said even before (or
     * without) a fetch that worked */
    if (!c->on && job_watch_cloudwatch(w, NULL)) {
        if (lock)
            pthread_mutex_lock(lock);
        model_set_system_source(m, "CloudWatch", 60 * 1000000LL);
        if (lock)
            pthread_mutex_unlock(lock);
        c->on = 1;
    }
    while (job_watch_take(w, &a)) {
        if (lock)
            pthread_mutex_lock(lock);
        add_fetch(&a, m, &p);
        if (lock)
            pthread_mutex_unlock(lock);
        free(a.xml);
    }
    if (p.newest)
        job_watch_note_newest(w, p.newest);
    return p.added;
}
