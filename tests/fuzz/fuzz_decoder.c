/* Fuzz target: every row of the decoder table (io/decode/decoder.h) over
 * begin, feed and end, with a capture sink that checks what the contract
 * promises of the records.
 *
 * Input: byte 0 picks the row (its index modulo the rows), byte 1 the
 * size of the pieces the rest is fed in (1 to 256 bytes, or whole when
 * 0), the rest is the file. Each row reads it under a key of its kind
 * (a cloudwatch key names an instance type). Checked: match is pure and
 * says -1, 0 or 1; a window's records come BEGIN, FUNCs, then one of
 * END, FAILED or ABORT, every one for the same key; an event lasts >= 0;
 * a sample's value and time are what a model takes or refuses, never a
 * crash (a line file fed whole gets its lines decoded ahead, as the
 * scanner lends them, and its samples come as runs of a key the sink
 * filled); a finished trace is complete (its metadata's events >= its bad
 * ones), owned by the sink (freed here); end after feed said "no more"
 * still ends; drop after a partial feed frees everything (ASan). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/cw_answer.h"
#include "io/decode/decoder.h"
#include "io/decode/decoder_lines.h"
#include "io/decode/predec.h"
#include "model/model.h"
#include "model/pystats/pystats.h"

typedef struct capture {
    model *m;
    const char *key;
    int py_state;          /* 0 none, 1 in a window, 2 closed */
    long samples, events, traces;
} capture;

static int on_sample(void *ud, const sm_sample *s)
{
    capture *c = ud;
    c->samples++;
    return model_add_sample(c->m, s);
}

/* The line rows' keyed samples, as the scanner's sink adds them. */
static int on_sample_ref(void *ud, const sm_sample *s, rec_ref *ref)
{
    capture *c = ud;
    c->samples++;
    return model_shard_add_sample_ref(model_writer(c->m), s, ref);
}

static void on_run(void *ud, rec_ref *ref, const sm_sample *proto, const int64_t *ts,
                   const double *v, size_t n, unsigned char *taken)
{
    capture *c = ud;
    if (!ref || !ref->ent || n == 0 || n > REC_RUN_MAX)
        abort();   /* runs come only for a key the sink filled */
    c->samples += (long)n;
    model_shard_add_run(model_writer(c->m), ref, proto, ts, v, n, taken);
}

static void on_run_taken(void *ud, const rec_ref *ref, const sm_sample *s)
{
    model_shard_note_cpu(model_writer(((capture *)ud)->m), ref, s);
}

static int on_event(void *ud, const sm_event *e)
{
    capture *c = ud;
    if (e->dur_us < 0)
        abort();
    c->events++;
    return model_add_event(c->m, e);
}

static int on_pywindow(void *ud, const sm_pywindow *w)
{
    capture *c = ud;
    if (!w->key || strcmp(w->key, c->key))
        abort();
    if (w->what == SM_PY_BEGIN) {
        if (c->py_state == 1 || !w->info)
            abort();
        c->py_state = 1;
    } else if (w->what == SM_PY_FUNC) {
        if (c->py_state != 1 || !w->func || w->func->name.len > (1u << 30))
            abort();
    } else {
        if (c->py_state != 1 && w->what != SM_PY_ABORT)
            abort();
        c->py_state = 2;
    }
    return 0;
}

static int on_trace(void *ud, sm_trace_done *t, sm_err *err)
{
    capture *c = ud;
    (void)err;
    if (!t->tr || !t->keep || !t->key || t->meta.bad_events > t->meta.events ||
        strnlen(t->host, sizeof t->host) == sizeof t->host)
        abort();
    c->traces++;
    decoder_kineto_free_done(t);
    return 0;
}

static void on_note(void *ud, const char *what)
{
    (void)ud;
    if (!what)
        abort();
}

/* A key of d's kind. */
static const char *key_of(const decoder *d, char *buf, size_t cap)
{
    switch (d->kind) {
    case KEY_SYSTEM:
        return "system/incremental/2020071317/1594662600.algo-1.json";
    case KEY_TRACE:
        return "framework/pevents/2020071317/1594662674000000_1-algo-1_pythontimeline.json";
    case KEY_TRACE_TMP:
        return "framework/1-algo-1_pythontimeline.json.tmp";
    case KEY_KINETO:
        return "tensorboard-output/algo-1_42.1795802781336108651.pt.trace.json";
    case KEY_KINETO_MAYBE:
        return "tensorboard-output/run/trace.json";
    case KEY_TF_TRACE:
        return "framework/tensorflow/detailed_profiling/2020071317/000000007/plugins/"
               "profile/2020_07_13_17_50_14/algo-1.trace.json.gz";
    case KEY_CPROFILE:
        return "framework/pytorch/cprofile/algo-1/"
               "train-9-stepstart-1_train-11-stepend-2/python_stats";
    case KEY_PYINSTRUMENT:
        return "framework/pytorch/pyinstrument/algo-1/"
               "train-9-stepstart-1_train-11-stepend-2/python_stats.json";
    case KEY_RULE_REPORT:
        return "rule-output/ProfilerReport-1/profiler-output/profiler-reports/LowGPU.json";
    case KEY_CLOUDWATCH:
        return cw_answer_key("ml.p4d.24xlarge", 0, 8, 60, buf, cap);
    default:
        return "x";
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    size_t nrows;
    const decoder *const *rows = decoder_table(&nrows);
    const decoder *d = rows[data[0] % nrows];
    size_t piece = data[1] ? data[1] : size;
    data += 2;
    size -= 2;
    char kbuf[192];
    capture c = {.m = model_new(NULL), .key = key_of(d, kbuf, sizeof kbuf)};
    if (!c.m)
        return 0;
    key_info ki;
    keyname_parse(c.key, &ki);
    ki.kind = (key_kind)d->kind;
    if (ki.kind == KEY_TF_TRACE)
        ki.time_us = 1594662614000000LL;   /* placed, as by smdebug's record */
    int m1 = d->match(&ki, data, size), m2 = d->match(&ki, data, size);
    if (m1 != m2 || m1 < -1 || m1 > 1)
        abort();
    rec_sink out = {.ud = &c, .sample = on_sample, .event = on_event,
                    .pywindow = on_pywindow, .trace = on_trace, .note = on_note,
                    .sample_ref = on_sample_ref, .run = on_run, .run_taken = on_run_taken};
    sm_err err = {0};
    void *st = d->begin(&ki, c.key, &err);
    /* A line file fed whole gets its lines decoded ahead, as the scanner
     * lends them: its samples then come as runs. */
    predec_buf ahead = {0};
    sysdec_scratch scratch = {0};
    predec pre;
    if (st && d->grows && piece >= size) {
        predec_decode(&ahead, &scratch, (const char *)data, size,
                      d->kind == KEY_SYSTEM ? PREDEC_SYSTEM : PREDEC_TRACE);
        pre = predec_view(&ahead);
        decoder_lines_lend(st, &pre, NULL);
    }
    if (st) {
        size_t at = 0;
        int more = 1;
        while (at < size && more) {
            size_t n = size - at < piece ? size - at : piece;
            more = d->feed(st, data + at, n, &out) == 0;
            at += n;
            if (d->held)
                (void)d->held(st);
        }
        /* a read cut short half the time: dropped, else ended */
        if (at < size && (size & 1))
            d->drop(st);
        else if (d->end(st, (int64_t)at, &out, &err) != 0 && !err.msg[0])
            abort();   /* a failed end says why */
    }
    predec_buf_free(&ahead);
    sys_decode_scratch_free(&scratch);
    if (c.py_state == 1)
        abort();   /* a window begun and never closed */
    model_flush(c.m, 1);
    model_free(c.m);
    return 0;
}
