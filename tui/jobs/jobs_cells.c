/* jobs_cells: column layout and cell text of the job list; see jobs_cells.h. */
#include "tui/jobs/jobs_cells.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tui/text/fmt.h"
#include "tui/text/sanitize.h"

typedef struct col_def {
    const char *title;
    int width;
    int prio;      /* lower shows first when space is short */
    int right;     /* right-aligned */
} col_def;

static const col_def cols_def[JOBCOL_COUNT] = {
    [JOBCOL_NAME] = {"NAME", 16, 0, 0},
    [JOBCOL_STATUS] = {"STATUS", 14, 1, 0},   /* "trace 59 m ago" */
    [JOBCOL_TYPE] = {"TYPE", 17, 2, 0},
    [JOBCOL_AGE] = {"AGE", 5, 3, 1},
    [JOBCOL_TRAIN] = {"TRAIN", 9, 5, 1},
    [JOBCOL_GPU] = {"GPU%", 5, 4, 1},
    [JOBCOL_CPU] = {"CPU%", 5, 8, 1},
    [JOBCOL_MEM] = {"MEM%", 5, 9, 1},
    [JOBCOL_STEP] = {"STEP", 8, 10, 1},
    [JOBCOL_ALERTS] = {"ALRT", 5, 6, 1},
    [JOBCOL_IDLE] = {"IDLE-GPU-H", 10, 11, 1},
    [JOBCOL_INSTH] = {"INST-H", 7, 7, 1},
};

int jobs_cells_width(jobcol c)
{
    return c < JOBCOL_COUNT ? cols_def[c].width : 0;
}

size_t jobs_cells_layout(int cols, jobcol *out, int *name_w)
{
    int on[JOBCOL_COUNT] = {0};
    int used = cols_def[JOBCOL_NAME].width;
    on[JOBCOL_NAME] = 1;
    for (int p = 1; p < JOBCOL_COUNT; p++)
        for (int c = 1; c < JOBCOL_COUNT; c++)
            if (cols_def[c].prio == p && used + 1 + cols_def[c].width <= cols) {
                on[c] = 1;
                used += 1 + cols_def[c].width;
            }
    size_t n = 0;
    for (int c = 0; c < JOBCOL_COUNT; c++)
        if (on[c])
            out[n++] = (jobcol)c;
    *name_w = cols_def[JOBCOL_NAME].width + (cols > used ? cols - used : 0);
    if (*name_w > 64)
        *name_w = 64;   /* SageMaker names are 63 at most: the rest goes to gaps */
    return n;
}

void jobs_cells_title(jobcol c, int w, int sorted, int desc, int ascii, char *out,
                      size_t cap)
{
    const char *mark = !sorted ? "" : ascii ? (desc ? "v" : "^") : (desc ? "\u25bc" : "\u25b2");
    char t[64];
    snprintf(t, sizeof t, "%s%s", cols_def[c].title, mark);
    int pad = w - sanitize_cols(t);
    if (pad < 0)
        pad = 0;
    if (cols_def[c].right)
        snprintf(out, cap, "%*s%s", pad, "", t);
    else
        snprintf(out, cap, "%s%*s", t, pad, "");
}

static void status_text(const jobrow *r, char *buf, size_t cap)
{
    /* In progress: what it is doing (the colour says it runs). */
    if ((!strcmp(r->status, "InProgress") || !r->status[0]) && r->secondary[0])
        snprintf(buf, cap, "%s", r->secondary);
    else
        snprintf(buf, cap, "%s", r->status[0] ? r->status : "?");
}

static void type_text(const jobrow *r, char *buf, size_t cap)
{
    const char *t = r->instance_type;
    if (!strncmp(t, "ml.", 3))
        t += 3;
    if (!*t)
        t = "?";
    if (r->instance_count > 0)
        snprintf(buf, cap, "%s%s x%d", t, r->groups > 1 ? "+" : "", r->instance_count);
    else
        snprintf(buf, cap, "%s", t);
}

static void pct_text(double v, int raw, char *buf, size_t cap)
{
    if (isnan(v))
        snprintf(buf, cap, "-");
    else
        snprintf(buf, cap, "%.0f%s", v, raw ? "*" : "");
}

static void hours_text(double h, char *buf, size_t cap)
{
    if (isnan(h))
        snprintf(buf, cap, "-");
    else
        snprintf(buf, cap, h < 100 ? "%.1f" : "%.0f", h);
}

static void raw_text(const jobrow *r, jobcol c, double now, char *buf, size_t cap)
{
    switch (c) {
    case JOBCOL_NAME: snprintf(buf, cap, "%s", r->name); break;
    case JOBCOL_STATUS: status_text(r, buf, cap); break;
    case JOBCOL_TYPE: type_text(r, buf, cap); break;
    case JOBCOL_AGE:
        if (r->created_s > 0)
            fmt_ago(buf, cap, (int64_t)((now - r->created_s) * 1e6));
        else
            snprintf(buf, cap, "-");
        break;
    case JOBCOL_TRAIN: fmt_duration(buf, cap, jobrow_train_s(r, now) * 1e6); break;
    case JOBCOL_GPU: pct_text(r->gpu_pct, r->raw_metrics, buf, cap); break;
    case JOBCOL_CPU: pct_text(r->cpu_pct, r->raw_metrics, buf, cap); break;
    case JOBCOL_MEM: pct_text(r->mem_pct, 0, buf, cap); break;
    case JOBCOL_STEP: fmt_duration(buf, cap, r->step_p50_ms * 1e3); break;
    case JOBCOL_ALERTS:
        snprintf(buf, cap, "%s", "");
        if (r->alerts)
            snprintf(buf, cap, "%d", r->alerts);
        break;
    case JOBCOL_IDLE: hours_text(r->idle_gpu_h, buf, cap); break;
    default: hours_text(jobrow_instance_hours(r, now), buf, cap); break;
    }
}

void jobs_cells_text(const jobrow *r, jobcol c, int w, double now_s, char *out, size_t cap)
{
    char raw[512], fit[512];
    raw_text(r, c, now_s, raw, sizeof raw);
    sanitize_fit(raw, fit, sizeof fit, w);
    int pad = w - sanitize_cols(fit);
    if (pad < 0)
        pad = 0;
    if (cols_def[c].right)
        snprintf(out, cap, "%*s%s", pad, "", fit);
    else
        snprintf(out, cap, "%s%*s", fit, pad, "");
}
