/* job_cw: CloudWatch on the ingest path. A fetch's GetMetricData answers,
 * fetched by the job's watch (job_watch_take), are decoded by the
 * "cloudwatch" decoder and their new samples added to the model under
 * the job's lock, in a pass, as a system file's are; no other thread
 * writes the model. A point CloudWatch sends again (each fetch reaches a
 * few minutes back for late points) is added once: a series takes only
 * points newer than its newest. */
#ifndef SMTOP_JOB_CW_H
#define SMTOP_JOB_CW_H

#include <pthread.h>

#include "io/run/job_watch.h"
#include "model/model.h"

typedef struct job_cw job_cw;

/* NULL on OOM. */
job_cw *job_cw_new(void);
void job_cw_free(job_cw *c);

/* Takes every fetch w has waiting and adds what is new in it to m, each
 * under lock (NULL: none). The first makes CloudWatch the job's system
 * source. Returns the samples added; a fetch it cannot read (out of
 * memory) is dropped, and the watch's next fetch reaches back for it. */
long job_cw_drain(job_cw *c, job_watch *w, model *m, pthread_mutex_t *lock);

#endif
