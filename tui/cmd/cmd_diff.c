/* cmd_diff: `smtop diff [--json] BASE SOURCE` — a job against a baseline
 * (either side a directory, an s3:// URL or `--job NAME`):
 * step-time percentiles, utilization, per-step breakdown and top Python
 * functions side by side, changes marked. */
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/cmd/cmd_job.h"
#include "tui/cmd/commands.h"
#include "io/run/job.h"
#include "tui/report/report.h"
#include "tui/report/report_diff.h"

static void diff_usage(FILE *f)
{
    fprintf(f,
            "usage: smtop diff [OPTIONS] BASE SOURCE\n"
            "       smtop diff [OPTIONS] --job BASE_NAME --job NAME\n"
            "\n"
            "Reads two jobs' profiler-output (each a directory, an s3:// URL or a\n"
            "training job named by --job) and shows SOURCE against the baseline\n"
            "BASE: step-time percentiles per node and phase, mean CPU/GPU/\n"
            "GPU-memory/host-memory utilization, mean time per step in data\n"
            "loading, forward, backward, communication and other, and the top\n"
            "Python functions when both jobs have Python stats; with\n"
            "PyTorch profiler traces, each rank's GPU idle/compute/non-compute\n"
            "time and the kernels added, removed, slower and faster (mean time\n"
            "per launch, 5 %% threshold). Changes are given in percent of the\n"
            "baseline.\n"
            "\n"
            "  --json           one JSON object instead of text\n"
            "  --job NAME       the training job NAME, through the SageMaker API, as\n"
            "                   BASE or SOURCE (in the order given): its profiler\n"
            "                   output, and CloudWatch's metrics of its hosts when that\n"
            "                   holds no system metrics\n"
            "  --threshold PCT  hide text rows that changed by less than PCT %% (noise;\n"
            "                   default 2, 0 shows every row)\n"
            "%s"
            "  -h, --help       this help\n"
            "\n"
            "exit status: 0 success, 1 a source could not be read, 2 usage error\n",
            source_opts_help());
}

/* -1 usage error (printed), 1 help, 0 run. */
static int parse_args(int argc, char **argv, const char *spec[2], int is_job[2], int *json,
                      double *threshold, source_opts *so)
{
    sm_err err = {0};
    int n = 0;
    for (int i = 1; i < argc; i++) {
        int r = source_opts_parse(so, argc, argv, &i, &err);
        if (r < 0)
            goto usage;
        if (r > 0)
            continue;
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
            return 1;
        if (!strcmp(argv[i], "--json")) {
            *json = 1;
        } else if (!strcmp(argv[i], "--threshold")) {
            char *end = NULL;
            double v = i + 1 < argc ? strtod(argv[i + 1], &end) : -1;
            if (i + 1 >= argc || !end || *end || end == argv[i + 1] || !(v >= 0) || v > 1e6) {
                sm_err_set(&err, SM_ERR_USAGE, "--threshold needs a percentage >= 0 (e.g. 2)");
                goto usage;
            }
            *threshold = v;
            i++;
        } else if (!strcmp(argv[i], "--job") && (i + 1 >= argc || n == 2)) {
            sm_err_set(&err, SM_ERR_USAGE, i + 1 >= argc ? "--job needs a training job's NAME"
                                                         : "more than two sources given (--job)");
            goto usage;
        } else if (!strcmp(argv[i], "--job")) {
            is_job[n] = 1;
            spec[n++] = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            sm_err_set(&err, SM_ERR_USAGE, "unknown option %s", argv[i]);
            goto usage;
        } else if (n == 2) {
            sm_err_set(&err, SM_ERR_USAGE, "more than two sources given (%s)", argv[i]);
            goto usage;
        } else {
            spec[n++] = argv[i];
        }
    }
    if (n == 2)
        return 0;
    sm_err_set(&err, SM_ERR_USAGE, n ? "missing SOURCE (after BASE)" : "missing BASE and SOURCE");
usage:
    cmd_err_print("smtop diff", err.msg);
    fputs("Try 'smtop diff --help'.\n", stderr);
    return -1;
}

/* --job NAME: the job the API names, read to its end once. */
static json_t *load_job(const char *name, const source_opts *so, sm_err *err)
{
    model_config mc = {0};
    job *j = cmd_job_open(name, NULL, so, &mc, 0, err);
    json_t *obj = j ? report_diff_read(j, err) : NULL;
    job_close(j);
    return obj;
}

int cmd_diff(int argc, char **argv)
{
    const char *spec[2] = {0};
    int json = 0;
    double threshold = 2.0;
    source_opts so;
    source_opts_init(&so);
    int is_job[2] = {0};
    int pr = parse_args(argc, argv, spec, is_job, &json, &threshold, &so);
    if (pr != 0) {
        if (pr > 0)
            diff_usage(stdout);
        return pr > 0 ? SMTOP_EXIT_OK : SMTOP_EXIT_USAGE;
    }
    sm_err err = {0};
    json_t *r[2] = {0};
    for (int k = 0; k < 2; k++)
        if (!(r[k] = is_job[k] ? load_job(spec[k], &so, &err)
                               : report_diff_load(spec[k], &so, &err))) {
            char m[sizeof err.msg + 1100];
            snprintf(m, sizeof m, "%.1024s: %s", spec[k], err.msg);
            cmd_err_print("smtop diff", m);
            json_decref(r[0]);
            return cmd_exit_status(&err);
        }
    json_t *d = report_diff_build(r[0], r[1]);
    int rc = SMTOP_EXIT_OK;
    if (!d) {
        fprintf(stderr, "smtop diff: out of memory\n");
        rc = SMTOP_EXIT_FAIL;
    } else if (json) {
        json_dumpf(d, stdout, REPORT_JSON_FLAGS);
        fputc('\n', stdout);
    } else {
        report_diff_print_text(d, stdout, !strcmp(nl_langinfo(CODESET), "UTF-8"), threshold);
    }
    json_decref(d);
    json_decref(r[0]);
    json_decref(r[1]);
    return rc;
}
