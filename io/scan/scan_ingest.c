/* scan_ingest: see scan_ingest.h. The sink moves the entry's mark
 * (high_water_us) only for what the model took: a refused end near
 * INT64_MAX would hide every later event of a replaced file. */
#include "io/scan/scan_ingest.h"

#include "io/scan/scanner_internal.h"

typedef struct entry_sink {
    model_shard *w;
    cat_entry *e;
} entry_sink;

static void mark(cat_entry *e, int64_t t)
{
    if (t > e->high_water_us)
        e->high_water_us = t;
}

static int on_sample_ref(void *ud, const sm_sample *s, rec_ref *ref)
{
    entry_sink *k = ud;
    int rc = model_shard_add_sample_ref(k->w, s, ref);
    if (rc == 0)
        mark(k->e, s->ts_us);
    return rc;
}

static void on_run(void *ud, rec_ref *ref, const sm_sample *proto, const int64_t *ts,
                   const double *v, size_t n, unsigned char *taken)
{
    entry_sink *k = ud;
    model_shard_add_run(k->w, ref, proto, ts, v, n, taken);
    for (size_t j = 0; j < n; j++)
        if (taken[j])
            mark(k->e, ts[j]);
}

static void on_run_taken(void *ud, const rec_ref *ref, const sm_sample *s)
{
    model_shard_note_cpu(((entry_sink *)ud)->w, ref, s);
}

static int on_event(void *ud, const sm_event *ev)
{
    entry_sink *k = ud;
    int rc = model_shard_add_event(k->w, ev);
    if (rc == 0)
        mark(k->e, sm_event_end(ev));
    return rc;
}

static rec_sink sink_of(ingest_ctx *cx, entry_sink *k)
{
    return (rec_sink){.ud = k, .event = on_event,
                      .sample_ref = on_sample_ref, .run = on_run, .run_taken = on_run_taken,
                      .lines = &cx->n};
}

lines_rd *scan_ingest_reader(ingest_ctx *cx, cat_entry *e)
{
    if (e->rd)
        return e->rd;
    key_info ki;
    catalog_entry_info(e, &ki);
    lines_opts o = {.carry = cx->carry, .skip_until_us = e->skip_until_us, .from = e->consumed};
    sm_err err = {0};
    e->rd = decoder_lines_begin(&ki, &o, &err);
    return e->rd;
}

int scan_ingest_bytes(ingest_ctx *cx, cat_entry *e, const char *data, size_t len,
                      size_t data_offset, int is_final)
{
    lines_rd *rd = scan_ingest_reader(cx, e);
    if (!rd)
        return -1;
    const decoder *d = scan_decoder(e);
    entry_sink k = {cx->w, e};
    rec_sink out = sink_of(cx, &k);
    decoder_lines_lend(rd, cx->pre, cx->scratch);
    if (d->feed(rd, data + data_offset, len - data_offset, &out) != 0)
        return -1;
    e->consumed += (int64_t)len;
    if (is_final) {
        sm_err err = {0};
        e->rd = NULL;
        decoder_lines_lend(rd, NULL, cx->scratch);
        d->end(rd, e->consumed, &out, &err);   /* only an OOM fails it: said as such */
    }
    return 0;
}

void scan_ingest_finish_entry(ingest_ctx *cx, cat_entry *e)
{
    entry_sink k = {cx->w, e};
    rec_sink out = sink_of(cx, &k);
    if (e->rd)
        decoder_lines_lend(e->rd, NULL, cx->scratch);
    decoder_lines_flush(e->rd, &out);
}
