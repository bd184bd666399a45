/* sm_parse: SageMaker's answers (ListTrainingJobs, DescribeTrainingJob)
 * as job-list rows. Pure functions over parsed JSON; anything missing or
 * of the wrong type stays unknown, never an error (the service adds
 * fields over time, and a test server or proxy may leave some out).
 * LastModifiedTime is not taken for updated_s: it moves with status
 * changes, not with the job's data, so it cannot say a job is stale. */
#ifndef SMTOP_SM_PARSE_H
#define SMTOP_SM_PARSE_H

#include <jansson.h>
#include <stddef.h>

#include "model/jobs/jobrow.h"

/* Epoch seconds from an awsJson timestamp (a number, or an ISO 8601
 * string as some proxies send); 0 when absent or unreadable. */
double sm_parse_time(const json_t *v);

/* The summaries of a ListTrainingJobs answer into out[0..cap): returns
 * how many (a summary without a name is skipped) and sets *next to the
 * NextToken (borrowed from ans) or NULL. */
size_t sm_parse_list(const json_t *ans, jobrow *out, size_t cap, const char **next);

/* Fills r (already named; other fields kept where the answer is silent)
 * from a DescribeTrainingJob answer and sets r->described. The profiler
 * URL is ProfilerConfig.S3OutputPath/<job>/profiler-output/ unless the
 * profiler is disabled; InstanceGroups count every host and take the
 * first group's type. The other places of its data (TensorBoard and
 * checkpoint syncs, the output path) go to r->places as given. */
void sm_parse_describe(const json_t *ans, jobrow *r);

#endif
