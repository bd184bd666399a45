/* jobplace: the places a SageMaker training job's data can be, as its
 * DescribeTrainingJob answer names them (SPEC §1b, §1c), and where each
 * appears in the one job folder smtop reads them as:
 *
 *   place          from                                    read as
 *   profiler       ProfilerConfig.S3OutputPath/JOB/         profiler-output/
 *                  profiler-output/
 *   tensorboard    TensorBoardOutputConfig.S3OutputPath/    tensorboard-output/
 *                  JOB/tensorboard-output/, else the path
 *                  itself while that holds nothing
 *   checkpoint     CheckpointConfig.S3Uri (any depth)       checkpoints/
 *   output         OutputDataConfig.S3OutputPath/JOB/       output/ (the archive's
 *                  output/output.tar.gz, once ended         members, /opt/ml/output/data)
 *
 * A row keeps the configured paths (jobplaces, a plain value); the URLs
 * are made from them and the job's name when a job is opened. Pure. */
#ifndef SMTOP_JOBPLACE_H
#define SMTOP_JOBPLACE_H

#include <stddef.h>

enum jobplace_kind {
    JOBPLACE_PROFILER = 0,
    JOBPLACE_TENSORBOARD,
    JOBPLACE_CHECKPOINT,
    JOBPLACE_OUTPUT,
    JOBPLACE_KINDS
};

/* What a job's last listing of a place found (report --json's and jobs
 * --json's trace_sources[].status). */
enum jobplace_status {
    JOBPLACE_NOT_LISTED = 0,     /* no listing reached it yet */
    JOBPLACE_READ,               /* listed, held objects */
    JOBPLACE_EMPTY,              /* listed, held nothing */
    JOBPLACE_UNREADABLE          /* denied, no such bucket, another region */
};

#define JOBPLACE_URL 1100   /* a 1024-byte S3 path, the job's name and a suffix */

/* The configured paths of a row ("" where the job sets none). */
typedef struct jobplaces {
    char tensorboard[512];  /* TensorBoardOutputConfig.S3OutputPath */
    char checkpoint[512];   /* CheckpointConfig.S3Uri */
    char output[512];       /* OutputDataConfig.S3OutputPath */
} jobplaces;

/* One place to read. */
typedef struct jobplace {
    int kind;                    /* enum jobplace_kind */
    char url[JOBPLACE_URL];      /* a folder (ends in '/') or, output, the archive */
    char alt[JOBPLACE_URL];      /* tensorboard: the path itself, read while url
                                    holds nothing; "" for the others */
} jobplace;

/* What the job list's last read of one place found (a row keeps one
 * per kind: jobs --json's trace_sources[]). */
typedef struct jobplace_seen {
    int status;                  /* enum jobplace_status */
    int at_alt;                  /* tensorboard: read at the path itself (alt) */
    long long objects;           /* keys (archive members) its last listing gave */
    char error[512];             /* why it could not be read; "" none */
} jobplace_seen;

/* "Debugger profiler output", "TensorBoard sync", "checkpoint sync",
 * "output.tar.gz"; "" for an unknown kind. */
const char *jobplace_label(int kind);
/* "profiler", "tensorboard", "checkpoint", "output" (JSON names). */
const char *jobplace_name(int kind);
/* The folder the place is read as: "profiler-output/", "tensorboard-output/",
 * "checkpoints/", "output/". */
const char *jobplace_mount(int kind);

/* "not_listed", "read", "empty", "unreadable"; "" for an unknown status. */
const char *jobplace_status_name(int status);

/* The places of job `name` in the order they are read: the profiler
 * output (profiler_url, "" none), the TensorBoard sync, the checkpoint
 * sync, then output.tar.gz when ended (it is written at the end only).
 * Only s3:// paths count (a local path in a test answer is not a place
 * of this machine). Writes up to cap into out; returns how many. */
size_t jobplace_list(const jobplaces *p, const char *name, const char *profiler_url,
                     int ended, jobplace *out, size_t cap);

/* The IAM permissions reading a place of this kind needs, for messages:
 * "s3:ListBucket and s3:GetObject" (output: s3:GetObject on the archive). */
const char *jobplace_needs(int kind);

#endif
