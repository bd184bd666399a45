/* dash: the live dashboard — curses screen, panes, event loop. Entered
 * from cmd_dashboard once the job is open. */
#ifndef SMTOP_DASH_H
#define SMTOP_DASH_H

#include "model/util/sm_err.h"
#include "io/run/job.h"

struct report_rules_opts;
struct json_t;

typedef struct dash_opts {
    const char *theme;     /* NAME or PATH; NULL = "default" */
    int no_color;          /* --no-color (NO_COLOR is read too) */
    int glyphs;            /* chart_glyphs, or -1 to pick from the locale */
    int interval_ms;       /* scan interval */
    long frames;           /* > 0: headless, exit after this many frames */
    long bench_frames;     /* > 0: full redraws timed, summary on stderr */
    int sig_fd;            /* signalfd for SIGINT/SIGTERM/SIGHUP, or -1 */
    /* --rule / --no-rules-config for the alerts pane; NULL = defaults and
     * rules.conf. Checked by the caller; borrowed for the run. */
    const struct report_rules_opts *rules;
    /* Diff mode (--baseline): the baseline job's report object
     * (report_diff_load), read once; NULL = no Diff pane. Borrowed. */
    const struct json_t *baseline;
    /* smtop.conf's `layout`, `shown`, `hidden` (NULL: auto, none); with
     * save_config the dashboard writes them back on exit, with the theme
     * and symbols in use. */
    const char *layout, *shown, *hidden;
    int save_config;
    /* Opened from `smtop jobs`: Esc with nothing left to clear (no zoom,
     * filter or step focus) ends the dashboard, back to the list. */
    int esc_back;
} dash_opts;

/* dash_run's result when the loader thread was still in a scan pass
 * (a hanging request) when the dashboard ended: the thread goes on
 * using j, so the caller must not close j and should end the process. */
#define DASH_LOADER_BUSY 1

/* Runs the dashboard on j until the user quits, a signal arrives on
 * o->sig_fd, or o->frames frames were drawn. The terminal is restored on
 * every return path, before waiting (briefly) for the loader. 0,
 * DASH_LOADER_BUSY, or -1 with err (e.g. unknown terminal). */
int dash_run(job *j, const dash_opts *o, sm_err *err);

#endif
