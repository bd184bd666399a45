/* decoder: the table of decoders; see decoder.h. */
#include "io/decode/decoder.h"

#include <stdlib.h>
#include <string.h>

#include "io/decode/decoder_impl.h"
#include "model/util/vec.h"

static const decoder *const rows[] = {
    &decoder_kineto,      &decoder_kineto_maybe, &decoder_tf_trace,   &decoder_cprofile,
    &decoder_pyinstrument, &decoder_rule_report, &decoder_cloudwatch,
    /* appended, so the fuzz corpus's row bytes (fuzz_decoder) keep their rows */
    &decoder_system,      &decoder_smdebug_trace, &decoder_smdebug_tmp,
};

#define NROWS (sizeof rows / sizeof rows[0])

const decoder *decoder_for(const key_info *ki)
{
    for (size_t i = 0; i < NROWS; i++)
        if (rows[i]->kind == (int)ki->kind)
            return rows[i];
    return NULL;
}

const decoder *const *decoder_table(size_t *n)
{
    *n = NROWS;
    return rows;
}

int decoder_read_whole(const decoder *d, const key_info *ki, const char *key, const void *data,
                       size_t len, const rec_sink *out, sm_err *err)
{
    void *st = d->begin(ki, key, err);
    if (!st)
        return -1;
    d->feed(st, data, len, out);   /* no more wanted: end says why */
    return d->end(st, (int64_t)len, out, err);
}

decoder_whole *decoder_whole_begin(const key_info *ki, const char *key, sm_err *err)
{
    decoder_whole *w = calloc(1, sizeof *w);
    if (w && (w->key = strdup(key))) {
        w->ki = *ki;
        return w;
    }
    free(w);
    sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    return NULL;
}

int decoder_whole_feed(void *st, const void *p, size_t n, const rec_sink *out)
{
    decoder_whole *w = st;
    (void)out;
    if (w->oom || !n)
        return 0;
    if (vec_grow(&w->buf, &w->cap, w->n + n + 1, 1, 4096) != 0) {
        w->oom = 1;
        return 0;
    }
    memcpy(w->buf + w->n, p, n);
    w->n += n;
    w->buf[w->n] = '\0';
    return 0;
}

void decoder_whole_drop(void *st)
{
    decoder_whole *w = st;
    if (!w)
        return;
    free(w->key);
    free(w->buf);
    free(w);
}

int decoder_whole_ok(const decoder_whole *w, sm_err *err)
{
    return w->oom ? sm_err_set(err, SM_ERR_NOMEM, "out of memory reading the file") : 0;
}
