/* jobrow: what the job list knows about one training job — one row of
 * `smtop jobs`, whichever source filled it (the SageMaker API, an S3
 * prefix or a directory). A plain value: rows are copied in and out of
 * the list (joblist). Strings are as the source gave them; the views
 * sanitize them before they reach a terminal. */
#ifndef SMTOP_JOBROW_H
#define SMTOP_JOBROW_H

#include <stddef.h>
#include <stdint.h>

#include "model/jobs/jobplace.h"

enum jobrow_source {
    JOBROW_METRICS_NONE = 0,
    JOBROW_METRICS_DEBUGGER,      /* profiler-output system metrics */
    JOBROW_METRICS_CLOUDWATCH     /* /aws/sagemaker/TrainingJobs, per host */
};

enum jobrow_steps {
    JOBROW_STEPS_NONE = 0,
    JOBROW_STEPS_SMDEBUG,         /* framework/pevents Step:ModeKeys.TRAIN */
    JOBROW_STEPS_KINETO           /* a PyTorch profiler trace's ProfilerStep#N */
};

typedef struct jobrow {
    char name[256];
    char status[16];          /* InProgress Completed Failed Stopping Stopped; "" unknown */
    char secondary[32];       /* Training, Downloading, ...; "" unknown */
    char instance_type[32];   /* "" unknown; the first group's with instance groups */
    int instance_count;       /* hosts, all groups together; 0 unknown */
    int groups;               /* InstanceGroups (heterogeneous cluster); 0 = none */
    double created_s;         /* epoch seconds; 0 unknown */
    double start_s, end_s;    /* training start and end; 0 unknown / not yet:
                                 the API's times, or a folder's data range */
    int data_times;           /* 1: start/end are the data's time range (jobsum) */
    double billable_s;        /* BillableTimeInSeconds; < 0 unknown */
    double gpu_pct, cpu_pct, mem_pct; /* mean over the last 5 min, 0-100; NaN unknown */
    int raw_metrics;          /* 1: per-host sums not normalised (type unknown) */
    int metrics_source;       /* enum jobrow_source */
    double step_p50_ms;       /* newest 5 min of steps; NaN unknown */
    int step_source;          /* enum jobrow_steps */
    int alerts;               /* the report's rules that fired once judged
                                 (job_probe), else the API's IssuesFound */
    int worst;                /* the verdict's worst finding (rule_severity:
                                 0 none .. 3 high), once judged */
    int judged;               /* 1: alerts and worst are the job's own (jobsum) */
    double idle_gpu_h;        /* GPU-hours below 10 % (jobfig.h); NaN unknown */
    int idle_source;          /* enum jobrow_source: what idle_gpu_h counts */
    double idle_through_s;    /* CloudWatch: idle time counted up to here; 0 none */
    char failure[256];        /* FailureReason; "" none */
    char profiler_url[512];   /* s3://.../JOB/profiler-output/ or a dir; "" none */
    char open_url[512];       /* what Enter and the figures open, as `smtop URL`
                                 (a folder's job folder); "" profiler_url */
    jobplaces places;         /* the other places its data may be (jobplace.h) */
    jobplace_seen seen[JOBPLACE_KINDS];   /* by kind: what the list's last read of
                                 each place found, when read as their union */
    int described;            /* 1: a DescribeTrainingJob answer is in */
    double updated_s;         /* when the newest data (or answer) was seen; 0 unknown */
    double metrics_s;         /* when gpu/cpu/mem were last fetched; 0 never */
    double stale_after_s;     /* in progress with nothing new this long = stale;
                                 0: the list's own limit (a traces-only job's
                                 comes from its profiling cadence) */
} jobrow;

/* An empty row for name: every figure unknown (NaN, -1, ""). */
void jobrow_init(jobrow *r, const char *name);

/* 1 when the job has ended (Completed, Failed, Stopped): it is never
 * described or refreshed again. */
int jobrow_ended(const jobrow *r);

/* Instance-hours: billable seconds (or, running, the time since training
 * started until now_s) times the host count; NaN unknown. */
double jobrow_instance_hours(const jobrow *r, double now_s);

/* Training time in seconds: end (or now_s) minus start; NaN unknown. */
double jobrow_train_s(const jobrow *r, double now_s);

/* Sets the figures from CloudWatch's per-host means over the window
 * (GPUUtilization 0-100 x GPUs, CPUUtilization 0-100 x vCPUs,
 * MemoryUtilization 0-100; NaN where there were no points), divided by
 * the instance type's GPUs and vCPUs (instance_types). An unknown type,
 * or instance groups of several types, keeps the raw figures and sets
 * raw_metrics. fetched_s goes to metrics_s. */
void jobrow_set_cloudwatch(jobrow *r, double gpu, double cpu, double mem, double fetched_s);

/* Copies the figures a probe or CloudWatch fills (gpu/cpu/mem %, their
 * source and rawness, when fetched, step p50 and its source, idle
 * GPU-hours, their source and cursor, what each place held; once judged the alerts and the
 * worst finding; the data's times when the row has them) from src onto
 * dst. */
void jobrow_take_figures(jobrow *dst, const jobrow *src);

/* Adds CloudWatch GPUUtilization points of one host (0-100 x GPUs, each
 * the mean of period_s seconds) to the idle GPU-hours: a point whose
 * per-GPU mean is below SAMPLING_BAND_LOW counts period_s for every GPU
 * of the host. Needs a known type with GPUs and no instance groups
 * (else nothing is counted and 0 is returned); 1 when counted. */
int jobrow_add_cw_idle(jobrow *r, const double *values, size_t n, double period_s);

/* 1 when the row belongs in the faults view: Failed, an alert
 * (IssuesFound or smtop's own), a high finding in the verdict, idle GPUs (a known GPU figure below 5 %
 * on a running job, or a GPU-hour or more idle), or stale (in progress, yet
 * nothing new for the row's stale_after_s seconds, else stale_s). */
int jobrow_is_fault(const jobrow *r, double now_s, double stale_s);

#endif
