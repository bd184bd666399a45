/* cw_metrics: CloudWatch figures for the job list; see cw_metrics.h. */
#include "io/jobs/cw_metrics.h"

#include "io/aws/cloudwatch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WINDOW_S 300.0
#define LAG_S 120.0      /* CloudWatch's newest minute arrives late */

static const char *const metric_names[3] = {"GPUUtilization", "CPUUtilization",
                                            "MemoryUtilization"};

static int add_query(s3_param *p, long *n, int k, const jobrow *r, int host, int m)
{
    char id[32], dim[320];
    snprintf(id, sizeof id, "m%d_%d", host, m);
    snprintf(dim, sizeof dim, "%s/algo-%d", r->name, host);
    return cloudwatch_add_metric(p, n, k, id, metric_names[m], dim, 60);
}

long cw_metrics_params(const jobrow *r, double now_s, s3_param **params, char *start,
                       char *end, size_t tcap)
{
    double hi = jobrow_ended(r) ? r->end_s : now_s;
    if (r->start_s <= 0 || r->instance_count <= 0 || hi <= 0)
        return 0;
    double lo = hi - WINDOW_S - (jobrow_ended(r) ? 60 : LAG_S);
    cloudwatch_iso_time(lo > r->start_s ? lo : r->start_s, start, tcap);
    cloudwatch_iso_time(hi, end, tcap);
    int hosts = r->instance_count < CW_METRICS_MAX_HOSTS ? r->instance_count
                                                         : CW_METRICS_MAX_HOSTS;
    s3_param *p = calloc((size_t)hosts * 3 * CLOUDWATCH_METRIC_FIELDS, sizeof *p);
    long n = 0;
    int bad = !p;
    for (int h = 1; !bad && h <= hosts; h++)
        for (int m = 0; m < 3 && !bad; m++)
            bad = add_query(p, &n, (h - 1) * 3 + m + 1, r, h, m) != 0;
    if (bad) {
        cloudwatch_params_free(p, n);
        return -1;
    }
    *params = p;
    return n;
}

size_t cw_metrics_values(const char *xml, const char *id, double *out, size_t cap)
{
    char tag[48];
    snprintf(tag, sizeof tag, "<Id>%s</Id>", id);
    const char *p = strstr(xml, tag);
    const char *next = p ? strstr(p + 1, "<Id>") : NULL;
    const char *v = p ? strstr(p, "<Values>") : NULL;
    const char *ve = v ? strstr(v, "</Values>") : NULL;
    if (!v || !ve || (next && v > next))
        return 0;
    size_t n = 0;
    for (const char *m = strstr(v, "<member>"); m && m < ve; m = strstr(m + 1, "<member>")) {
        char *end;
        double x = strtod(m + 8, &end);
        if (end != m + 8 && isfinite(x) && n < cap)
            out[n++] = x;
    }
    return n;
}

/* The mean of the values of the result whose <Id> is id; NaN when it
 * has none. */
static double result_mean(const char *xml, const char *id)
{
    double v[CW_METRICS_MAX_POINTS], sum = 0;
    size_t n = cw_metrics_values(xml, id, v, CW_METRICS_MAX_POINTS);
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    return n ? sum / (double)n : NAN;
}

int cw_metrics_read(const char *xml, jobrow *r, double now_s)
{
    int hosts = r->instance_count < CW_METRICS_MAX_HOSTS ? r->instance_count
                                                         : CW_METRICS_MAX_HOSTS;
    double sum[3] = {0}, fig[3];
    int cnt[3] = {0}, any = 0;
    for (int h = 1; h <= hosts; h++)
        for (int m = 0; m < 3; m++) {
            char id[32];
            snprintf(id, sizeof id, "m%d_%d", h, m);
            double x = result_mean(xml, id);
            if (!isnan(x)) {
                sum[m] += x;
                cnt[m]++;
                any = 1;
            }
        }
    if (!any)
        return 0;
    for (int m = 0; m < 3; m++)
        fig[m] = cnt[m] ? sum[m] / cnt[m] : NAN;
    jobrow_set_cloudwatch(r, fig[0], fig[1], fig[2], now_s);
    return 1;
}

int cw_metrics_fetch(aws_api *cw, jobrow *r, double now_s, sm_err *err)
{
    s3_param *p = NULL;
    char start[32], end[32];
    long n = cw_metrics_params(r, now_s, &p, start, end, sizeof start);
    if (n <= 0)
        return n < 0 ? sm_err_set(err, SM_ERR_NOMEM, "out of memory") : 0;
    s3_param *all = realloc(p, (size_t)(n + 2) * sizeof *p);
    if (!all) {
        cloudwatch_params_free(p, n);
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    }
    all[n] = (s3_param){strdup("StartTime"), strdup(start)};
    all[n + 1] = (s3_param){strdup("EndTime"), strdup(end)};
    size_t len = 0;
    char *xml = cloudwatch_get_metric_data(cw, all, (size_t)n + 2, &len, err);
    cloudwatch_params_free(all, n + 2);
    if (!xml)
        return -1;
    int got = cw_metrics_read(xml, r, now_s);
    free(xml);
    return got;
}
