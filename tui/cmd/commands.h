/* commands: one entry point per subcommand, dispatched by tui/cmd/main.c.
 *
 * Each returns the process exit status and never calls exit(): 0 success,
 * 1 the source could not be read / runtime failure, 2 usage error,
 * 3 `report --fail-on` rule fired. argv[0] is the subcommand name. */
#ifndef SMTOP_COMMANDS_H
#define SMTOP_COMMANDS_H

#include <stdio.h>

enum smtop_exit {
    SMTOP_EXIT_OK = 0,
    SMTOP_EXIT_FAIL = 1,
    SMTOP_EXIT_USAGE = 2,
    SMTOP_EXIT_RULE = 3
};

/* Or-ed into a command's status when a thread is still blocked in I/O
 * (a hanging S3 request) and must not be waited for: main flushes the
 * output and ends the process with _exit(status & 0xff) at once. */
#define SMTOP_EXIT_NOW 0x100

#include "model/util/sm_err.h"
#include "tui/text/sanitize.h"

/* "WHO: MSG\n" on stderr, MSG sanitized: an error may quote what a server
 * or a file said (an S3 error Code, a key), which must not reach the
 * terminal as escape sequences or bidi overrides. */
static inline void cmd_err_print(const char *who, const char *msg)
{
    fprintf(stderr, "%s: ", who);
    sanitize_fputs(msg, stderr);
    fputc('\n', stderr);
}

/* The status for a failure: 2 when the user asked for something that
 * cannot be (SM_ERR_USAGE), else 1 (a source that cannot be read, an
 * output that cannot be written). */
static inline int cmd_exit_status(const sm_err *err)
{
    return err->code == SM_ERR_USAGE ? SMTOP_EXIT_USAGE : SMTOP_EXIT_FAIL;
}

/* An argument that no option of a command took: "-x" or "--x" is an
 * unknown option, anything else ("-" included) the command's SOURCE,
 * stored in *spec unless one was given already. 0, or -1 with a usage
 * error (*spec unchanged). */
static inline int cmd_arg_source(const char *arg, const char **spec, sm_err *err)
{
    if (arg[0] == '-' && arg[1])
        return sm_err_set(err, SM_ERR_USAGE, "unknown option %s", arg);
    if (*spec)
        return sm_err_set(err, SM_ERR_USAGE, "more than one SOURCE given (%s)", arg);
    *spec = arg;
    return 0;
}

/* The dashboard's option list, for `smtop --help`. */
void cmd_dashboard_options(FILE *f);
int cmd_dashboard(int argc, char **argv); /* smtop [opts] SRC | --demo */
/* The dashboard opened from the job list, with smtop.conf's defaults and
 * so's profile, region and endpoint: Esc with nothing left to clear
 * returns (to the list) as q does; row (or NULL) is the job as the
 * SageMaker API described it: the header shows its status (kept current
 * while it runs), and a job without profiler output (row->profiler_url
 * "") shows CloudWatch's metrics, src only naming it. The exit status. */
struct jobrow;
struct source_opts;
int cmd_dashboard_row(const char *src, const struct source_opts *so, const struct jobrow *row);
int cmd_report(int argc, char **argv);    /* smtop report [--json] SRC */
int cmd_synth(int argc, char **argv);     /* smtop synth --out DIR ... */
int cmd_export(int argc, char **argv);    /* smtop export --perfetto OUT SRC */
int cmd_diff(int argc, char **argv);      /* smtop diff [--json] BASE SRC */
int cmd_complete(int argc, char **argv);  /* smtop --complete OPTION (hidden) */
int cmd_jobs(int argc, char **argv);      /* smtop jobs [--json] [SOURCE] */

#endif
