/* cmd_report: `smtop report [--json] [--since T] [--until T] SOURCE` —
 * scan the job once, declare the data final, render the summary. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "tui/cmd/cmd_job.h"
#include "tui/cmd/cmd_progress.h"
#include "tui/cmd/commands.h"
#include "io/run/job.h"
#include "tui/report/report.h"
#include "tui/report/report_par.h"
#include "tui/report/report_python.h"
#include "tui/report/report_rules.h"
#include "tui/text/timearg.h"

typedef struct report_args {
    int json;
    int summary;               /* --summary: header and verdict only */
    const char *spec;
    const char *job;           /* --job NAME */
    model_config mc;
    source_opts so;
    report_python_opts py;
    report_rules_opts rules;
} report_args;

static void report_usage(FILE *f)
{
    fprintf(f,
            "usage: smtop report [OPTIONS] SOURCE\n"
            "       smtop report [OPTIONS] --job NAME\n"
            "\n"
            "Reads a job's profiler-output once and prints a summary: per-node metric\n"
            "statistics, step-time percentiles, job phases and data problems.\n"
            "SOURCE is a profiler-output directory, the job directory holding it,\n"
            "or s3://bucket/prefix.\n"
            "\n"
            "  --json           one JSON object instead of text\n"
            "  --summary        the verdict only: rules that fired, the straggler,\n"
            "                   idle GPU-hours\n"
            "  --job NAME       the training job NAME, through the SageMaker API: its\n"
            "                   profiler output, and CloudWatch's metrics of its hosts\n"
            "                   when that holds no system metrics (system_source says\n"
            "                   so); instead of SOURCE\n"
            "%s"
            "  --utc            read and print times in UTC, not the local zone\n"
            "%s"
            "%s"
            "%s"
            "%s"
            "  -h, --help       this help\n"
            "\n"
            "PyTorch profiler traces: the GPU figures (gpu[]) follow Holistic Trace\n"
            "Analysis (HTA): each trace's last ProfilerStep is left out, times are\n"
            "whole microseconds. Where smtop differs from HTA (7 ways, with HTA's code\n"
            "that causes each), see DIFFERENCES FROM HTA in smtop(1). Traces HTA\n"
            "rejects (CPU only, no rank) still give steps and CPU ops.\n"
            "\n"
            "exit status: 0 success, 1 the source could not be read or the report\n"
            "not written (a reader that closed the pipe, a full disk), 2 usage error,\n"
            "3 a rule named by --fail-on triggered\n",
            timearg_help(0), report_python_help(), report_rules_help(),
            source_opts_traces_help(), source_opts_help());
}

/* Returns -1 on a usage error (message printed), 1 for --help, 0 to run. */
static int parse_args(int argc, char **argv, report_args *a)
{
    sm_err err = {0};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        int r = source_opts_parse(&a->so, argc, argv, &i, &err);
        if (r == 0)
            r = source_opts_parse_traces(&a->so, argc, argv, &i, &err);
        if (r < 0)
            goto usage;
        if (r > 0)
            continue;
        if ((r = report_python_parse_arg(&a->py, argc, argv, &i, &err)) < 0)
            goto usage;
        if (r > 0)
            continue;
        if ((r = report_rules_parse_arg(&a->rules, argc, argv, &i, &err)) < 0)
            goto usage;
        if (r > 0)
            continue;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help"))
            return 1;
        if (!strcmp(arg, "--json")) {
            a->json = 1;
        } else if (!strcmp(arg, "--summary")) {
            a->summary = 1;
        } else if (!strcmp(arg, "--job")) {
            if (i + 1 >= argc) {
                sm_err_set(&err, SM_ERR_USAGE, "--job needs a training job's NAME");
                goto usage;
            }
            a->job = argv[++i];
        } else if (!strcmp(arg, "--utc")) {
            continue;   /* applied by main before any time was read */
        } else if (!strcmp(arg, "--since") || !strcmp(arg, "--until")) {
            if (i + 1 >= argc) {
                sm_err_set(&err, SM_ERR_USAGE, "%s needs a time", arg);
                goto usage;
            }
            int64_t *dst = arg[2] == 's' ? &a->mc.since_us : &a->mc.until_us;
            if (timearg_parse(argv[++i], dst, &err) != 0)
                goto usage;
        } else if (cmd_arg_source(arg, &a->spec, &err) != 0) {
            goto usage;
        }
    }
    if (a->spec && a->job)
        sm_err_set(&err, SM_ERR_USAGE, "--job NAME takes no SOURCE (%s)", a->spec);
    else if (a->spec || a->job)
        return 0;
    else
        sm_err_set(&err, SM_ERR_USAGE, "missing SOURCE (or --job NAME)");
usage:
    cmd_err_print("smtop report", err.msg);
    fputs("Try 'smtop report --help'.\n", stderr);
    return -1;
}

/* Writes the report to stdout. 0, or -1 with err when a write failed (a
 * reader that went away, a full disk; what was written stays written) or
 * a streamed part ran out of memory. */
static int report_write(const report_args *a, const json_t *obj, report_stream *st,
                        job *j, sm_err *err)
{
    /* A reader that goes away (`| head`) is a write error like any other,
     * with a message and status 1, not a silent death by SIGPIPE. */
    signal(SIGPIPE, SIG_IGN);
    if (a->json) {
        pthread_mutex_lock(job_lock(j));   /* the streamed parts read the model */
        /* The nodes' parts built on the pass's threads: readers of a
         * settled model write nothing (issue 28). */
        size_t threads = job_threads(j);
        if (threads > 1)
            report_par_settle(job_model(j), threads);
        report_stream_set_threads(st, threads);
        int rc = report_stream_dump(obj, st, stdout, REPORT_JSON_FLAGS, err);
        pthread_mutex_unlock(job_lock(j));
        if (rc != 0)
            return -1;
        fputc('\n', stdout);
    } else if (a->summary) {
        report_print_summary(obj, stdout);
    } else {
        report_print_text(obj, stdout);
    }
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout))
        return sm_err_set(err, SM_ERR_IO, "writing the report: %s",
                          strerror(errno ? errno : EIO));
    return 0;
}

int cmd_report(int argc, char **argv)
{
    report_args a = {0};
    source_opts_init(&a.so);
    report_python_opts_init(&a.py);
    int pr = parse_args(argc, argv, &a);
    if (pr != 0) {
        if (pr > 0)
            report_usage(stdout);
        return pr > 0 ? SMTOP_EXIT_OK : SMTOP_EXIT_USAGE;
    }
    sm_err err = {0};
    job *j = a.job ? cmd_job_open(a.job, NULL, &a.so, &a.mc, 0, &err)
                   : job_open(a.spec, &a.so, &a.mc, &err);
    cmd_progress *prog = j ? cmd_progress_start(job_scanner(j)) : NULL;
    int scanned = j ? job_scan(j, &err) : -1;
    cmd_progress_stop(prog);
    if (scanned != 0 && j && a.job && err.code != SM_ERR_NOMEM) {
        /* --job: the places the API names may all be out of reach (a
         * network, an endpoint); CloudWatch may still hold the job's
         * figures, and trace_sources[] says which place failed */
        fprintf(stderr, "smtop report: warning: %s's data places cannot be read (%s); "
                "its figures come from CloudWatch\n", a.job, err.msg);
        scanned = 0;
    }
    if (scanned != 0) {
        cmd_err_print("smtop report", err.msg);
        job_close(j);
        return cmd_exit_status(&err);
    }
    job_poll_watch(j);   /* --job: CloudWatch, when the files hold no system metrics */
    job_finish(j);
    if (!a.spec)
        a.spec = "";     /* --job: the rule reports are the source's own */
    /* --json streams the per-node arrays, which at 256 nodes would cost
     * more than the model's own share of a node (report_stream.h), and
     * the per-rank gpu rows (report_gpu.h); the text report reads the
     * whole tree. */
    report_stream *st = a.json ? report_stream_new() : NULL;
    json_t *obj = a.json && !st ? NULL : report_build(j, st);
    if (obj) {
        pthread_mutex_lock(job_lock(j));
        int pr_rc = report_python_add(obj, job_pystats(j), &a.py, &err);
        pthread_mutex_unlock(job_lock(j));
        if (pr_rc != 0) {
            json_decref(obj);
            obj = NULL;
        }
    }
    int fired = obj ? report_rules_run(obj, j, a.spec, &a.so, &a.rules, st, &err) : 0;
    int rc = fired > 0 ? SMTOP_EXIT_RULE : SMTOP_EXIT_OK;
    if (fired < 0) {
        cmd_err_print("smtop report", err.msg);
        rc = cmd_exit_status(&err);
    } else if (!obj) {
        fprintf(stderr, "smtop report: out of memory\n");
        rc = SMTOP_EXIT_FAIL;
    } else if (report_write(&a, obj, st, j, &err) != 0) {
        cmd_err_print("smtop report", err.msg);
        rc = SMTOP_EXIT_FAIL;
    }
    json_decref(obj);
    report_stream_free(st);
    job_close(j);
    return rc;
}
