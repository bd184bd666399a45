/* cw_idle: idle GPU-hours from CloudWatch; see cw_idle.h. */
#include "io/jobs/cw_idle.h"

#include "io/aws/cloudwatch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/jobs/cw_metrics.h"
#include "model/jobs/instance_types.h"

#define LAG_S 120.0
#define EVERY_S 300.0
#define POINTS_CALL 100800.0    /* datapoints one call may return */

static int hosts_of(const jobrow *r)
{
    return r->instance_count < CW_IDLE_MAX_HOSTS ? r->instance_count : CW_IDLE_MAX_HOSTS;
}

int cw_idle_window(const jobrow *r, double now_s, double *lo, double *hi, int *period_s)
{
    if (r->start_s <= 0 || r->instance_count <= 0)
        return 0;
    double from = r->idle_through_s > 0 ? r->idle_through_s : floor(r->start_s / 60) * 60;
    double to = jobrow_ended(r) ? r->end_s : now_s - LAG_S;
    if (to <= from)
        return 0;
    double per_host = fmin(CW_METRICS_MAX_POINTS, POINTS_CALL / hosts_of(r));
    int period = 60 * (int)ceil((to - from) / per_host / 60);
    period = period < 60 ? 60 : period;
    /* whole periods only, but an ended job's last part is counted too */
    double n = jobrow_ended(r) ? ceil((to - from) / period) : floor((to - from) / period);
    if (n < 1)
        return 0;
    *lo = from;
    *hi = from + n * period;
    *period_s = period;
    return 1;
}

int cw_idle_due(const jobrow *r, double now_s)
{
    int gpus = 0, vcpus = 0;
    if (!r->described || r->metrics_source == JOBROW_METRICS_DEBUGGER || r->groups > 1 ||
        !instance_types_lookup(r->instance_type, &gpus, &vcpus) || gpus <= 0)
        return 0;
    double lo, hi;
    int period;
    if (!cw_idle_window(r, now_s, &lo, &hi, &period))
        return 0;
    return jobrow_ended(r) || r->idle_through_s <= 0 || hi - lo >= EVERY_S;
}

static s3_param *idle_params(const jobrow *r, double lo, double hi, int period, long *n)
{
    int hosts = hosts_of(r);
    s3_param *p = calloc((size_t)hosts * CLOUDWATCH_METRIC_FIELDS + 2, sizeof *p);
    int bad = !p;
    *n = 0;
    for (int h = 1; !bad && h <= hosts; h++) {
        char id[32], dim[320];
        snprintf(id, sizeof id, "g%d", h);
        snprintf(dim, sizeof dim, "%s/algo-%d", r->name, h);
        bad = cloudwatch_add_metric(p, n, h, id, "GPUUtilization", dim, period) != 0;
    }
    char start[32], end[32];
    cloudwatch_iso_time(lo, start, sizeof start);
    cloudwatch_iso_time(hi - 1, end, sizeof end);   /* [lo, hi): EndTime is exclusive */
    if (!bad) {
        p[*n] = (s3_param){strdup("StartTime"), strdup(start)};
        p[*n + 1] = (s3_param){strdup("EndTime"), strdup(end)};
        *n += 2;
        bad = !p[*n - 1].value || !p[*n - 2].value;
    }
    if (bad) {
        cloudwatch_params_free(p, *n);
        return NULL;
    }
    return p;
}

/* Adds every host's points of the answer to r. */
static void idle_read(const char *xml, jobrow *r, int period)
{
    double *v = malloc(CW_METRICS_MAX_POINTS * sizeof *v);
    for (int h = 1; v && h <= hosts_of(r); h++) {
        char id[32];
        snprintf(id, sizeof id, "g%d", h);
        size_t n = cw_metrics_values(xml, id, v, CW_METRICS_MAX_POINTS);
        if (n)
            jobrow_add_cw_idle(r, v, n, period);
    }
    free(v);
}

int cw_idle_fetch(aws_api *cw, jobrow *r, double now_s, sm_err *err)
{
    double lo, hi;
    int period;
    if (!cw_idle_window(r, now_s, &lo, &hi, &period))
        return 1;
    long n = 0;
    s3_param *p = idle_params(r, lo, hi, period, &n);
    if (!p)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    size_t len = 0;
    char *xml = cloudwatch_get_metric_data(cw, p, (size_t)n, &len, err);
    cloudwatch_params_free(p, n);
    if (!xml)
        return -1;
    idle_read(xml, r, period);
    free(xml);
    r->idle_through_s = hi;
    return 1;
}
