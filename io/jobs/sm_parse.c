/* sm_parse: SageMaker answers into rows; see sm_parse.h. */
#include "io/jobs/sm_parse.h"

#include <stdio.h>
#include <string.h>

#include "io/aws/s3_xml.h"

double sm_parse_time(const json_t *v)
{
    if (json_is_number(v))
        return json_number_value(v);
    if (json_is_string(v))
        return (double)s3_xml_parse_time(json_string_value(v)) / 1e6;
    return 0;
}

static void copy_str(char *dst, size_t cap, const json_t *obj, const char *key)
{
    const char *s = json_string_value(json_object_get(obj, key));
    if (s)
        snprintf(dst, cap, "%s", s);
}

size_t sm_parse_list(const json_t *ans, jobrow *out, size_t cap, const char **next)
{
    const json_t *rows = json_object_get(ans, "TrainingJobSummaries");
    size_t n = 0, i;
    const json_t *s;
    *next = json_string_value(json_object_get(ans, "NextToken"));
    if (*next && !**next)
        *next = NULL;
    json_array_foreach(rows, i, s) {
        const char *name = json_string_value(json_object_get(s, "TrainingJobName"));
        if (!name || !*name || n >= cap)
            continue;
        jobrow *r = &out[n++];
        jobrow_init(r, name);
        copy_str(r->status, sizeof r->status, s, "TrainingJobStatus");
        copy_str(r->secondary, sizeof r->secondary, s, "SecondaryStatus");
        r->created_s = sm_parse_time(json_object_get(s, "CreationTime"));
        r->end_s = sm_parse_time(json_object_get(s, "TrainingEndTime"));
    }
    return n;
}

static void parse_resources(const json_t *rc, jobrow *r)
{
    const json_t *groups = json_object_get(rc, "InstanceGroups");
    if (json_array_size(groups)) {
        size_t i;
        const json_t *g;
        r->groups = (int)json_array_size(groups);
        r->instance_count = 0;
        copy_str(r->instance_type, sizeof r->instance_type, json_array_get(groups, 0),
                 "InstanceType");
        json_array_foreach(groups, i, g)
            r->instance_count += (int)json_integer_value(json_object_get(g, "InstanceCount"));
        return;
    }
    copy_str(r->instance_type, sizeof r->instance_type, rc, "InstanceType");
    if (json_is_integer(json_object_get(rc, "InstanceCount")))
        r->instance_count = (int)json_integer_value(json_object_get(rc, "InstanceCount"));
}

static int count_issues(const json_t *statuses)
{
    size_t i;
    const json_t *s;
    int n = 0;
    json_array_foreach(statuses, i, s) {
        const char *v = json_string_value(json_object_get(s, "RuleEvaluationStatus"));
        n += v && !strcmp(v, "IssuesFound");
    }
    return n;
}

static void parse_profiler(const json_t *ans, jobrow *r)
{
    const json_t *pc = json_object_get(ans, "ProfilerConfig");
    const char *base = json_string_value(json_object_get(pc, "S3OutputPath"));
    if (!base || !*base || json_is_true(json_object_get(pc, "DisableProfiler")))
        return;
    size_t n = strlen(base);
    snprintf(r->profiler_url, sizeof r->profiler_url, "%s%s%s/profiler-output/", base,
             n && base[n - 1] == '/' ? "" : "/", r->name);
}

/* TensorBoardOutputConfig.S3OutputPath, CheckpointConfig.S3Uri and
 * OutputDataConfig.S3OutputPath, as given (jobplace.h makes the URLs). */
static void parse_places(const json_t *ans, jobrow *r)
{
    copy_str(r->places.tensorboard, sizeof r->places.tensorboard,
             json_object_get(ans, "TensorBoardOutputConfig"), "S3OutputPath");
    copy_str(r->places.checkpoint, sizeof r->places.checkpoint,
             json_object_get(ans, "CheckpointConfig"), "S3Uri");
    copy_str(r->places.output, sizeof r->places.output,
             json_object_get(ans, "OutputDataConfig"), "S3OutputPath");
}

void sm_parse_describe(const json_t *ans, jobrow *r)
{
    copy_str(r->status, sizeof r->status, ans, "TrainingJobStatus");
    copy_str(r->secondary, sizeof r->secondary, ans, "SecondaryStatus");
    copy_str(r->failure, sizeof r->failure, ans, "FailureReason");
    double t;
    if ((t = sm_parse_time(json_object_get(ans, "CreationTime"))) > 0)
        r->created_s = t;
    if ((t = sm_parse_time(json_object_get(ans, "TrainingStartTime"))) > 0)
        r->start_s = t;
    if ((t = sm_parse_time(json_object_get(ans, "TrainingEndTime"))) > 0)
        r->end_s = t;
    const json_t *b = json_object_get(ans, "BillableTimeInSeconds");
    if (json_is_integer(b))
        r->billable_s = (double)json_integer_value(b);
    parse_resources(json_object_get(ans, "ResourceConfig"), r);
    r->alerts = count_issues(json_object_get(ans, "ProfilerRuleEvaluationStatuses")) +
                count_issues(json_object_get(ans, "DebugRuleEvaluationStatuses"));
    parse_profiler(ans, r);
    parse_places(ans, r);
    r->described = 1;
}
