/* Fuzz target: what the job list reads from the network — SageMaker's
 * ListTrainingJobs / DescribeTrainingJob JSON (sm_parse) and CloudWatch's
 * GetMetricData XML (cw_metrics_read) — on arbitrary bytes. A row's
 * strings stay NUL-terminated within their fields, and figures are
 * numbers or NaN, never a crash. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/jobs/cw_metrics.h"
#include "io/jobs/sm_parse.h"

static void check(const jobrow *r)
{
    if (strnlen(r->name, sizeof r->name) == sizeof r->name ||
        strnlen(r->status, sizeof r->status) == sizeof r->status ||
        strnlen(r->profiler_url, sizeof r->profiler_url) == sizeof r->profiler_url ||
        r->instance_count < 0 || r->alerts < 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_t *j = json_loadb((const char *)data, size, 0, NULL);
    if (j) {
        jobrow rows[8];
        const char *next;
        size_t n = sm_parse_list(j, rows, 8, &next);
        for (size_t i = 0; i < n; i++)
            check(&rows[i]);
        jobrow r;
        jobrow_init(&r, "fuzz-job");
        sm_parse_describe(j, &r);
        check(&r);
        json_decref(j);
    }
    char *xml = malloc(size + 1);
    if (!xml)
        return 0;
    memcpy(xml, data, size);
    xml[size] = '\0';
    jobrow r;
    jobrow_init(&r, "fuzz-job");
    snprintf(r.instance_type, sizeof r.instance_type, "ml.p4d.24xlarge");
    r.instance_count = 3;
    if (cw_metrics_read(xml, &r, 1) && r.metrics_source != JOBROW_METRICS_CLOUDWATCH)
        abort();
    free(xml);
    return 0;
}
