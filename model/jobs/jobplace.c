/* jobplace: a job's data places; see jobplace.h. */
#include "model/jobs/jobplace.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *label, *name, *mount, *needs;
} kinds[JOBPLACE_KINDS] = {
    [JOBPLACE_PROFILER] = {"Debugger profiler output", "profiler", "profiler-output/",
                           "s3:ListBucket and s3:GetObject"},
    [JOBPLACE_TENSORBOARD] = {"TensorBoard sync", "tensorboard", "tensorboard-output/",
                              "s3:ListBucket and s3:GetObject"},
    [JOBPLACE_CHECKPOINT] = {"checkpoint sync", "checkpoint", "checkpoints/",
                             "s3:ListBucket and s3:GetObject"},
    [JOBPLACE_OUTPUT] = {"output.tar.gz", "output", "output/",
                         "s3:ListBucket and s3:GetObject"},
};

const char *jobplace_label(int kind)
{
    return kind >= 0 && kind < JOBPLACE_KINDS ? kinds[kind].label : "";
}

const char *jobplace_name(int kind)
{
    return kind >= 0 && kind < JOBPLACE_KINDS ? kinds[kind].name : "";
}

const char *jobplace_mount(int kind)
{
    return kind >= 0 && kind < JOBPLACE_KINDS ? kinds[kind].mount : "";
}

const char *jobplace_needs(int kind)
{
    return kind >= 0 && kind < JOBPLACE_KINDS ? kinds[kind].needs : "";
}

const char *jobplace_status_name(int status)
{
    static const char *const names[] = {
        [JOBPLACE_NOT_LISTED] = "not_listed", [JOBPLACE_READ] = "read",
        [JOBPLACE_EMPTY] = "empty", [JOBPLACE_UNREADABLE] = "unreadable"};
    return status >= 0 && status < (int)(sizeof names / sizeof names[0]) ? names[status] : "";
}

/* base + "/" (unless it ends in one) + rest, into out; 0 when base is
 * not an s3:// path with a bucket, or the result does not fit. */
static int join(char *out, const char *base, const char *rest)
{
    size_t n = strlen(base);
    if (strncmp(base, "s3://", 5) || n <= 5 || base[5] == '/')
        return 0;
    int w = snprintf(out, JOBPLACE_URL, "%s%s%s", base, base[n - 1] == '/' ? "" : "/", rest);
    return w > 0 && w < JOBPLACE_URL;
}

static void add(jobplace *out, size_t cap, size_t *n, const jobplace *p)
{
    if (*n < cap)
        out[*n] = *p;
    (*n)++;
}

/* The job folder's tensorboard-output/ beside a Debugger profiler_url
 * ("s3://b/p/JOB/profiler-output/") into out; 0 when it has no such end. */
static int beside_traces(const char *profiler_url, char *out, size_t cap)
{
    static const char po[] = "profiler-output/";
    size_t n = profiler_url ? strlen(profiler_url) : 0, k = sizeof po - 1;
    if (n <= k || strncmp(profiler_url, "s3://", 5) || strcmp(profiler_url + n - k, po))
        return 0;
    int w = snprintf(out, cap, "%.*stensorboard-output/", (int)(n - k), profiler_url);
    return w > 0 && (size_t)w < cap;
}

size_t jobplace_list(const jobplaces *p, const char *name, const char *profiler_url,
                     int ended, jobplace *out, size_t cap)
{
    size_t n = 0;
    jobplace pl = {0};
    char rest[JOBPLACE_URL];
    if (profiler_url && !strncmp(profiler_url, "s3://", 5) &&
        snprintf(pl.url, sizeof pl.url, "%s", profiler_url) < (int)sizeof pl.url) {
        pl.kind = JOBPLACE_PROFILER;
        add(out, cap, &n, &pl);
    }
    snprintf(rest, sizeof rest, "%.256s/tensorboard-output/", name);
    pl = (jobplace){.kind = JOBPLACE_TENSORBOARD};
    if (join(pl.url, p->tensorboard, rest) && join(pl.alt, p->tensorboard, ""))
        add(out, cap, &n, &pl);
    else if (beside_traces(profiler_url, pl.url, sizeof pl.url))
        add(out, cap, &n, &pl);   /* no sync named: the traces beside the
                                     profiler output, as `smtop JOBDIR` reads them */
    pl = (jobplace){.kind = JOBPLACE_CHECKPOINT};
    if (join(pl.url, p->checkpoint, ""))
        add(out, cap, &n, &pl);
    snprintf(rest, sizeof rest, "%.256s/output/output.tar.gz", name);
    pl = (jobplace){.kind = JOBPLACE_OUTPUT};
    if (ended && join(pl.url, p->output, rest))
        add(out, cap, &n, &pl);
    return n < cap ? n : cap;
}
