/* Fuzz target: CloudWatch's GetMetricData XML as a dashboard reads it
 * (cw_host_read) on arbitrary bytes, each point turned into a sample
 * (cw_host_sample) and added to a model. Points name a host and metric
 * in range, come oldest first within a result, and the NextToken stays
 * NUL-terminated in its buffer; never a crash. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/aws/cw_host.h"

typedef struct ctx {
    model *m;
    cw_host_job j;
    int last_host, last_metric;
    int64_t last_ts;
} ctx;

static void on_point(void *ud, int host, int metric, int64_t ts_us, double v)
{
    ctx *c = ud;
    if (host < 1 || metric < 0 || metric >= CW_HOST_METRICS)
        abort();
    if (host == c->last_host && metric == c->last_metric && ts_us < c->last_ts)
        abort();   /* a result's points come oldest first */
    c->last_host = host;
    c->last_metric = metric;
    c->last_ts = ts_us;
    char node[32];
    sm_sample s;
    if (host <= 64 && cw_host_sample(&c->j, host, metric, ts_us, v, node, sizeof node, &s) == 0)
        model_add_sample(c->m, &s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *xml = malloc(size + 1);
    ctx c = {.m = model_new(NULL), .j = {.name = "fuzz-job", .hosts = 64}};
    if (!xml || !c.m) {
        free(xml);
        model_free(c.m);
        return 0;
    }
    memcpy(xml, data, size);
    xml[size] = '\0';
    cw_host_job_type(&c.j, size % 2 ? "ml.p4d.24xlarge" : "ml.zz9.unknown", 0);
    char next[64];
    long n = cw_host_read(xml, size, on_point, &c, next, sizeof next);
    if (n < -1 || strnlen(next, sizeof next) == sizeof next)
        abort();
    model_flush(c.m, 1);
    model_free(c.m);
    free(xml);
    return 0;
}
