/* cw_host: the queries and the fetch of per-host CloudWatch metrics; see cw_host.h. */
#include "io/aws/cw_host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/aws/cloudwatch.h"

#define MAX_PAGES 64        /* a job's answer: 100,800 points a page */

static const char *const metric_names[CW_HOST_METRICS] = {
    "GPUUtilization", "GPUMemoryUtilization", "CPUUtilization", "MemoryUtilization",
    "DiskUtilization"};

int cw_host_period(double end_s, double now_s)
{
    double age = now_s - end_s;
    return age < 15 * 86400.0 ? 60 : age < 63 * 86400.0 ? 300 : 3600;
}

static int put_query(s3_param *p, long *n, int k, const cw_host_job *j, int host, int m,
                     int period_s)
{
    char id[32], dim[320];
    snprintf(id, sizeof id, "h%d_%d", host, m);
    snprintf(dim, sizeof dim, "%.250s/algo-%d", j->name, host);
    return cloudwatch_add_metric(p, n, k, id, metric_names[m], dim, period_s);
}

long cw_host_params(const cw_host_job *j, int first, int n, int period_s, double t0_s,
                    double t1_s, const char *next_token, s3_param **params)
{
    s3_param *p = calloc((size_t)n * CW_HOST_METRICS * CLOUDWATCH_METRIC_FIELDS + 3, sizeof *p);
    long k = 0;
    int bad = !p;
    char t0[32], t1[32];
    cloudwatch_iso_time(t0_s, t0, sizeof t0);
    cloudwatch_iso_time(t1_s, t1, sizeof t1);
    for (int h = 0; !bad && h < n; h++)
        for (int m = 0; !bad && m < CW_HOST_METRICS; m++)
            bad = put_query(p, &k, h * CW_HOST_METRICS + m + 1, j, first + h + 1, m,
                            period_s) != 0;
    if (!bad)
        bad = cloudwatch_param_put(p, &k, "StartTime", t0) | cloudwatch_param_put(p, &k, "EndTime", t1);
    if (!bad && next_token && *next_token)
        bad = cloudwatch_param_put(p, &k, "NextToken", next_token);
    if (bad) {
        cloudwatch_params_free(p, k);
        return -1;
    }
    *params = p;
    return k;
}

void cw_host_next_token(const char *xml, size_t len, char *next, size_t cap)
{
    /* a result's own NextToken does not exist; the answer's follows them */
    const char *end = xml + len, *a = strstr(xml, "<NextToken>"), *b = NULL;
    if (a && a < end) {
        a += strlen("<NextToken>");
        b = strstr(a, "</NextToken>");
    }
    size_t tl = b && b <= end ? (size_t)(b - a) : 0;
    snprintf(next, cap, "%.*s", tl < cap ? (int)tl : 0, tl ? a : "");
}

/* One call (one page of one batch of hosts) to fn; its NextToken into
 * next. 0, or -1 with err. */
static int fetch_page(aws_api *cw, const cw_host_job *j, int first, int n, int period_s,
                      double t0_s, double t1_s, char *next, size_t next_cap,
                      cw_host_page_fn fn, void *ud, sm_err *err)
{
    s3_param *p = NULL;
    long np = cw_host_params(j, first, n, period_s, t0_s, t1_s, next, &p);
    if (np < 0)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    size_t len = 0;
    char *xml = cloudwatch_get_metric_data(cw, p, (size_t)np, &len, err);
    cloudwatch_params_free(p, np);
    if (!xml)
        return -1;
    cw_host_next_token(xml, len, next, next_cap);
    int rc = fn(ud, xml, len) < 0 ? sm_err_set(err, SM_ERR_NOMEM, "out of memory") : 0;
    free(xml);
    return rc;
}

long cw_host_fetch(aws_api *cw, const cw_host_job *j, int period_s, double t0_s,
                   double t1_s, cw_host_page_fn fn, void *ud, sm_err *err)
{
    int hosts = j->hosts < CW_HOST_MAX ? j->hosts : CW_HOST_MAX;
    long pages = 0;
    for (int first = 0; first < hosts; first += CW_HOST_PER_CALL) {
        int n = hosts - first < CW_HOST_PER_CALL ? hosts - first : CW_HOST_PER_CALL;
        char next[1024] = "";
        for (int page = 0; page < MAX_PAGES; page++) {
            if (fetch_page(cw, j, first, n, period_s, t0_s, t1_s, next, sizeof next, fn, ud,
                           err) != 0)
                return -1;
            pages++;
            if (!next[0])
                break;
        }
    }
    return pages;
}
