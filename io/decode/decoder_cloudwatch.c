/* decoder_cloudwatch: the "cloudwatch" row — the GetMetricData answers of
 * one fetch for a job's hosts (io/aws/cw_host asks them; the pages one
 * after another) as the system samples of its nodes, oldest first
 * (cw_answer.h). The key (cw_answer_key) says the job's instance type,
 * instance groups and hosts. Which samples are new to the job is the
 * sink's to say: it knows what earlier fetches gave. */
#include <stdlib.h>

#include "io/decode/cw_answer.h"
#include "io/decode/decoder_impl.h"

typedef struct cw_read {
    decoder_whole *w;
    cw_answer_job j;
} cw_read;

static int cw_match(const key_info *ki, const void *head, size_t n)
{
    (void)head;
    (void)n;
    return ki->kind == KEY_CLOUDWATCH;
}

static void cw_drop(void *st)
{
    cw_read *r = st;
    if (!r)
        return;
    decoder_whole_drop(r->w);
    free(r);
}

static void *cw_begin(const key_info *ki, const char *key, sm_err *err)
{
    char type[64];
    int groups, hosts, period;
    if (cw_answer_key_parse(key, type, sizeof type, &groups, &hosts, &period) != 0)
        return sm_err_set(err, SM_ERR_FORMAT, "not a CloudWatch answer's key"), NULL;
    cw_read *r = calloc(1, sizeof *r);
    if (!r || !(r->w = decoder_whole_begin(ki, key, err))) {
        free(r);
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory"), NULL;
    }
    r->j.hosts = hosts < 0 ? 0 : hosts > CW_ANSWER_HOST_MAX ? CW_ANSWER_HOST_MAX : hosts;
    cw_answer_job_type(&r->j, type, groups);
    return r;
}

static int cw_feed(void *st, const void *p, size_t n, const rec_sink *out)
{
    return decoder_whole_feed(((cw_read *)st)->w, p, n, out);
}

typedef struct cw_put {
    const cw_answer_job *j;
    const rec_sink *out;
} cw_put;

static void on_point(void *ud, int host, int metric, int64_t ts_us, double v)
{
    const cw_put *c = ud;
    char node[32];
    sm_sample s;
    if (cw_answer_sample(c->j, host, metric, ts_us, v, node, sizeof node, &s) == 0 &&
        c->out->sample)
        c->out->sample(c->out->ud, &s);   /* a refused sample is the sink's to count */
}

static int cw_end(void *st, int64_t len, const rec_sink *out, sm_err *err)
{
    cw_read *r = st;
    (void)len;
    int rc = decoder_whole_ok(r->w, err);
    cw_put c = {&r->j, out};
    if (rc == 0 && r->w->n &&
        cw_answer_points(r->w->buf, r->w->n, r->j.hosts, on_point, &c) < 0)
        rc = sm_err_set(err, SM_ERR_NOMEM, "out of memory reading CloudWatch's answer");
    cw_drop(r);
    return rc;
}

const decoder decoder_cloudwatch = {
    .name = "cloudwatch",
    .kind = KEY_CLOUDWATCH,
    .match = cw_match,
    .begin = cw_begin,
    .feed = cw_feed,
    .end = cw_end,
    .drop = cw_drop,
    .streamed = 0,
};
