/* sagemaker: the SageMaker client — the operations smtop calls, each
 * written here once, over aws_api's awsJson1_1 transport. Takes a job's
 * name or a request body; gives the service's answers as JSON, which
 * io/jobs/sm_parse reads into job rows. */
#ifndef SMTOP_SAGEMAKER_H
#define SMTOP_SAGEMAKER_H

#include <jansson.h>
#include <stddef.h>

#include "io/aws/aws_api.h"
#include "model/util/sm_err.h"

/* ListTrainingJobs with the request body req (borrowed; filters, sort,
 * NextToken as the API documents them). The answer (caller decrefs), or
 * NULL with err (aws_api_json). */
json_t *sagemaker_list_training_jobs(aws_api *sm, const json_t *req, sm_err *err);

/* DescribeTrainingJob of the job name. The answer (caller decrefs), or
 * NULL with err. */
json_t *sagemaker_describe_training_job(aws_api *sm, const char *name, sm_err *err);

/* DescribeTrainingJob of names[0..n), the client's `parallel` at a time;
 * cb gets each answer (or its error) with the name's index, in completion
 * order. 0 when each got its callback, -1 with err when none could start
 * (out of memory, no credentials). */
int sagemaker_describe_training_jobs(aws_api *sm, const char *const *names, size_t n,
                                     aws_api_done cb, void *ud, sm_err *err);

#endif
