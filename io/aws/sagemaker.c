/* sagemaker: the SageMaker operations; see sagemaker.h. */
#include "io/aws/sagemaker.h"

#include <stdlib.h>

json_t *sagemaker_list_training_jobs(aws_api *sm, const json_t *req, sm_err *err)
{
    return aws_api_json(sm, "ListTrainingJobs", req, err);
}

static json_t *describe_request(const char *name)
{
    return json_pack("{s:s}", "TrainingJobName", name);
}

json_t *sagemaker_describe_training_job(aws_api *sm, const char *name, sm_err *err)
{
    json_t *req = describe_request(name);
    if (!req) {
        sm_err_set(err, SM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    json_t *ans = aws_api_json(sm, "DescribeTrainingJob", req, err);
    json_decref(req);
    return ans;
}

int sagemaker_describe_training_jobs(aws_api *sm, const char *const *names, size_t n,
                                     aws_api_done cb, void *ud, sm_err *err)
{
    json_t **reqs = calloc(n ? n : 1, sizeof *reqs);
    int rc = -1;
    if (!reqs)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    size_t made = 0;
    while (made < n && (reqs[made] = describe_request(names[made])))
        made++;
    if (made < n)
        sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    else
        rc = aws_api_json_batch(sm, "DescribeTrainingJob", reqs, n, cb, ud, err);
    for (size_t i = 0; i < made; i++)
        json_decref(reqs[i]);
    free(reqs);
    return rc;
}
