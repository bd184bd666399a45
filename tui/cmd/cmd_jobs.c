/* cmd_jobs: `smtop jobs [OPTIONS] [SOURCE]` — every training job at a
 * glance: the list screen, or --json for scripts. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/jobs/jobs_api.h"
#include "io/jobs/jobs_files.h"
#include "io/jobs/jobs_scan.h"
#include "tui/cmd/commands.h"
#include "tui/cmd/jobs_args.h"
#include "tui/jobs/jobs_screen.h"
#include "tui/report/jobs_json.h"

#define JSON_METRICS 100   /* jobs whose figures --json reads (CloudWatch or files) */

static jobs_api *api_open(const jobs_args *a, sm_err *err)
{
    jobs_api_opts o = {.region = a->so.region, .profile = a->so.profile,
                       .since_s = a->since_s, .status = a->status, .name = a->name,
                       .limit = a->limit, .parallel = 8};
    return jobs_api_new(&o, err);
}

/* Names of every row, for describing them all. */
static const char **all_names(const joblist *l)
{
    size_t n = joblist_count(l);
    const char **names = calloc(n ? n : 1, sizeof *names);
    for (size_t i = 0; names && i < n; i++)
        names[i] = joblist_at(l, i)->name;
    return names;
}

/* The figures of the first n rows with S3 profiler data, from it. */
static void api_files(const jobs_args *a, joblist *l, const char **names, size_t n)
{
    sm_err err = {0};
    job_probe_opts po;
    jobs_args_probe_opts(a, &po);
    jobs_files *jf = jobs_files_new(&po);
    long got = jf ? jobs_files_figures(jf, l, NULL, names, n, (double)time(NULL), 0, NULL, NULL,
                                       &err) : -1;
    if (!jf || got < 0 || err.msg[0])
        cmd_err_print("smtop jobs: warning", jf ? err.msg : "out of memory");
    jobs_files_free(jf);
}

static int print_view(const jobs_args *a, const joblist *l, const char *source)
{
    double now = (double)time(NULL);
    size_t n = joblist_count(l);
    uint32_t *idx = malloc((n ? n : 1) * sizeof *idx);
    joblist_view_opts vo = {.filter = a->filter, .sort = a->sort, .desc = a->desc,
                            .faults_only = a->faults, .now_s = now, .stale_s = 600};
    long m = idx ? joblist_view(l, &vo, idx, n) : -1;
    json_t *root = m >= 0 ? jobs_json_build(l, idx, (size_t)m, source, now) : NULL;
    free(idx);
    if (!root) {
        cmd_err_print("smtop jobs", "out of memory");
        return SMTOP_EXIT_FAIL;
    }
    signal(SIGPIPE, SIG_IGN);
    int rc = json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (rc != 0 || fputc('\n', stdout) == EOF || fflush(stdout) != 0) {
        cmd_err_print("smtop jobs", "cannot write the list (stdout closed?)");
        return SMTOP_EXIT_FAIL;
    }
    return SMTOP_EXIT_OK;
}

static int jobs_json_api(const jobs_args *a)
{
    sm_err err = {0};
    jobs_api *api = api_open(a, &err);
    joblist *l = joblist_new();
    const char **names = NULL;
    int rc = SMTOP_EXIT_FAIL;
    if (!api || !l || jobs_api_list(api, l, NULL, &err) < 0)
        goto out;
    if (!(names = all_names(l)) ||
        jobs_api_describe(api, l, NULL, names, joblist_count(l), &err) < 0)
        goto out;
    if (err.msg[0])   /* a job that could not be described: its row says less */
        cmd_err_print("smtop jobs: warning", err.msg);
    sm_err_clear(&err);
    /* CloudWatch's figures, one call per job: for the first JSON_METRICS */
    size_t nm = joblist_count(l) < JSON_METRICS ? joblist_count(l) : JSON_METRICS;
    if (jobs_api_metrics(api, l, NULL, names, nm, (double)time(NULL), &err) < 0)
        cmd_err_print("smtop jobs: warning", err.msg);
    sm_err_clear(&err);
    api_files(a, l, names, nm);
    rc = print_view(a, l, "sagemaker");
out:
    if (rc != SMTOP_EXIT_OK && err.msg[0])
        cmd_err_print("smtop jobs", err.msg);
    free(names);
    joblist_free(l);
    jobs_api_free(api);
    return rc == SMTOP_EXIT_FAIL && err.code == SM_ERR_USAGE ? SMTOP_EXIT_USAGE : rc;
}

/* The figures of the first JSON_METRICS folders, each job read to its
 * end and judged as `smtop report` judges it. A job that cannot be read
 * is said and keeps its unknown figures. */
static void scan_figures(const jobs_args *a, joblist *l)
{
    sm_err err = {0};
    job_probe_opts po;
    jobs_args_probe_opts(a, &po);
    job_probe *p = job_probe_new(&po);
    const char **names = all_names(l);
    size_t n = joblist_count(l) < JSON_METRICS ? joblist_count(l) : JSON_METRICS;
    if (!p || !names)
        sm_err_set(&err, SM_ERR_NOMEM, "out of memory");
    else
        jobs_scan_figures(p, l, NULL, names, n, (double)time(NULL), NULL, NULL, &err);
    if (err.msg[0])
        cmd_err_print("smtop jobs: warning", err.msg);
    free(names);
    job_probe_free(p);
}

/* `smtop jobs --json DIR|s3://...`: the job folders, no API. */
static int jobs_json_scan(const jobs_args *a)
{
    sm_err err = {0};
    source_opts so = a->so;
    so.no_cache = 1;   /* listings of a whole prefix: nothing to reuse */
    source *src = source_open(a->spec, &so, &err);
    joblist *l = joblist_new();
    int rc = SMTOP_EXIT_FAIL;
    if (src && l && jobs_scan_list(src, a->spec, (double)time(NULL), l, NULL, NULL, NULL,
                                   &err) >= 0) {
        scan_figures(a, l);
        rc = print_view(a, l, a->spec);
    }
    if (rc != SMTOP_EXIT_OK && err.msg[0])
        cmd_err_print("smtop jobs", err.msg);
    joblist_free(l);
    if (src)
        source_free(src);
    return rc;
}

/* Enter on the list: the job's dashboard with the list's AWS options. */
static int open_dashboard(void *ud, const char *src, const jobrow *row, int *hung)
{
    const jobs_args *a = ud;
    int rc = cmd_dashboard_row(src, &a->so, row);
    *hung = (rc & SMTOP_EXIT_NOW) != 0;
    return rc & ~SMTOP_EXIT_NOW;
}

int cmd_jobs(int argc, char **argv)
{
    jobs_args a;
    int r = jobs_args_parse(&a, argc, argv);
    if (r != 0)
        return r > 0 ? SMTOP_EXIT_OK : SMTOP_EXIT_USAGE;
    if (a.json)
        return a.spec ? jobs_json_scan(&a) : jobs_json_api(&a);
    sm_err err = {0};
    jobs_args_probe_opts(&a, &a.probe);
    int rc = jobs_screen_run(&a, open_dashboard, &a, &err);
    if (rc == 1)
        return SMTOP_EXIT_OK | SMTOP_EXIT_NOW;   /* a hung dashboard thread: no joins */
    if (rc < 0) {
        if (err.msg[0])
            cmd_err_print("smtop jobs", err.msg);
        return cmd_exit_status(&err);
    }
    return SMTOP_EXIT_OK;
}
