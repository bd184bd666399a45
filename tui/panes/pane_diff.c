/* pane_diff: see pane_diff.h. */
#include "tui/panes/pane_diff.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/panes/chart.h"
#include "tui/panes/pane_ext.h"
#include "tui/panes/pane_common.h"
#include "tui/report/report_diff.h"

/* Columns a row needs besides its label: both values, arrow and change
 * mark; below DIFF_WIDE_W (the 80x24 grid) only the current value and the
 * mark, so the change stays visible without zooming. */
#define DIFF_VALUES_W 40
#define DIFF_NARROW_VALUES_W 22
#define DIFF_WIDE_W 64
/* Kernel names are long C++ signatures: they take what the pane has, up
 * to this many columns. */
#define DIFF_NAME_MAX 120

struct pane {
    size_t top;        /* first line shown */
    size_t lines;      /* lines in the last draw, for scrolling bounds */
};

/* Where draw_line puts the next line: lines before `top` are counted only. */
typedef struct cursor {
    WINDOW *w;
    size_t idx, top;
    int rows;
    int label_w;       /* label column: what the values leave of the width */
    int name_w;        /* the kernel names' column: as wide as the pane allows */
    int narrow;        /* no baseline value column */
} cursor;

static void draw_line(cursor *c, const char *text, int attr)
{
    if (c->idx >= c->top && (int)(c->idx - c->top) < c->rows)
        pane_common_put(c->w, (int)(c->idx - c->top), 0, -1, text, attr);
    c->idx++;
}

/* "Step:ModeKeys.TRAIN" → "TRAIN": the pane is narrow. */
static const char *short_phase(const char *ph)
{
    const char *dot = ph ? strrchr(ph, '.') : NULL;
    return dot && !strncmp(ph, "Step:", 5) ? dot + 1 : ph ? ph : "";
}

/* The row's label: node and phase/category/metric (+ p50..), or function. */
static void row_label(const json_t *r, char *out, size_t cap)
{
    const char *node = json_string_value(json_object_get(r, "node"));
    const char *fn = json_string_value(json_object_get(r, "function"));
    const char *stat = json_string_value(json_object_get(r, "stat"));
    const char *what = json_string_value(json_object_get(r, "category"));
    if (!what)
        what = json_string_value(json_object_get(r, "metric"));
    if (!what)
        what = short_phase(json_string_value(json_object_get(r, "phase")));
    const char *proc = json_string_value(json_object_get(r, "process"));
    if (fn)
        snprintf(out, cap, "%s", fn);
    else if (proc)   /* a PyTorch profiler rank: its process names it ("rank 0") */
        snprintf(out, cap, "%s %s", proc, what);
    else
        snprintf(out, cap, "%s %s%s%.*s", node ? node : "?", what, stat ? " " : "",
                 stat ? (int)strcspn(stat, "_") : 0, stat ? stat : "");
}

/* Slower or bigger is worse for times; utilization changes are neutral. */
static int mark_attr(const pane_ctx *ctx, int dir, int is_time)
{
    if (dir == 0)
        return theme_attr(ctx->th, ROLE_DIM);
    if (!is_time)
        return theme_attr(ctx->th, ROLE_LABEL);
    return theme_attr(ctx->th, dir > 0 ? ROLE_ALERT_MED : ROLE_OK);
}

static void draw_section(cursor *c, const json_t *d, const char *key, const char *title,
                         int is_us, int is_time, const pane_ctx *ctx)
{
    const json_t *arr = json_object_get(d, key);
    if (!json_array_size(arr))
        return;
    draw_line(c, title, theme_attr(ctx->th, ROLE_TITLE));
    int utf8 = ctx->view->glyphs != GLYPHS_ASCII;
    size_t i;
    const json_t *r;
    json_array_foreach(arr, i, r) {
        const char *stat = json_string_value(json_object_get(r, "stat"));
        if (stat && !strcmp(stat, "mean_us"))
            continue;   /* the pane shows the percentiles; `smtop diff` has the mean */
        char label[128], vb[32], vt[32], mark[48], line[320];
        row_label(r, label, sizeof label);
        if ((int)strlen(label) > c->label_w)   /* cut, marked as pane_common_put marks */
            label[c->label_w - 1] = '~', label[c->label_w] = '\0';
        double nb, nt;
        report_diff_row_values(r, &nb, &nt);
        report_diff_format_value(vb, sizeof vb, nb, is_us);
        report_diff_format_value(vt, sizeof vt, nt, is_us);
        int dir = report_diff_mark(r, mark, sizeof mark, utf8);
        if (c->narrow)
            snprintf(line, sizeof line, " %-*s %9s %s", c->label_w, label, vt, mark);
        else
            snprintf(line, sizeof line, " %-*s %10s %s %-10s %s", c->label_w, label, vb,
                     utf8 ? "\u2192" : "->", vt, mark);
        draw_line(c, line, mark_attr(ctx, dir, is_time));
    }
}

/* One kernel row of `smtop diff`'s kernels[] (gpu_diff.h): its name, the
 * mean per launch on each side, and the change ("+50.0 % ▲", "added"). */
static void draw_kernel(cursor *c, const json_t *r, const char *kind, const pane_ctx *ctx)
{
    char label[DIFF_NAME_MAX + 1], vb[32] = "-", vt[32] = "-", mark[48], line[400];
    const char *name = json_string_value(json_object_get(r, "name"));
    snprintf(label, sizeof label, "%s", name ? name : "?");
    if ((int)strlen(label) > c->name_w)
        label[c->name_w - 1] = '~', label[c->name_w] = '\0';
    const json_t *mb = json_object_get(r, "base_mean_us"), *mt = json_object_get(r, "target_mean_us");
    const json_t *ch = json_object_get(r, "change_pct");
    if (json_is_number(mb))
        snprintf(vb, sizeof vb, "%.1f us", json_number_value(mb));
    if (json_is_number(mt))
        snprintf(vt, sizeof vt, "%.1f us", json_number_value(mt));
    int utf8 = ctx->view->glyphs != GLYPHS_ASCII, dir = 0;
    if (json_is_number(ch)) {
        double pc = json_number_value(ch);
        dir = pc > 0 ? 1 : -1;
        snprintf(mark, sizeof mark, "%+.1f %% %s", pc,
                 utf8 ? (pc > 0 ? "\u25b2" : "\u25bc") : (pc > 0 ? "+" : "-"));
    } else {
        snprintf(mark, sizeof mark, "%s", kind);
    }
    if (c->narrow)
        snprintf(line, sizeof line, " %-*s %9s %s", c->name_w, label, vt, mark);
    else
        snprintf(line, sizeof line, " %-*s %10s %s %-10s %s", c->name_w, label, vb,
                 utf8 ? "\u2192" : "->", vt, mark);
    draw_line(c, line, dir ? mark_attr(ctx, dir, 1) : theme_attr(ctx->th, ROLE_LABEL));
}

/* The kernels added, removed, slower and faster (HTA's TraceDiff
 * categories), each under its heading, largest change first, as `smtop
 * diff` prints them; every row (up to the diff's own cap), as the pane
 * scrolls. */
static void draw_kernels(cursor *c, const json_t *d, const pane_ctx *ctx)
{
    static const char *const kinds[][2] = {{"added", "added (only now)"},
                                           {"removed", "removed (only in the baseline)"},
                                           {"slower", "slower"},
                                           {"faster", "faster"}};
    const json_t *arr = json_object_get(d, "kernels");
    if (!json_array_size(arr))
        return;
    draw_line(c, "GPU kernels, mean per launch (baseline -> now)", theme_attr(ctx->th, ROLE_TITLE));
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        size_t i, n = 0;
        const json_t *r;
        json_array_foreach(arr, i, r) {
            const char *kind = json_string_value(json_object_get(r, "kind"));
            if (!kind || strcmp(kind, kinds[k][0]))
                continue;
            if (!n++) {
                char head[64];
                snprintf(head, sizeof head, " %s:", kinds[k][1]);
                draw_line(c, head, theme_attr(ctx->th, ROLE_LABEL));
            }
            draw_kernel(c, r, kinds[k][0], ctx);
        }
    }
}

static void diff_draw(pane *p, WINDOW *w, const pane_ctx *ctx)
{
    const dash_ext *ext = ctx->ext;
    const json_t *d = ext ? ext->diff : NULL;
    werase(w);
    if (!d) {
        pane_common_put(w, 0, 0, -1, "reading the current job to compare with the baseline...",
                        theme_attr(ctx->th, ROLE_DIM));
        return;
    }
    int narrow = getmaxx(w) < DIFF_WIDE_W;
    int lw = getmaxx(w) - (narrow ? DIFF_NARROW_VALUES_W : DIFF_VALUES_W);
    cursor c = {.w = w, .top = p->top, .rows = getmaxy(w), .narrow = narrow,
                .label_w = lw < 12 ? 12 : lw > 40 ? 40 : lw,
                .name_w = lw < 12 ? 12 : lw > DIFF_NAME_MAX ? DIFF_NAME_MAX : lw};
    const char *base = json_string_value(json_object_get(d, "base"));
    long long ch = (long long)json_integer_value(json_object_get(d, "changed"));
    char head[600];
    snprintf(head, sizeof head, "%lld changed vs baseline %s", ch, base ? base : "?");
    draw_line(&c, head, theme_attr(ctx->th, ROLE_LABEL));
    draw_section(&c, d, "steps", "Step time (baseline -> now)", 1, 1, ctx);
    draw_section(&c, d, "breakdown", "Per TRAIN step by category", 1, 1, ctx);
    draw_section(&c, d, "utilization", "Mean utilization, %", 0, 0, ctx);
    draw_section(&c, d, "python", "Top Python functions, tottime s", 0, 1, ctx);
    draw_section(&c, d, "gpu", "GPU time by rank, % of the profiled span", 0, 0, ctx);
    draw_kernels(&c, d, ctx);
    if (c.idx == 1)
        draw_line(&c, "no node or phase in common with the baseline yet",
                  theme_attr(ctx->th, ROLE_DIM));
    p->lines = c.idx;
}

static int diff_on_key(pane *p, int ch, pane_ctx *ctx)
{
    (void)ctx;
    if (ch == KEY_DOWN || ch == 'j') {
        p->top += p->top + 1 < p->lines;
        return 1;
    }
    if (ch == KEY_UP || ch == 'k') {
        p->top -= p->top > 0;
        return 1;
    }
    /* Home, not g: g is the graph-symbols key everywhere. */
    if (ch == KEY_HOME) {
        p->top = 0;
        return 1;
    }
    return 0;
}

static uint64_t diff_stamp(pane *p, const pane_ctx *ctx)
{
    const dash_ext *ext = ctx->ext;
    uint64_t h = pane_common_hash_u64(PANE_COMMON_HASH_SEED, ext ? ext->diff_gen : 0);
    h = pane_common_hash_u64(h, ext && ext->diff ? 1 : 0);
    h = pane_common_hash_u64(h, p->top);
    h = pane_common_hash_u64(h, (uint64_t)ctx->view->zoomed);
    return pane_common_hash_u64(h, (uint64_t)ctx->view->glyphs);
}

static pane *diff_create(void)
{
    return calloc(1, sizeof(pane));
}

static void diff_destroy(pane *p)
{
    free(p);
}

/* A click scrolls the clicked line to the top. */
static int diff_on_click(pane *p, int y, int x, pane_ctx *ctx)
{
    (void)x;
    (void)ctx;
    if (y > 0 && p->top + (size_t)y < p->lines)
        p->top += (size_t)y;
    return 1;
}

static const pane_key diff_keys[] = {
    {"j k  Dn Up", "scroll", "scroll"},
    {"Home", "top", "back to the top"},
    {NULL, NULL, NULL},
};

const pane_vtbl pane_diff_vtbl = {
    .id = "diff",
    .title = "Diff",
    .create = diff_create,
    .destroy = diff_destroy,
    .draw = diff_draw,
    .on_key = diff_on_key,
    .on_click = diff_on_click,
    .stamp = diff_stamp,
    .keys = diff_keys,
};
