/* Fuzz target: the gzip + TF trace path, entered where the loader enters it
 * (io/run/job.c → tf_trace_ingest: step from the key, anchor from the model's
 * Step events, inflate, JSON parse, placement into the model).
 *
 * Inputs starting with the gzip magic are used as they are (exercising
 * inflate on broken members); anything else is treated as the JSON text and
 * gzip'd first, so mutations reach the trace parser instead of dying in the
 * CRC check. The pure decoder is also run with a checking sink: every event
 * must have dur >= 0 and the node it was given. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "io/decode/tf_trace.h"
#include "model/model.h"

#define NODE "algo-1"
/* Step 7 of the key below starts here in the seeded model, so ingest takes
 * the anchored (session-relative) branch as it does in a live job. */
#define STEP_START_US 1594662614000000LL
#define KEY "framework/tensorflow/detailed_profiling/2020071317/000000007/" \
            "plugins/profile/2020_07_13_17_50_14/algo-1.trace.json.gz"

static void sink(void *ud, const sm_event *e)
{
    (void)ud;
    if (e->dur_us < 0 || e->node.len != 6 || memcmp(e->node.ptr, NODE, 6) != 0)
        abort();
    volatile size_t touch = e->name.len + e->phase.len;
    (void)touch;
}

static unsigned char *gzip_buf(const uint8_t *d, size_t n, size_t *out_n)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, 1, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return NULL;
    size_t cap = deflateBound(&zs, n) + 32;
    unsigned char *b = malloc(cap);
    zs.next_in = (Bytef *)d;
    zs.avail_in = (uInt)n;
    zs.next_out = b;
    zs.avail_out = (uInt)cap;
    if (!b || deflate(&zs, Z_FINISH) != Z_STREAM_END) {
        free(b);
        b = NULL;
    }
    *out_n = zs.total_out;
    deflateEnd(&zs);
    return b;
}

/* A model that already holds step 7's Step event on NODE, as the scanner's
 * pevents pass would have left it before the trace arrives. */
static model *seeded_model(void)
{
    model *m = model_new(NULL);
    if (!m)
        return NULL;
    sm_event st = {
        .node = {NODE, 6}, .phase = {"Step:ModeKeys.TRAIN", 19},
        .name = {"Step", 4}, .start_us = STEP_START_US, .dur_us = 250000,
        .step = 7, .pid = 1, .tid = 1,
    };
    model_add_event(m, &st);
    return m;
}

/* The loader's path, then a no-anchor key (placement must refuse or keep
 * epoch times, never crash), all into the same model. */
static void run_ingest(const void *gz, size_t n)
{
    model *m = seeded_model();
    if (!m)
        return;
    sm_err err;
    tf_trace_ingest(m, NODE, KEY, TF_TRACE_NO_BASE, gz, n, &err);
    tf_trace_ingest(m, NODE, "algo-1.trace.json.gz", TF_TRACE_NO_BASE, gz, n, &err);
    model_flush(m, 1);
    job_phases ph;   /* reads what placement left behind */
    model_get_job_phases(m, &ph);
    if (ph.first_us > ph.last_us)
        abort();
    model_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20))
        return 0;
    sm_err err;
    if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b) {
        tf_trace_load(data, size, NODE, 7, sink, NULL, &err);
        run_ingest(data, size);
        return 0;
    }
    size_t n;
    unsigned char *g = gzip_buf(data, size, &n);
    if (!g)
        return 0;
    tf_trace_load_at(g, n, NODE, 7, STEP_START_US, sink, NULL, &err);
    run_ingest(g, n);
    if (n > 20)   /* and the same stream cut short */
        tf_trace_load(g, n - 9, NODE, 7, sink, NULL, &err);
    free(g);
    return 0;
}
