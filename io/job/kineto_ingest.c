/* kineto_ingest: see kineto_ingest.h. */
#include "io/job/kineto_ingest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/kineto_file.h"

struct kineto_ingest {
    model *m;
    int64_t traces, bytes;
};

/* One file's read in progress. */
typedef struct kread {
    kineto_ingest *k;
    int sniff;          /* KEY_KINETO_MAYBE: the head decides */
    int64_t bytes;
} kread;

kineto_ingest *kineto_ingest_new(model *m)
{
    kineto_ingest *k = calloc(1, sizeof *k);
    if (k)
        k->m = m;
    return k;
}

void kineto_ingest_free(kineto_ingest *k)
{
    free(k);
}

static int kread_feed(void *ud, const char *p, size_t n, sm_err *err)
{
    kread *r = ud;
    if (r->sniff) {
        r->sniff = 0;
        if (!kineto_file_sniff(p, n))
            return sm_err_set(err, SM_ERR_FORMAT, "not a PyTorch profiler trace (no "
                              "traceEvents with schemaVersion, deviceProperties or "
                              "distributedInfo)");
    }
    r->bytes += (int64_t)n;
    return 0;
}

int kineto_ingest_file(kineto_ingest *k, const key_info *ki, const char *key, const void *data,
                       size_t len, sm_err *err)
{
    (void)key;
    kread r = {k, ki->kind == KEY_KINETO_MAYBE, 0};
    int incomplete = 0;
    if (kineto_file_stream(data, len, kread_feed, &r, &incomplete, err) != 0) {
        if (incomplete) {
            char why[sizeof err->msg];
            memcpy(why, err->msg, sizeof why);
            sm_err_set(err, SM_ERR_FORMAT, "%.400s; read again once it changes", why);
        }
        return -1;
    }
    k->traces++;
    k->bytes += r.bytes;
    return 0;
}

int64_t kineto_ingest_traces(const kineto_ingest *k)
{
    return k->traces;
}

int64_t kineto_ingest_bytes(const kineto_ingest *k)
{
    return k->bytes;
}
