/* pane_steps: see pane_steps.h. The drawing code and the vtable; the
 * arithmetic it lays out is pane_steps_calc.c. */
#include "tui/panes/pane_steps.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/text/fmt.h"
#include "tui/panes/pane_common.h"
#include "model/view/stepsview.h"
#include "tui/panes/panes_builtin.h"
#include "tui/text/step_focus.h"
#include "tui/theme/theme.h"
#include "model/steps/phase_window.h"
#include "model/steps/step_hist.h"

#define STEPS_MAX_STRIP 1024

struct pane {
    char phase[128];           /* label of the phase shown; "" = first */
    int64_t cursor_us;         /* start of the cursor's step; 0 = no cursor */
    char note[64];             /* answer to the last key ("no outlier yet") */
    phase_event recent[PHASE_RECENT_CAP];   /* retained events, filled per draw */
    size_t nrecent;
    int64_t dur[STEPS_MAX_STRIP];
    double frac[STEPS_MAX_STRIP];
    int outlier[STEPS_MAX_STRIP];
    /* the strip at the last draw, for clicks: rows [strip_y, +strip_rows),
     * column c holds events first + c * strip_spc onwards, m samples */
    int strip_y, strip_rows, strip_spc;
    size_t strip_first, strip_m;
    /* the steps of the selected window (+ - [ ]) at the last draw */
    uint32_t hist[PHASE_HIST_BUCKETS];
    size_t win_end;            /* retained events starting before the window's end */
    size_t win_start;          /* the first retained event in the window */
    int windowed;              /* the statistics are the window's (else the phase's) */
    int64_t wdur[PHASE_RECENT_CAP];   /* the histogram's durations */
    step_hist sh;              /* the histogram at the last draw */
    char range[48];            /* the border's note: "whole job", a range, ... */
};

static pane *steps_create(void) { return calloc(1, sizeof(pane)); }
static void steps_destroy(pane *p) { free(p); }

/* "Step:ModeKeys.TRAIN" → "TRAIN": the prefix is the same for every step mode. */
static const char *short_label(const char *label)
{
    static const char pfx[] = "Step:ModeKeys.";
    return strncmp(label, pfx, sizeof pfx - 1) == 0 ? label + sizeof pfx - 1 : label;
}

static void draw_stats(WINDOW *w, int y, int rows, const phase_summary *s,
                       const pane_ctx *ctx)
{
    char line[160], a[FMT_BUF], b[FMT_BUF], c[FMT_BUF], d[FMT_BUF];
    snprintf(line, sizeof line, "n %lld  mean %s  min %s  max %s",
             (long long)s->count, fmt_duration(a, sizeof a, s->mean_us),
             fmt_duration(b, sizeof b, (double)s->min_us),
             fmt_duration(c, sizeof c, (double)s->max_us));
    pane_common_put(w, y, 0, -1, line, theme_attr(ctx->th, ROLE_DEFAULT));
    if (rows < 2)
        return;
    static const theme_role roles[3] = {ROLE_MARK_P50, ROLE_MARK_P95, ROLE_MARK_P99};
    const double v[3] = {s->p50_us, s->p95_us, s->p99_us};
    int x = 0;
    for (int i = 0; i < 3; i++) {
        snprintf(line, sizeof line, "p%d %s%s", i == 0 ? 50 : i == 1 ? 95 : 99,
                 fmt_duration(d, sizeof d, v[i]), s->exact ? "" : "~");
        x += pane_common_put(w, y + 1, x, -1, line, theme_attr(ctx->th, roles[i])) + 2;
    }
}

/* Names of the percentiles that fall into row r: "p95 p99", or only the
 * first of them when cap is too small for all (a narrow pane). */
static void row_marks(const step_hist *h, size_t r, const phase_summary *s, char *out,
                      size_t cap, theme_role *role)
{
    const double v[3] = {s->p50_us, s->p95_us, s->p99_us};
    static const char *names[3] = {"p50", "p95", "p99"};
    static const theme_role roles[3] = {ROLE_MARK_P50, ROLE_MARK_P95, ROLE_MARK_P99};
    out[0] = '\0';
    for (int i = 0; i < 3; i++) {
        if (step_hist_row_of(h, v[i]) != r)
            continue;
        size_t len = strlen(out);
        if (len && len + 4 >= cap)
            break;
        snprintf(out + len, cap - len, "%s%s", len ? " " : "", names[i]);
        if (!len)
            *role = roles[i];
    }
}

static void draw_bar(WINDOW *w, int y, int x, int width, double cells,
                     chart_glyphs g, int attr)
{
    static const wchar_t eighths[] = L" ▏▎▍▌▋▊▉█";
    if (cells > 0 && cells < 1)   /* a row with steps never reads as empty */
        cells = g == GLYPHS_ASCII ? 1 : fmax(cells, 0.125);
    int full = (int)cells;
    for (int i = 0; i < full && i < width; i++)
        pane_common_put_wch(w, y, x + i, g == GLYPHS_ASCII ? L'#' : L'█', attr);
    int part = (int)((cells - full) * 8.0);
    if (full < width && part > 0 && g != GLYPHS_ASCII)
        pane_common_put_wch(w, y, x + full, eighths[part], attr);
}

/* A row's label: a bar's lower bound, to the bars' resolution; "<" and
 * ">" the bulk's bounds on the under and over rows. */
static const char *row_label(const step_hist *h, size_t r, char *buf, size_t cap)
{
    const step_hist_row *row = &h->row[r];
    char d[FMT_BUF];
    if (row->kind == STEP_HIST_BAR)
        return fmt_duration_step(buf, cap, row->lo_us, h->width_us);
    int over = row->kind == STEP_HIST_OVER;
    snprintf(buf, cap, "%s%s", over ? ">" : "<",
             fmt_duration(d, sizeof d, over ? row->lo_us : row->hi_us));
    return buf;
}

/* The far end of an under / over row, after its percentiles when there
 * is room: "min 1.20 ms", "p99 max 9.02 s". */
static void range_mark(const step_hist_row *row, char *out, size_t cap)
{
    char d[FMT_BUF], t[48];
    if (row->kind == STEP_HIST_BAR)
        return;
    int over = row->kind == STEP_HIST_OVER;
    snprintf(t, sizeof t, "%s%s %s", out[0] ? " " : "", over ? "max" : "min",
             fmt_duration(d, sizeof d, over ? row->hi_us : row->lo_us));
    size_t len = strlen(out);
    if (len + strlen(t) < cap)
        memcpy(out + len, t, strlen(t) + 1);
}

static void draw_hist(WINDOW *w, int y, const step_hist *h, const phase_summary *s,
                      double thr, const pane_ctx *ctx)
{
    int W = getmaxx(w);
    const int LW = 9, CW = 7, MW = W >= 70 ? 18 : W >= 50 ? 12 : 4;
    char marks[24];
    int barw = W - LW - CW - MW;
    uint64_t maxc = 1;
    for (size_t r = 0; r < h->nrows; r++)
        if (h->row[r].count > maxc)
            maxc = h->row[r].count;
    for (size_t r = 0; r < h->nrows; r++) {
        const step_hist_row *row = &h->row[r];
        int yy = y + (int)r;
        char lab[FMT_BUF], cnt[24];
        pane_common_put(w, yy, 0, LW - 1, row_label(h, r, lab, sizeof lab),
                        theme_attr(ctx->th, ROLE_LABEL));
        int outl = row->kind == STEP_HIST_OVER ? row->hi_us > thr : row->lo_us >= thr;
        theme_role bar_role = outl ? ROLE_STEP_OUTLIER : ROLE_STEP_BAR;
        if (barw > 0)
            draw_bar(w, yy, LW, barw, (double)row->count * barw / (double)maxc,
                     ctx->view->glyphs, theme_attr(ctx->th, bar_role));
        snprintf(cnt, sizeof cnt, "%llu", (unsigned long long)row->count);
        pane_common_put_right(w, yy, LW + (barw > 0 ? barw : 0) + CW - 1, CW, cnt,
                              theme_attr(ctx->th, ROLE_DIM));
        theme_role mr = ROLE_LABEL;
        row_marks(h, r, s, marks, (size_t)MW, &mr);
        int attr = marks[0] ? theme_attr(ctx->th, mr) | (int)A_BOLD : theme_attr(ctx->th, ROLE_DIM);
        range_mark(row, marks, (size_t)MW);
        if (marks[0])
            pane_common_put(w, yy, W - MW + 1, MW - 1, marks, attr);
    }
}

/* Where the cursor's step falls in the distribution: a '>' before its
 * histogram row, so picking a step on the strip also reads as picking it
 * in the histogram. */
static void mark_cursor_row(WINDOW *w, int y, const pane *p, const pane_ctx *ctx)
{
    size_t at = pane_steps_cursor_find(p->recent, p->nrecent, p->cursor_us);
    if (at >= p->nrecent)
        return;
    size_t r = step_hist_row_of(&p->sh, (double)p->recent[at].dur_us);
    if (r < p->sh.nrows)
        pane_common_put(w, y + (int)r, 8, 1, ">", theme_attr(ctx->th, ROLE_SELECTED) | (int)A_BOLD);
}

/* 1 when ev is the step the view is focused on (the cross-filter). */
static int is_focused(const phase_event *ev, const view_state *v)
{
    return v->step_focus && ev->start_us >= v->step_t0_us && ev->start_us < v->step_t1_us &&
           (v->step < 0 || ev->step == v->step);
}

/* The strip's column roles: outlier, the cursor's column (reversed), the
 * focused step's column (the header badge's colour, so the two read as
 * one; underlined so it still shows under NO_COLOR). */
static int strip_attr(const pane *p, size_t first, size_t c, int spc, size_t m,
                      size_t cursor, const pane_ctx *ctx)
{
    int out = 0, cur = 0, foc = 0;
    for (int k = 0; k < spc && c * (size_t)spc + (size_t)k < m; k++) {
        size_t i = c * (size_t)spc + (size_t)k;
        out |= p->outlier[i];
        cur |= first + i == cursor;
        foc |= is_focused(&p->recent[first + i], ctx->view);
    }
    if (cur)
        return theme_attr(ctx->th, ROLE_SELECTED) | (int)A_REVERSE;
    if (foc)
        return theme_attr(ctx->th, ROLE_STATUS_PAUSED) | (int)(A_BOLD | A_UNDERLINE);
    return theme_attr(ctx->th, out ? ROLE_STEP_OUTLIER : ROLE_STEP_BAR);
}

static void draw_strip(WINDOW *w, int y, int rows, pane *p, double thr,
                       const pane_ctx *ctx)
{
    chart_glyphs g = ctx->view->glyphs;
    int spc = chart_samples_per_col(g), lpr = chart_levels_per_row(g);
    int W = getmaxx(w), cols = W - 10;
    if (cols < 1)
        cols = W;
    size_t want = (size_t)cols * (size_t)spc;
    if (want > STEPS_MAX_STRIP)
        want = STEPS_MAX_STRIP;
    size_t n = p->nrecent;
    size_t cursor = pane_steps_cursor_find(p->recent, n, p->cursor_us);
    /* Without a cursor the strip ends at the window's last step. */
    size_t end = cursor < n ? pane_steps_strip_end(n, want, cursor) : p->win_end;
    size_t shown = end < want ? end : want, from = end - shown;
    for (size_t i = 0; i < shown; i++)
        p->dur[i] = p->recent[from + i].dur_us;
    size_t m = pane_steps_strip(p->dur, shown, want / (size_t)spc, spc, thr, p->frac, p->outlier);
    size_t first = end - m;   /* event index of strip sample 0 */
    p->strip_y = y;
    p->strip_rows = rows;
    p->strip_spc = spc;
    p->strip_first = first;
    p->strip_m = m;
    for (size_t c = 0; c * (size_t)spc < m; c++) {
        double h[2] = {0, 0};
        int k = 0;
        for (; k < spc && c * (size_t)spc + (size_t)k < m; k++)
            h[k] = p->frac[c * (size_t)spc + (size_t)k] * rows * lpr;
        int attr = strip_attr(p, first, c, spc, m, cursor, ctx);
        for (int r = 0; r < rows; r++)
            pane_common_put_wch(w, y + rows - 1 - r, (int)c, chart_cell(g, h, k, r, lpr), attr);
    }
    if (m > 0 && W - cols >= 9) {
        /* The cursor's duration while there is one, else the newest. */
        size_t at = cursor < n ? cursor : end - 1;
        char last[FMT_BUF];
        fmt_duration(last, sizeof last, (double)p->recent[at].dur_us);
        int role = cursor < n ? ROLE_SELECTED
                 : (double)p->recent[at].dur_us > thr ? ROLE_STEP_OUTLIER : ROLE_DIM;
        pane_common_put_right(w, y + rows - 1, W - 1, W - cols - 1, last, theme_attr(ctx->th, (theme_role)role));
    }
}

static void draw_message(WINDOW *w, const char *msg, const pane_ctx *ctx)
{
    int h = getmaxy(w), W = getmaxx(w), len = (int)strlen(msg);
    int x = len < W ? (W - len) / 2 : 0;
    pane_common_put(w, h / 2, x, -1, msg, theme_attr(ctx->th, ROLE_DIM));
}

/* After the pane's title: the cursor's step and what f does, the focused
 * step, or the answer to the last key. */
static void draw_cursor_info(WINDOW *w, int x, const pane *p, const pane_ctx *ctx)
{
    char line[160];
    int role = ROLE_LABEL;
    if (p->note[0]) {
        snprintf(line, sizeof line, "  %s", p->note);
        role = ROLE_DIM;
    } else if (p->cursor_us) {
        size_t i = pane_steps_cursor_find(p->recent, p->nrecent, p->cursor_us);
        const phase_event *ev = i < p->nrecent ? &p->recent[i] : NULL;
        int focused = ev && is_focused(ev, ctx->view);
        if (ev && ev->step >= 0)
            snprintf(line, sizeof line, "  step %lld %s", (long long)ev->step,
                     focused ? "focused (Esc)" : "(f: focus)");
        else
            snprintf(line, sizeof line, "  %s", focused ? "focused (Esc)" : "(f: focus)");
        role = focused ? ROLE_STATUS_PAUSED : ROLE_SELECTED;
    } else if (ctx->view->step_focus) {
        snprintf(line, sizeof line, "  step %lld focused (Esc)", ctx->view->step);
        role = ROLE_STATUS_PAUSED;
    } else {
        snprintf(line, sizeof line, "  ,/. o f");
        role = ROLE_DIM;
    }
    pane_common_put(w, 0, x, -1, line, theme_attr(ctx->th, (theme_role)role));
}

/* For keys and clicks: the phase the snapshot shows (the loader's
 * stepsview for the view on screen), NULL when none; no model. */
static const stepsview *steps_shown(const pane_ctx *ctx)
{
    const stepsview *sv = ctx->vd ? viewdata_answer(ctx->vd, &stepsview_query) : NULL;
    return sv && !sv->why && sv->nphases ? sv : NULL;
}

/* The border's note for a window's statistics. */
static void note_range(pane *p, phase_window_scope sc, const phase_summary *s,
                       const pane_ctx *ctx)
{
    char a[16], b[16];
    int64_t span = ctx->t1_us - ctx->t0_us;
    if (sc == PHASE_WINDOW_WHOLE)
        snprintf(p->range, sizeof p->range, "whole job");
    else if (sc == PHASE_WINDOW_ALL)
        snprintf(p->range, sizeof p->range, "%s-%s", fmt_clock(a, sizeof a, ctx->t0_us, span),
                 fmt_clock(b, sizeof b, ctx->t1_us, span));
    else if (p->win_end == p->nrecent)
        snprintf(p->range, sizeof p->range, "last %lld steps", (long long)s->count);
    else
        snprintf(p->range, sizeof p->range, "%lld steps to %s", (long long)s->count,
                 fmt_clock(b, sizeof b, ctx->t1_us, span));
}

/* Retained events starting at or before t. */
static size_t recent_upto(const pane *p, int64_t t)
{
    return pane_steps_count_upto(p->recent, p->nrecent, t);
}

/* The statistics to show: the phase's own (the whole job), or those of
 * its retained steps inside the selected window, with its histogram in
 * *counts. A step focus keeps the whole job: one step has no spread. */
static void window_stats(pane *p, const stepsview *sv, const pane_ctx *ctx,
                         phase_summary *s, const uint32_t **counts)
{
    *s = sv->sum;
    *counts = sv->hist;
    p->win_end = p->nrecent;
    p->win_start = 0;
    p->windowed = 0;
    phase_window_scope sc = ctx->view->step_focus ? PHASE_WINDOW_WHOLE
        : phase_window_scope_of(s, p->recent, p->nrecent, ctx->t0_us, ctx->t1_us);
    phase_summary ws;
    if (sc != PHASE_WINDOW_WHOLE &&
        phase_window_summary(p->recent, p->nrecent, ctx->t0_us, ctx->t1_us, &ws, p->hist) == 0) {
        *s = ws;
        *counts = p->hist;
        p->win_end = recent_upto(p, ctx->t1_us - 1);
        p->win_start = recent_upto(p, ctx->t0_us - 1);
        p->windowed = 1;
    } else
        sc = PHASE_WINDOW_WHOLE;
    note_range(p, sc, s, ctx);
}

/* The histogram's rows: the window's steps (their bounds sorted here),
 * the phase's every step when all are retained (bounds from the loader),
 * else the phase's quantile table. */
static void build_hist(pane *p, const stepsview *sv, size_t rows)
{
    size_t a = p->windowed ? p->win_start : 0, b = p->windowed ? p->win_end : p->nrecent;
    if (!p->windowed && !sv->hb.exact) {
        step_hist_build_table(&sv->qt, (uint64_t)sv->sum.count, &sv->hb, rows, &p->sh);
        return;
    }
    for (size_t i = a; i < b; i++)
        p->wdur[i - a] = p->recent[i].dur_us;
    step_hist_bounds hb = sv->hb;
    if (p->windowed && step_hist_bounds_of(p->wdur, b - a, &hb) != 0)
        b = a;   /* no step, or OOM: no rows */
    step_hist_build(p->wdur, b - a, &hb, rows, &p->sh);
}

/* Draws from the loader's copy of the phase (model/view/stepsview.h): no
 * model lock. */
static void steps_draw(pane *p, WINDOW *w, const pane_ctx *ctx)
{
    werase(w);
    snprintf(p->range, sizeof p->range, "whole job");
    const stepsview *sv = ctx->vd ? viewdata_answer(ctx->vd, &stepsview_query) : NULL;
    if (!sv || sv->why) {
        draw_message(w, sv ? sv->why : "waiting for data", ctx);
        return;
    }
    p->nrecent = sv->nrecent < PHASE_RECENT_CAP ? sv->nrecent : PHASE_RECENT_CAP;
    memcpy(p->recent, sv->recent + (sv->nrecent - p->nrecent), p->nrecent * sizeof *p->recent);
    phase_summary s;
    const uint32_t *counts;
    window_stats(p, sv, ctx, &s, &counts);
    steps_layout l = pane_steps_layout_for(getmaxy(w));
    char head[400], who[256];
    snprintf(head, sizeof head, "%s  %s  (%zu/%zu, n/N)",
             pane_common_process_text(who, sizeof who, ctx->vd, sv->node, sv->shown, sv->proc_k,
                                      sv->nprocs),
             short_label(sv->label), sv->idx + 1, sv->nphases);
    int x = pane_common_put(w, 0, 0, -1, head, theme_attr(ctx->th, ROLE_TITLE));
    draw_cursor_info(w, x, p, ctx);
    if (s.count == 0)
        pane_common_put(w, 1, 0, -1, "no steps in this window ([ ] move it, 0 live)",
                        theme_attr(ctx->th, ROLE_DIM));
    else if (l.stats_rows)
        draw_stats(w, 1, l.stats_rows, &s, ctx);
    double thr = pane_steps_outlier_threshold(&s);
    if (l.hist_rows > 0) {
        build_hist(p, sv, (size_t)l.hist_rows);
        draw_hist(w, 1 + l.stats_rows, &p->sh, &s, thr, ctx);
        mark_cursor_row(w, 1 + l.stats_rows, p, ctx);
    }
    if (l.strip_rows > 0)
        draw_strip(w, getmaxy(w) - l.strip_rows, l.strip_rows, p, thr, ctx);
}

/* n/N: the next/previous phase of the shown source (a new phase starts
 * without a cursor). From p->phase, so a second n before the loader
 * answered the first still moves on. */
static int cycle_phase(pane *p, int dir, const stepsview *sv)
{
    size_t n = sv->nphases, idx = 0;
    for (size_t i = 0; p->phase[0] && i < n; i++)
        if (strcmp(sv->phases[i], p->phase) == 0)
            idx = i;
    idx = (idx + n + (size_t)(dir > 0 ? 1 : n - 1)) % n;
    snprintf(p->phase, sizeof p->phase, "%s", sv->phases[idx]);
    p->cursor_us = 0;
    p->note[0] = '\0';
    return 1;
}

/* f: focuses every pane on the cursor's step (the newest without a
 * cursor), or leaves the focus when it is that step already. src: the
 * node or writer the steps came from. */
static void focus_cursor(pane *p, const char *src, size_t i, pane_ctx *ctx)
{
    const phase_event *ev = &p->recent[i];
    p->cursor_us = ev->start_us;
    if (is_focused(ev, ctx->view)) {
        view_clear_step(ctx->view);
        return;
    }
    /* The step's own window on the node it came from: ranks are not in
     * step, so step N's union over every node is not one step long. */
    view_focus_step(ctx->view, ev->step, ev->start_us, ev->start_us + ev->dur_us);
    view_focus_node(ctx->view, src);
}

/* o/O: the cursor to the previous/next outlier step. */
static void jump_outlier(pane *p, const phase_summary *s, size_t cur, int dir)
{
    double thr = pane_steps_outlier_threshold(s);
    size_t i = pane_steps_next_outlier(p->recent, p->nrecent, cur, thr, dir);
    if (i < p->nrecent)
        p->cursor_us = p->recent[i].start_us;
    else if (s->count < 10)
        snprintf(p->note, sizeof p->note, "outliers need 10 steps");
    else
        snprintf(p->note, sizeof p->note, "no outlier among the last %zu", p->nrecent);
}

/* r/R: another writer of the node the pane shows. */
static int pick_writer(pane *p, int ch, pane_ctx *ctx)
{
    const char *why = "";
    long nd = pane_common_traced_node(ctx, &why);
    if (!pane_common_key_process(ch, ctx, nd))
        return 0;
    p->cursor_us = 0;   /* another writer's steps: a new cursor */
    p->note[0] = '\0';
    if (viewdata_node_writer_count(ctx->vd, (size_t)nd) < 2)
        snprintf(p->note, sizeof p->note, "one writer on %.28s: nothing to pick",
                 viewdata_node_id(ctx->vd, (size_t)nd));
    return 1;
}

/* Keys read the snapshot on screen (the stepsview and the node facts of
 * ctx->vd), never the model: no lock, whatever the loader is doing. */
static int steps_on_key(pane *p, int ch, pane_ctx *ctx)
{
    /* n/N, not h/l or the arrows: those move between panes everywhere. */
    int dir = ch == 'n' ? 1 : ch == 'N' ? -1 : 0;
    const stepsview *sv = steps_shown(ctx);
    if (!sv)
        return 0;   /* nothing to cycle or select */
    if (dir != 0)
        return cycle_phase(p, dir, sv);
    if (pick_writer(p, ch, ctx))
        return 1;
    /* strchr would truncate KEY_* codes above 255 to a char. */
    if (ch <= 0 || ch >= 128 || !strchr(",<.>oOf", ch))
        return 0;
    p->note[0] = '\0';
    p->nrecent = sv->nrecent < PHASE_RECENT_CAP ? sv->nrecent : PHASE_RECENT_CAP;
    memcpy(p->recent, sv->recent + (sv->nrecent - p->nrecent), p->nrecent * sizeof *p->recent);
    size_t n = p->nrecent, cur = pane_steps_cursor_find(p->recent, n, p->cursor_us);
    if (n == 0)
        return 1;
    switch (ch) {
    case ',': case '<':
        p->cursor_us = p->recent[cur < n ? (cur ? cur - 1 : 0) : n - 1].start_us;
        break;
    case '.': case '>':
        /* Past the newest step the cursor goes: the strip follows new steps. */
        p->cursor_us = cur + 1 < n ? p->recent[cur + 1].start_us : 0;
        break;
    case 'o': case 'O':
        jump_outlier(p, &sv->sum, cur, ch == 'o' ? -1 : 1);
        break;
    case 'f':
        focus_cursor(p, sv->shown[0] ? sv->shown : sv->node, cur < n ? cur : n - 1, ctx);
        break;
    }
    return 1;
}

/* A click on the strip puts the cursor on the step under the pointer
 * (the first of its column); `f` then focuses it. */
static int steps_on_click(pane *p, int y, int x, pane_ctx *ctx)
{
    (void)ctx;
    size_t i = (size_t)x * (size_t)(p->strip_spc > 0 ? p->strip_spc : 1);
    if (y < p->strip_y || y >= p->strip_y + p->strip_rows || x < 0 || i >= p->strip_m ||
        p->strip_first + i >= p->nrecent)
        return 0;
    p->cursor_us = p->recent[p->strip_first + i].start_us;
    p->note[0] = '\0';
    return 1;
}

static uint64_t steps_stamp(pane *p, const pane_ctx *ctx)
{
    uint64_t h = pane_common_hash_str(PANE_COMMON_HASH_SEED, p->phase);
    h = pane_common_hash_str(h, p->note);
    h = pane_common_hash_u64(h, (uint64_t)p->cursor_us);
    h = pane_common_hash_u64(h, ctx->view->step_focus ? (uint64_t)ctx->view->step_t0_us : 0);
    h = pane_common_hash_u64(h, (uint64_t)ctx->t0_us);
    h = pane_common_hash_u64(h, (uint64_t)ctx->t1_us);
    h = pane_common_hash_u64(h, ctx->view->selected_node);
    h = pane_common_hash_u64(h, (uint64_t)ctx->view->glyphs);
    h = pane_common_hash_str(h, ctx->view->filter);
    h = pane_common_hash_str(h, ctx->view->process);
    return pane_common_hash_viewdata(h, ctx);
}

static void steps_request(pane *p, WINDOW *w, const view_state *v, viewdata_req *q)
{
    (void)w, (void)v;
    stepsview_params sp;
    memset(&sp, 0, sizeof sp);   /* compared bytewise */
    snprintf(sp.phase, sizeof sp.phase, "%s", p->phase);
    viewdata_ask_for(q, &stepsview_query, &sp, sizeof sp);
}

static const char *steps_title_note(pane *p, const pane_ctx *ctx)
{
    (void)ctx;
    return p->range;
}

static const char *steps_absent(pane *p, const pane_ctx *ctx)
{
    (void)p;
    return pane_common_absent_traces(ctx);
}

/* The header and the statistics; the overflow row when steps lie past
 * the outlier threshold; on a node of several ranks, a line per
 * rank (capped at STEPS_SAY_RANKS): each has steps of its own that `r`
 * shows, and the header naming them ("all 8 ranks (r)") is what a narrow
 * slot cuts first. A node of one rank says 2 or 3, less than a Heatmap of
 * a single node, so Steps takes the wide slot only from a Heatmap of few
 * nodes in a job of several ranks a node. 0 without steps. */
#define STEPS_SAY_RANKS 8

static int steps_say(pane *p, const pane_ctx *ctx)
{
    (void)p;
    const stepsview *sv = steps_shown(ctx);
    if (!sv || sv->sum.count == 0)
        return 0;
    int n = 2 + ((double)sv->sum.max_us > pane_steps_outlier_threshold(&sv->sum));
    if (sv->nprocs > 1)
        n += (int)(sv->nprocs < STEPS_SAY_RANKS ? sv->nprocs : STEPS_SAY_RANKS);
    return n;
}

static const pane_key steps_keys[] = {
    {"n N", "phase", "next / previous phase"},
    {", .  < >", "step", "step cursor older/newer"},
    {"o O", "outlier", "previous / next outlier"},
    {"f", "focus", "focus step in all panes"},
    {"r R", "rank", "pick a rank (writer)"},
    {NULL, NULL, NULL},
};

const pane_vtbl pane_steps_vtbl = {
    .id = "steps",
    .title = "Steps",
    .create = steps_create,
    .destroy = steps_destroy,
    .draw = steps_draw,
    .on_key = steps_on_key,
    .on_click = steps_on_click,
    .stamp = steps_stamp,
    .keys = steps_keys,
    .title_note = steps_title_note,
    .absent = steps_absent,
    .request = steps_request,
    .say = steps_say,
};
