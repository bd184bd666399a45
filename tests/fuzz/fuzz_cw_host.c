/* Fuzz target: the "cloudwatch" decoder (GetMetricData answers as a
 * dashboard's ingest path reads them) on arbitrary bytes, fed in two
 * pieces through begin/feed/end into a capture sink, then the same
 * samples into a model. Samples name a host in range and come oldest
 * first (a malformed answer that repeats an Id out of order included:
 * ../shared/findings/cw_host_points_out_of_order.xml); the paging's NextToken stays NUL-terminated in its
 * buffer; never a crash. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/aws/cw_host.h"
#include "io/decode/cw_answer.h"
#include "io/decode/decoder.h"
#include "model/model.h"

#define HOSTS 64

typedef struct ctx {
    model *m;
    int64_t last;
} ctx;

static int on_sample(void *ud, const sm_sample *s)
{
    ctx *c = ud;
    char node[16];
    if (s->node.len < 6 || s->node.len >= sizeof node || memcmp(s->node.ptr, "algo-", 5))
        abort();
    memcpy(node, s->node.ptr, s->node.len);
    node[s->node.len] = '\0';
    int host = atoi(node + 5);
    if (host < 1 || host > HOSTS || s->ts_us < c->last)
        abort();   /* a host in range; samples oldest first, over every result */
    c->last = s->ts_us;
    sm_sample own = *s;
    own.node = sm_str_c(node);
    model_add_sample(c->m, &own);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *xml = malloc(size + 1);
    ctx c = {.m = model_new(NULL), .last = INT64_MIN};
    if (!xml || !c.m) {
        free(xml);
        model_free(c.m);
        return 0;
    }
    memcpy(xml, data, size);
    xml[size] = '\0';
    char key[192];
    cw_answer_key(size % 2 ? "ml.p4d.24xlarge" : "ml.zz9.unknown", (int)(size % 3), HOSTS, 60,
                  key, sizeof key);
    key_info ki = {.kind = KEY_CLOUDWATCH};
    const decoder *d = decoder_for(&ki);
    rec_sink out = {.ud = &c, .sample = on_sample};
    sm_err err;
    void *st = d->begin(&ki, key, &err);
    if (st) {
        size_t half = size / 3;
        d->feed(st, xml, half, &out);
        d->feed(st, xml + half, size - half, &out);
        d->end(st, (int64_t)size, &out, &err);
    }
    char next[64];
    cw_host_next_token(xml, size, next, sizeof next);
    if (strnlen(next, sizeof next) == sizeof next)
        abort();
    model_flush(c.m, 1);
    model_free(c.m);
    free(xml);
    return 0;
}
