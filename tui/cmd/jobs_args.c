/* jobs_args: `smtop jobs` options; see jobs_args.h. */
#include "tui/cmd/jobs_args.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/jobs/jobs_api.h"
#include "io/jobs/jobs_files.h"
#include "tui/cmd/cmd_job.h"
#include "tui/cmd/commands.h"
#include "tui/text/timearg.h"
#include "tui/report/report_rules.h"

void jobs_args_usage(FILE *f)
{
    fprintf(f,
            "usage: smtop jobs [OPTIONS] [SOURCE]\n"
            "\n"
            "Lists training jobs, one row each: status, instance type x count, age,\n"
            "training time, GPU/CPU/memory %% (the mean over the last 5 minutes of\n"
            "data: Debugger's system metrics, else CloudWatch's per-host figures\n"
            "divided by the type's GPUs and vCPUs), step p50 (the median TRAIN step\n"
            "of the newest 5 minutes of smdebug's framework events, else of the newest\n"
            "PyTorch profiler trace's ProfilerStep#N, its last left out), alerts\n"
            "(rules with IssuesFound), idle GPU-hours (GPU time below 10 %% utilization\n"
            "over the whole job: Debugger's per-GPU samples, each counting its sampling\n"
            "interval, else CloudWatch's per-host minutes below 10 %% a GPU, counting a\n"
            "minute for each GPU; unknown for unknown types) and instance-hours\n"
            "(billable time x hosts).\n"
            "Without SOURCE the jobs come from the SageMaker API (ListTrainingJobs,\n"
            "newest first; DescribeTrainingJob for the rows on screen and the jobs in\n"
            "progress, once for a job that has ended). SOURCE, a directory or\n"
            "s3://bucket/prefix, lists every job folder under it that holds\n"
            "profiler-output/ or PyTorch profiler traces, without the API.\n"
            "\n"
            "  --json           print the list as JSON (schema: jobs.schema.json)\n"
            "                   and exit; every listed job is described, the first\n"
            "                   100 get their figures (CloudWatch, or the folders'\n"
            "                   own files)\n"
            "  --since T        jobs created after T: a duration back from now\n"
            "                   (30m, 12h, 7d) or a time as below (default 7d)\n"
            "  --status S       InProgress, Completed, Failed, Stopping or Stopped\n"
            "  --name TEXT      job names that contain TEXT (asked of the API)\n"
            "  --filter PAT     the `/` filter: substrings, '|' alternatives, '^'\n"
            "                   and '$' anchor at the start and end of the name\n"
            "  --sort COL[-]    sort by name, status, type, age, train, gpu%%, cpu%%,\n"
            "                   mem%%, step, alerts, idle-gpu-h or inst-h; a\n"
            "                   trailing '-' sorts descending (default age: newest\n"
            "                   first)\n"
            "  --faults         Failed jobs, alerts, idle GPUs and stale jobs only\n"
            "  --limit N        list at most N jobs\n"
            "  --interval S     seconds between refreshes of running jobs on screen\n"
            "                   (default 10; new jobs and running ones off screen\n"
            "                   every 6 intervals; ended jobs are never asked again)\n"
            "  --utc            read and print times in UTC, not the local zone\n"
            "%s"
            "                       (the SageMaker endpoint: AWS_ENDPOINT_URL_SAGEMAKER,\n"
            "                       then AWS_ENDPOINT_URL; CloudWatch's:\n"
            "                       AWS_ENDPOINT_URL_CLOUDWATCH, then AWS_ENDPOINT_URL)\n"
            "  -h, --help       this help\n"
            "\n"
            "Keys: j/k or arrows move, / filter, s next sort column (< > as htop),\n"
            "S reverse, f faults only, Enter opens the job's dashboard (Esc comes\n"
            "back), ? help, q quit.\n"
            "\n"
            "exit status: 0 success, 1 the jobs could not be listed, 2 usage error\n",
            source_opts_help());
}

/* "7d", "12h", "30m", "90s" back from now, else a time timearg reads. */
static int parse_since(const char *v, double *out, sm_err *err)
{
    char *end;
    double n = strtod(v, &end);
    if (end != v && n >= 0 && end[0] && !end[1] && strchr("smhd", end[0])) {
        double unit = end[0] == 's' ? 1 : end[0] == 'm' ? 60 : end[0] == 'h' ? 3600 : 86400;
        *out = (double)time(NULL) - n * unit;
        return 0;
    }
    int64_t us;
    if (timearg_parse(v, &us, err) != 0)
        return -1;
    *out = (double)us / 1e6;
    return 0;
}

static int parse_sort(jobs_args *a, const char *v, sm_err *err)
{
    char col[32];
    snprintf(col, sizeof col, "%s", v);
    size_t n = strlen(col);
    a->desc = n > 1 && col[n - 1] == '-';
    if (a->desc)
        col[n - 1] = '\0';
    int c = joblist_col_parse(col);
    if (c < 0)
        return sm_err_set(err, SM_ERR_USAGE, "--sort: no column '%s' (name, status, type, "
                          "age, train, gpu%%, cpu%%, mem%%, step, alerts, idle-gpu-h, inst-h)", v);
    a->sort = (jobcol)c;
    return 0;
}

static int parse_value(jobs_args *a, const char *opt, const char *v, sm_err *err)
{
    char *end;
    if (!strcmp(opt, "--since"))
        return parse_since(v, &a->since_s, err);
    if (!strcmp(opt, "--status")) {
        a->status = v;
        return jobs_api_status_valid(v) ? 0 : sm_err_set(err, SM_ERR_USAGE,
            "--status wants InProgress, Completed, Failed, Stopping or Stopped, not '%s'", v);
    }
    if (!strcmp(opt, "--name"))
        a->name = v;
    else if (!strcmp(opt, "--filter"))
        a->filter = v;
    else if (!strcmp(opt, "--sort"))
        return parse_sort(a, v, err);
    else if (!strcmp(opt, "--limit")) {
        long n = strtol(v, &end, 10);
        if (*end || n < 1)
            return sm_err_set(err, SM_ERR_USAGE, "--limit wants a count, not '%s'", v);
        a->limit = (size_t)n;
    } else {
        a->interval_s = strtod(v, &end);
        if (*end || !(a->interval_s >= 1 && a->interval_s <= 3600))
            return sm_err_set(err, SM_ERR_USAGE, "--interval wants 1 to 3600 seconds, "
                              "not '%s'", v);
    }
    return 0;
}

static int parse_one(jobs_args *a, int argc, char **argv, int *i, sm_err *err)
{
    static const char *const valued[] = {"--since", "--status", "--name", "--filter",
                                         "--sort", "--limit", "--interval"};
    const char *arg = argv[*i];
    for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++) {
        if (strcmp(arg, valued[k]))
            continue;
        if (*i + 1 >= argc)
            return sm_err_set(err, SM_ERR_USAGE, "%s needs a value", arg);
        return parse_value(a, arg, argv[++*i], err);
    }
    if (!strcmp(arg, "--json"))
        a->json = 1;
    else if (!strcmp(arg, "--faults"))
        a->faults = 1;
    else if (!strcmp(arg, "--utc"))
        return 0;   /* applied by main */
    else
        return cmd_arg_source(arg, &a->spec, err);
    return 0;
}

int jobs_args_parse(jobs_args *a, int argc, char **argv)
{
    sm_err err = {0};
    memset(a, 0, sizeof *a);
    source_opts_init(&a->so);
    a->sort = JOBCOL_AGE;
    a->interval_s = 10;
    a->since_s = (double)time(NULL) - 7 * 86400.0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            jobs_args_usage(stdout);
            return 1;
        }
        int r = source_opts_parse(&a->so, argc, argv, &i, &err);
        if (r < 0 || (r == 0 && parse_one(a, argc, argv, &i, &err) < 0)) {
            cmd_err_print("smtop jobs", err.msg);
            fputs("Try 'smtop jobs --help'.\n", stderr);
            return -1;
        }
    }
    a->probe_so = a->so;
    a->probe_so.fail_fast = 1;
    a->probe_so.archive_max = JOBS_FILES_ARCHIVE_MAX;   /* a list reads many */
    return 0;
}

/* A job's rule set, configured as the report's (rules.conf). */
static rules *report_rules(void *ud, sm_err *err)
{
    (void)ud;
    return report_rules_new_configured(NULL, err);
}

/* An API row's job, as `smtop report --job NAME` opens it. */
static job *api_job(void *ud, const jobrow *r, const char *url, sm_err *err)
{
    (void)url;
    return cmd_job_open(r->name, r, ud, NULL, 0, err);
}

void jobs_args_probe_opts(const jobs_args *a, job_probe_opts *o)
{
    *o = (job_probe_opts){.ops = job_probe_ops_run(), .so = &a->probe_so,
                          .new_rules = report_rules};
    if (!a->spec) {
        o->open = api_job;
        o->open_ud = (void *)&a->probe_so;
    }
}
