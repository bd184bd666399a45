/* cloudwatch: GetMetricData and its form parameters; see cloudwatch.h. */
#include "io/aws/cloudwatch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void cloudwatch_iso_time(double t, char *out, size_t cap)
{
    time_t s = (time_t)t;
    struct tm tm;
    gmtime_r(&s, &tm);
    strftime(out, cap, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void cloudwatch_params_free(s3_param *p, long n)
{
    for (long i = 0; p && i < n; i++) {
        free((char *)p[i].name);
        free((char *)p[i].value);
    }
    free(p);
}

int cloudwatch_param_put(s3_param *p, long *n, const char *name, const char *value)
{
    p[*n].name = strdup(name);
    p[*n].value = strdup(value);
    (*n)++;
    return p[*n - 1].name && p[*n - 1].value ? 0 : -1;
}

static int put_field(s3_param *p, long *n, int k, const char *field, const char *value)
{
    char name[160];
    snprintf(name, sizeof name, "MetricDataQueries.member.%d.%s", k, field);
    return cloudwatch_param_put(p, n, name, value);
}

int cloudwatch_add_metric(s3_param *p, long *n, int k, const char *id, const char *metric,
                        const char *host, int period_s)
{
    char per[24];
    snprintf(per, sizeof per, "%d", period_s);
    return put_field(p, n, k, "Id", id) |
           put_field(p, n, k, "MetricStat.Metric.Namespace", "/aws/sagemaker/TrainingJobs") |
           put_field(p, n, k, "MetricStat.Metric.MetricName", metric) |
           put_field(p, n, k, "MetricStat.Metric.Dimensions.member.1.Name", "Host") |
           put_field(p, n, k, "MetricStat.Metric.Dimensions.member.1.Value", host) |
           put_field(p, n, k, "MetricStat.Period", per) |
           put_field(p, n, k, "MetricStat.Stat", "Average") |
           put_field(p, n, k, "ReturnData", "true");
}

char *cloudwatch_get_metric_data(aws_api *cw, const s3_param *p, size_t n, size_t *len,
                                 sm_err *err)
{
    return aws_api_query(cw, "GetMetricData", "2010-08-01", p, n, len, err);
}
