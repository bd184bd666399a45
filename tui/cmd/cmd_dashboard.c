/* cmd_dashboard: `smtop [OPTIONS] SOURCE` and `smtop --demo` — reads the
 * defaults in smtop.conf, parses the options, opens the job (or starts the
 * simulated one), blocks the exit signals into a signalfd before any
 * thread starts, and runs the dashboard. Every exit path removes the demo
 * directory. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/conf/conf_file.h"
#include "tui/panes/chart.h"
#include "tui/cmd/commands.h"
#include "tui/dash/dash.h"
#include "io/run/demo.h"
#include "io/run/job.h"
#include "io/run/job_watch.h"
#include "io/scan/scanner.h"
#include "io/source/source_open.h"
#include "tui/cmd/cmd_job.h"
#include "tui/text/timearg.h"
#include "tui/report/report_diff.h"
#include "tui/report/report_rules.h"
#include "tui/term/term_signals.h"

typedef struct dash_args {
    dash_opts d;
    source_opts so;
    report_rules_opts rules;   /* --rule, --no-rules-config */
    model_config mc;           /* --since, --until */
    const char *src;
    const char *baseline;      /* --baseline BASE: diff mode */
    const jobrow *row;         /* from the job list (cmd_dashboard_from), or NULL */
    const char *job;           /* --job NAME */
    int demo;
    int no_config;             /* --no-config: smtop.conf neither read nor written */
    char conf_theme[256];      /* `theme =` of smtop.conf, outlives the file */
    char conf_layout[128], conf_shown[128], conf_hidden[128];
} dash_args;

void cmd_dashboard_options(FILE *f)
{
    fprintf(f,
            "  --demo               simulate a live 4-node job in a temporary directory\n"
            "  --job NAME           the training job NAME, through the SageMaker API:\n"
            "                       its profiler output, or CloudWatch's metrics of its\n"
            "                       hosts when it has none (instead of SOURCE)\n"
            "  --baseline BASE      diff mode: read the job BASE (directory or s3://) once\n"
            "                       and add a Diff pane comparing SOURCE with it, live:\n"
            "                       step-time p50/p95/p99, per-category step breakdown,\n"
            "                       utilization and top Python functions, as smtop diff\n"
            "  --theme NAME|PATH    default, light, high-contrast, monochrome, a user\n"
            "                       theme in $XDG_CONFIG_HOME/smtop/themes, or a file\n"
            "  --no-color           attributes only (also when NO_COLOR is set)\n"
            "  --symbols SET        braille, block or ascii (default: from the locale)\n"
            "  --interval SECONDS   scan interval (default 5)\n"
            "  --utc                show times in UTC (default: the local time zone;\n"
            "                       the header names the zone either way)\n"
            "  --frames N           draw N frames without waiting for keys, then exit\n"
            "  --rule NAME.PARAM=VALUE  set a rule parameter for the alerts pane\n"
            "                       (repeatable, e.g. --rule StepOutlier.stddev=4); applied\n"
            "                       over $XDG_CONFIG_HOME/smtop/rules.conf; :set works on top\n"
            "  --no-rules-config    ignore rules.conf\n"
            "  --no-config          ignore smtop.conf (defaults for theme, symbols,\n"
            "                       interval, no-color in $XDG_CONFIG_HOME/smtop)\n"
            "%s"
            "%s"
            "%s"
            "  -h, --help           this help\n",
            timearg_help(1), source_opts_traces_help(), source_opts_help());
}

static void usage(FILE *f)
{
    fputs("usage: smtop [OPTIONS] SOURCE\n"
          "       smtop [OPTIONS] --job NAME\n"
          "       smtop --baseline BASE [OPTIONS] SOURCE\n"
          "       smtop --demo [OPTIONS]\n"
          "\n"
          "Live dashboard of a SageMaker profiler-output (a local directory, the job\n"
          "directory holding it, or s3://bucket/prefix). Press ? inside for keys.\n"
          "A job that has not written anything yet is waited for; the header says\n"
          "LIVE while samples arrive, STALE and their age once they stop, ENDED when\n"
          "the newest is an hour old or more; on s3://.../JOB/profiler-output, what\n"
          "the SageMaker API says of JOB when it answers (Training, Completed 2 h ago,\n"
          "Failed: reason).\n"
          "\n", f);
    cmd_dashboard_options(f);
}

static int parse_long(const char *opt, const char *v, long lo, long hi, long *out,
                      sm_err *err)
{
    char *end;
    errno = 0;
    long x = v ? strtol(v, &end, 10) : 0;
    if (!v || errno || *end || end == v || x < lo || x > hi)
        return sm_err_set(err, SM_ERR_USAGE, "%s needs a number from %ld to %ld", opt, lo, hi);
    *out = x;
    return 0;
}

static int parse_symbols(const char *v, int *out, sm_err *err)
{
    for (int g = 0; g < GLYPHS_COUNT && v; g++)
        if (!strcmp(v, chart_glyphs_name((chart_glyphs)g))) {
            *out = g;
            return 0;
        }
    return sm_err_set(err, SM_ERR_USAGE, "--symbols takes braille, block or ascii");
}

/* One option at argv[*i]; 1 = help asked, 0 = ok, -1 = usage error. */
static int parse_one(dash_args *a, int argc, char **argv, int *i, sm_err *err)
{
    const char *arg = argv[*i], *val = *i + 1 < argc ? argv[*i + 1] : NULL;
    long x = 0;
    int r = source_opts_parse(&a->so, argc, argv, i, err);
    if (r == 0)
        r = source_opts_parse_traces(&a->so, argc, argv, i, err);
    if (r != 0)
        return r < 0 ? -1 : 0;
    if (!strcmp(arg, "-h") || !strcmp(arg, "--help"))
        return 1;
    if (!strcmp(arg, "--fail-on"))
        return sm_err_set(err, SM_ERR_USAGE, "--fail-on is for smtop report");
    if ((r = report_rules_parse_arg(&a->rules, argc, argv, i, err)) != 0)
        return r < 0 ? -1 : 0;
    if (!strcmp(arg, "--demo"))
        a->demo = 1;
    else if (!strcmp(arg, "--job")) {
        if (!val)
            return sm_err_set(err, SM_ERR_USAGE, "--job needs a training job's NAME");
        a->job = val, ++*i;
    }
    else if (!strcmp(arg, "--utc"))
        ;   /* applied by main before anything was shown */
    else if (!strcmp(arg, "--no-config"))
        a->no_config = 1;   /* also seen by read_conf before the options */
    else if (!strcmp(arg, "--baseline")) {
        if (!val)
            return sm_err_set(err, SM_ERR_USAGE, "--baseline needs a BASE job (directory "
                              "or s3:// URL)");
        a->baseline = val, ++*i;
    } else if (!strcmp(arg, "--no-color"))
        a->d.no_color = 1;
    else if (!strcmp(arg, "--theme")) {
        if (!val)
            return sm_err_set(err, SM_ERR_USAGE, "--theme needs a NAME or a PATH");
        a->d.theme = val, ++*i;
    }
    else if (!strcmp(arg, "--symbols"))
        return parse_symbols(val, &a->d.glyphs, err) ? -1 : (++*i, 0);
    else if (!strcmp(arg, "--interval")) {
        if (parse_long(arg, val, 1, 3600, &x, err))
            return -1;
        a->d.interval_ms = (int)x * 1000, ++*i;
    } else if (!strcmp(arg, "--frames")) {
        if (parse_long(arg, val, 1, 100000000, &a->d.frames, err))
            return -1;
        ++*i;
    } else if (!strcmp(arg, "--since") || !strcmp(arg, "--until")) {
        if (!val)
            return sm_err_set(err, SM_ERR_USAGE, "%s needs a time", arg);
        if (timearg_parse(val, arg[2] == 's' ? &a->mc.since_us : &a->mc.until_us, err))
            return -1;
        ++*i;
    } else if (!strcmp(arg, "--bench-frames")) {   /* hidden: tests/bench */
        if (parse_long(arg, val, 1, 1000000, &a->d.bench_frames, err))
            return -1;
        ++*i;
    } else if (arg[0] == '-' && arg[1])
        return sm_err_set(err, SM_ERR_USAGE, "unknown option %s (see smtop --help)", arg);
    else if (!a->src)
        a->src = arg;
    else
        return sm_err_set(err, SM_ERR_USAGE, "more than one SOURCE: %s and %s", a->src, arg);
    return 0;
}

/* Configures a scratch rule set the way the alerts pane will, so a bad
 * rules.conf line is reported (exit 2, file and line) before the screen
 * opens, as `smtop report` does, instead of hiding behind the curses UI. */
static int check_rules(dash_args *a, sm_err *err)
{
    rules *scratch = report_rules_new_configured(&a->rules, err);
    if (!scratch)
        return -1;   /* SM_ERR_USAGE for a bad line or override: exit 2 */
    rules_free(scratch);
    a->d.rules = &a->rules;
    return 0;
}

/* smtop.conf keys: the dashboard options that make sense as defaults. A
 * line `key = value` goes through parse_one as `--key value`, so the file
 * accepts exactly what the command line does; `no-color` takes a boolean. */
static const char *const conf_keys[] = {"theme", "symbols", "interval", "no-color",
                                        "layout", "shown", "hidden"};

static int conf_bool(const char *v, int *out)
{
    static const char *const yes[] = {"true", "yes", "on", "1"},
                      *const no[] = {"false", "no", "off", "0"};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
        if (!strcmp(v, yes[i]) || !strcmp(v, no[i])) {
            *out = !strcmp(v, yes[i]);
            return 0;
        }
    return -1;
}

static int conf_apply(void *ctx, const char *key, const char *value, sm_err *err)
{
    dash_args *a = ctx;
    size_t k = 0, n = sizeof conf_keys / sizeof *conf_keys;
    while (k < n && strcmp(key, conf_keys[k]))
        k++;
    if (k == n)
        return sm_err_set(err, SM_ERR_USAGE, "unknown key '%.40s' (smtop.conf knows "
                          "theme, symbols, interval, no-color, layout, shown, hidden)", key);
    /* The dashboard's own state, saved on exit (dash_panes.c): no option. */
    if (!strcmp(key, "layout") || !strcmp(key, "shown") || !strcmp(key, "hidden")) {
        char *dst = !strcmp(key, "layout") ? a->conf_layout
                  : !strcmp(key, "shown") ? a->conf_shown : a->conf_hidden;
        snprintf(dst, sizeof a->conf_layout, "%s", value);
        *(!strcmp(key, "layout") ? &a->d.layout : !strcmp(key, "shown") ? &a->d.shown
                                                                        : &a->d.hidden) = dst;
        return 0;
    }
    if (!strcmp(key, "no-color"))
        return conf_bool(value, &a->d.no_color) ? sm_err_set(err, SM_ERR_USAGE,
                   "no-color takes true or false, got '%.40s'", value) : 0;
    if (!strcmp(key, "theme")) {
        snprintf(a->conf_theme, sizeof a->conf_theme, "%s", value);
        value = a->conf_theme;
    }
    char opt[32];
    snprintf(opt, sizeof opt, "--%s", key);
    char *av[2] = {opt, (char *)value};
    int i = 0;
    return parse_one(a, 2, av, &i, err) < 0 ? -1 : 0;
}

/* Applies $XDG_CONFIG_HOME/smtop/smtop.conf unless the options say
 * --no-config (or ask for --help: a broken file must not hide the help).
 * A missing file is no error; a bad line is one, naming file and line. */
static int read_conf(dash_args *a, int argc, char **argv, sm_err *err)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--no-config") || !strcmp(argv[i], "-h") ||
            !strcmp(argv[i], "--help"))
            return 0;
    char path[1024];
    size_t len = 0;
    int missing = 0;
    if (conf_file_path("smtop.conf", path, sizeof path) < 0)
        return 0;
    char *text = conf_file_read(path, &len, &missing, err);
    if (!text)
        return missing ? 0 : -1;
    int rc = conf_file_parse_kv(text, len, path, conf_apply, a, err);
    free(text);
    return rc;
}

/* The defaults, then smtop.conf's (unless argv says --no-config). */
static int args_init(dash_args *a, int argc, char **argv, sm_err *err)
{
    memset(a, 0, sizeof *a);
    source_opts_init(&a->so);
    a->so.wait_for_data = 1;   /* a job that has not written yet is shown waiting */
    a->d.glyphs = -1;
    a->d.interval_ms = 5000;
    a->d.sig_fd = -1;
    return read_conf(a, argc, argv, err);
}

/* What the options say together, once all are in. */
static int args_check(dash_args *a, sm_err *err)
{
    if (!a->demo && !a->src && !a->job)
        return sm_err_set(err, SM_ERR_USAGE, "no SOURCE given (or use --job NAME, --demo)");
    if (a->job && (a->src || a->demo))
        return sm_err_set(err, SM_ERR_USAGE, "--job NAME takes no SOURCE and no --demo");
    a->d.save_config = !a->no_config;
    if (a->demo && a->src)
        return sm_err_set(err, SM_ERR_USAGE, "--demo takes no SOURCE");
    return check_rules(a, err);
}

static int parse_args(dash_args *a, int argc, char **argv, sm_err *err)
{
    if (args_init(a, argc, argv, err) < 0)
        return -1;
    for (int i = 1; i < argc; i++) {
        int r = parse_one(a, argc, argv, &i, err);
        if (r != 0)
            return r;
    }
    return args_check(a, err);
}

/* Diff mode: the baseline is read to its end once, before the screen
 * opens, so a bad BASE fails like a bad SOURCE (exit 1, the reason). */
static json_t *load_baseline(const dash_args *a, sm_err *err)
{
    sm_err e = {0};
    source_opts so = a->so;
    so.wait_for_data = 0;      /* a baseline is a finished job: empty is an error */
    json_t *base = report_diff_load(a->baseline, &so, &e);
    if (!base)
        sm_err_set(err, e.code, "baseline %s: %s", a->baseline, e.msg);
    return base;
}

/* The job an s3:// SOURCE names (SageMaker's layout, .../JOB/
 * profiler-output), as the SageMaker API sees it: its status for the
 * header. Without credentials or a job name, none: the header keeps the
 * files' freshness. */
static void watch_api(job *j, const dash_args *a)
{
    char name[256];
    if (strncmp(a->src ? a->src : "", "s3://", 5) ||
        !job_watch_name_from(a->src, name, sizeof name))
        return;
    job_watch_opts o = {.region = a->so.region, .profile = a->so.profile};
    sm_err e = {0};
    job_set_watch(j, job_watch_new(name, NULL, &o, &e), 1, &e);
}

/* The job: a training job named to the API (--job, or the list's row),
 * else SOURCE's files. */
static job *open_job(const dash_args *a, const char *spec, sm_err *err)
{
    if (a->row || a->job)
        return cmd_job_open(a->row ? a->row->name : a->job, a->row, &a->so, &a->mc, 1, err);
    job *j = job_open(spec, &a->so, &a->mc, err);
    if (j && !a->demo)
        watch_api(j, a);
    return j;
}

/* 0, -1 with err, or DASH_LOADER_BUSY: the job is left to the loader
 * thread still in a pass, and the process must end without freeing it. */
static int run(dash_args *a, sm_err *err)
{
    demo *dm = NULL;
    const char *spec = a->src;
    if (a->demo) {
        if (!(dm = demo_start(err)))
            return -1;
        spec = demo_dir(dm);
    }
    int rc = -1;
    job *j = open_job(a, spec, err);
    if (j) {
        rc = dash_run(j, &a->d, err);
        if (rc != DASH_LOADER_BUSY)
            job_close(j);
    }
    demo_stop(dm);
    return rc;
}

/* The dashboard of a's job once its options are in: the baseline read,
 * the signals blocked, the screen run. The process exit status. */
static int dashboard_go(dash_args *a)
{
    sm_err err = {0};
    /* Diff mode reads the baseline before any thread starts and before
     * the signals are blocked: Ctrl-C while a slow BASE loads ends the
     * program at once (no screen to restore yet). */
    json_t *base = NULL;
    if (a->baseline && !(base = load_baseline(a, &err))) {
        cmd_err_print("smtop", err.msg);
        return cmd_exit_status(&err);
    }
    a->d.baseline = base;
    /* The signals stay blocked until the process ends: unblocking would
     * let one that arrived after the last poll kill us with the default
     * action instead of the clean exit already under way. */
    a->d.sig_fd = term_block_signals();
    int rc = run(a, &err);
    if (a->d.sig_fd >= 0)
        close(a->d.sig_fd);
    if (rc == DASH_LOADER_BUSY)   /* a request still hangs: do not wait for it */
        return SMTOP_EXIT_OK | SMTOP_EXIT_NOW;
    json_decref(base);
    if (rc != 0) {
        cmd_err_print("smtop", err.msg);
        return cmd_exit_status(&err);
    }
    return SMTOP_EXIT_OK;
}

/* 1 when SOURCE is a local folder of SageMaker jobs without data of its
 * own: its dashboard would show 0 nodes and a status line naming the
 * jobs, where the user meant the list of them. An S3 prefix keeps the
 * dashboard (and its status line): probing it costs listings before the
 * first frame. */
static int holds_jobs(const dash_args *a)
{
    if (a->demo || a->job || a->baseline || a->row || !a->src || !strncmp(a->src, "s3://", 5))
        return 0;
    sm_err err = {0};
    source *src = source_open(a->src, &a->so, &err);
    if (!src)
        return 0;
    char root[256];
    size_t jobs = 0;
    int r = scanner_probe_root(src, root, sizeof root, &jobs, &err) == 0 && jobs > 0;
    source_free(src);
    return r;
}

int cmd_dashboard(int argc, char **argv)
{
    dash_args a;
    sm_err err = {0};
    int r = parse_args(&a, argc, argv, &err);
    if (r == 1) {
        usage(stdout);
        return SMTOP_EXIT_OK;
    }
    if (r < 0) {
        cmd_err_print("smtop", err.msg);
        return SMTOP_EXIT_USAGE;
    }
    if (holds_jobs(&a)) {   /* `smtop DIR` on a folder of jobs: `smtop jobs DIR` */
        char *av[] = {"jobs", (char *)a.src, NULL};
        return cmd_jobs(2, av);
    }
    return dashboard_go(&a);
}

int cmd_dashboard_row(const char *src, const source_opts *so, const jobrow *row)
{
    dash_args a;
    sm_err err = {0};
    char *av[] = {"smtop", NULL};
    int r = args_init(&a, 1, av, &err);
    if (r == 0) {
        a.src = src;
        if (so->profile && *so->profile)
            a.so.profile = so->profile;
        if (so->region && *so->region)
            a.so.region = so->region;
        if (so->endpoint_url && *so->endpoint_url)
            a.so.endpoint_url = so->endpoint_url;
        r = args_check(&a, &err);
    }
    a.d.esc_back = 1;
    a.row = row;
    if (r < 0) {
        cmd_err_print("smtop", err.msg);
        return SMTOP_EXIT_USAGE;
    }
    return dashboard_go(&a);
}
