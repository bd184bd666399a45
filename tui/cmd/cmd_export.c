/* cmd_export: `smtop export --perfetto OUT.json [--since T --until T |
 * --steps A:B] SOURCE|--job NAME` — stream the whole job into one
 * Chrome-trace file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/export/atomic_file.h"
#include "io/export/export_perfetto.h"
#include "io/source/source_job.h"
#include "io/source/source_traces.h"
#include "io/scan/scanner.h"
#include "io/source/source_open.h"
#include "tui/cmd/cmd_job.h"
#include "tui/cmd/commands.h"
#include "tui/text/timearg.h"

typedef struct export_args {
    const char *out, *spec, *job;   /* job: --job NAME */
    export_opts xo;
    source_opts so;
} export_args;

static void export_usage(FILE *f)
{
    fprintf(f,
            "usage: smtop export --perfetto OUT.json [OPTIONS] SOURCE\n"
            "       smtop export --perfetto OUT.json [OPTIONS] --job NAME\n"
            "\n"
            "Writes every node's framework events and system metrics into one\n"
            "Chrome-trace JSON file for Perfetto (ui.perfetto.dev) or\n"
            "chrome://tracing: a process per node, a thread per phase, a counter\n"
            "track per metric, times in epoch microseconds; PyTorch profiler\n"
            "traces on the same clock, a process per rank (labelled with its\n"
            "node) with its GPU streams and CPU threads as threads, flows kept.\n"
            "Streams: memory does not grow with the job. OUT.json may be - for\n"
            "standard output; a file is written whole or not at all (a failed\n"
            "export leaves an existing OUT.json as it was).\n"
            "\n"
            "  --perfetto FILE  output file (required)\n"
            "  --job NAME       the training job NAME, through the SageMaker API: its\n"
            "                   profiler output (ProfilerConfig.S3OutputPath/NAME/\n"
            "                   profiler-output/); instead of SOURCE\n"
            "%s"
            "  --utc            read --since/--until in UTC, not the local zone\n"
            "  --steps A:B      only the time window of training steps A..B\n"
            "  --no-system      framework events only, no metric counters\n"
            "%s"
            "%s"
            "  -h, --help       this help\n"
            "\n"
            "exit status: 0 success, 1 the source could not be read or OUT not\n"
            "written, 2 usage error\n",
            timearg_help(0), source_opts_traces_help(), source_opts_help());
}

static int parse_steps(const char *s, export_opts *o, sm_err *err)
{
    char *end;
    long long a = strtoll(s, &end, 10);
    if (end == s || *end != ':')
        return sm_err_set(err, SM_ERR_USAGE, "--steps wants A:B (e.g. 100:120), got '%s'", s);
    const char *q = end + 1;
    long long b = strtoll(q, &end, 10);
    if (end == q || *end || a < 0 || b < a)
        return sm_err_set(err, SM_ERR_USAGE, "--steps wants A:B with 0 <= A <= B, got '%s'", s);
    o->has_steps = 1;
    o->step_a = a;
    o->step_b = b;
    return 0;
}

static int parse_one(export_args *a, int argc, char **argv, int *i, sm_err *err)
{
    const char *arg = argv[*i];
    int needs = !strcmp(arg, "--perfetto") || !strcmp(arg, "--since") ||
                !strcmp(arg, "--until") || !strcmp(arg, "--steps") || !strcmp(arg, "--job");
    if (needs && *i + 1 >= argc)
        return sm_err_set(err, SM_ERR_USAGE, "%s needs a value", arg);
    if (!strcmp(arg, "--perfetto"))
        a->out = argv[++*i];
    else if (!strcmp(arg, "--job"))
        a->job = argv[++*i];
    else if (!strcmp(arg, "--since"))
        return timearg_parse(argv[++*i], &a->xo.since_us, err);
    else if (!strcmp(arg, "--until"))
        return timearg_parse(argv[++*i], &a->xo.until_us, err);
    else if (!strcmp(arg, "--steps"))
        return parse_steps(argv[++*i], &a->xo, err);
    else if (!strcmp(arg, "--no-system"))
        a->xo.system = 0;
    else if (!strcmp(arg, "--utc"))
        return 0;   /* applied by main before any time was read */
    else
        return cmd_arg_source(arg, &a->spec, err);
    return 0;
}

/* -1 usage error (printed), 1 --help, 0 run. */
static int parse_args(int argc, char **argv, export_args *a)
{
    sm_err err = {0};
    for (int i = 1; i < argc; i++) {
        int r = source_opts_parse(&a->so, argc, argv, &i, &err);
        if (r == 0)
            r = source_opts_parse_traces(&a->so, argc, argv, &i, &err);
        if (r < 0)
            goto usage;
        if (r > 0)
            continue;
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
            return 1;
        if (parse_one(a, argc, argv, &i, &err) != 0)
            goto usage;
    }
    if (!a->out)
        sm_err_set(&err, SM_ERR_USAGE, "missing --perfetto OUT.json");
    else if (a->spec && a->job)
        sm_err_set(&err, SM_ERR_USAGE, "--job NAME takes no SOURCE (%s)", a->spec);
    else if (!a->spec && !a->job)
        sm_err_set(&err, SM_ERR_USAGE, "missing SOURCE (or --job NAME)");
    else if (a->xo.has_steps && (a->xo.since_us || a->xo.until_us))
        sm_err_set(&err, SM_ERR_USAGE, "use either --steps or --since/--until, not both");
    else
        return 0;
usage:
    cmd_err_print("smtop export", err.msg);
    fputs("Try 'smtop export --help'.\n", stderr);
    return -1;
}

/* --job NAME: every place the API says the job's data is (source_job.h),
 * with its root; NULL with err when the API cannot say or the job has
 * no place at all. */
static source *job_places(const char *name, const source_opts *so, const char **root,
                          sm_err *err)
{
    jobrow r;
    if (cmd_job_resolve(name, so, &r, err) < 0)
        return NULL;
    if (!r.profiler_url[0] && !source_job_has_traces(&r))
        return sm_err_set(err, SM_ERR_NOTFOUND,
                          "training job %.256s has no profiler output (no ProfilerConfig, "
                          "or the profiler disabled) and no TensorBoard, checkpoint or "
                          "output place: nothing to export", name), NULL;
    return source_job_open(&r, so, root, err);
}

static int run_export(const export_args *a, FILE *out, export_stats *st, sm_err *err)
{
    const char *root = NULL;
    source *src = a->job ? job_places(a->job, &a->so, &root, err)
                         : source_open(a->spec, &a->so, err);
    if (!src)
        return -1;
    export_opts xo = a->xo;
    if (a->so.traces && !(xo.traces = source_traces_open(a->so.traces, &a->so, err))) {
        char why[sizeof err->msg];
        memcpy(why, err->msg, sizeof why);
        sm_err_set(err, err->code, "--traces: %.400s", why);
        source_free(src);
        return -1;
    }
    char found[256];
    int rc = root ? 0 : scanner_find_root(src, found, sizeof found, err);
    if (rc == 0)
        rc = export_perfetto(src, root ? root : found, out, &xo, st, err);
    if (rc == 0 && root && !st->files)   /* a job's places: none held a file */
        rc = sm_err_set(err, SM_ERR_NOTFOUND, "training job %.256s: no profiler output and "
                        "nothing in %.1200s: nothing to export", a->job, source_describe(src));
    source_free(xo.traces);
    source_free(src);
    return rc;
}

/* Writes the export to a.out whole or not at all (see atomic_file.h):
 * a failed export leaves an earlier one in place. */
static int export_to_file(const export_args *a, export_stats *st, sm_err *err)
{
    atomic_file *f = atomic_file_open(a->out, err);
    if (!f)
        return -1;
    if (run_export(a, atomic_file_stream(f), st, err) != 0) {
        atomic_file_abort(f);
        return -1;
    }
    return atomic_file_commit(f, err);
}

int cmd_export(int argc, char **argv)
{
    export_args a = {0};
    export_opts_init(&a.xo);
    source_opts_init(&a.so);
    int pr = parse_args(argc, argv, &a);
    if (pr != 0) {
        if (pr > 0)
            export_usage(stdout);
        return pr > 0 ? SMTOP_EXIT_OK : SMTOP_EXIT_USAGE;
    }
    export_stats st;
    sm_err err = {0};
    int rc = !strcmp(a.out, "-") ? run_export(&a, stdout, &st, &err)
                                 : export_to_file(&a, &st, &err);
    if (rc != 0) {
        cmd_err_print("smtop export", err.msg);
        return cmd_exit_status(&err);
    }
    fprintf(stderr, "smtop export: %lld events, %lld counter samples from %lld files",
            (long long)st.events, (long long)st.counters, (long long)st.files);
    if (st.kineto_files)
        fprintf(stderr, " (%lld events from %lld PyTorch profiler traces)",
                (long long)st.kineto_events, (long long)st.kineto_files);
    if (st.skipped_files || st.corrupt_lines)
        fprintf(stderr, " (%lld files skipped, %lld corrupt lines)",
                (long long)st.skipped_files, (long long)st.corrupt_lines);
    fputc('\n', stderr);
    if (st.last_error[0])
        cmd_err_print("smtop export: last problem", st.last_error);
    return SMTOP_EXIT_OK;
}
