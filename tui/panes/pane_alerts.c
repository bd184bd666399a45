/* pane_alerts: see pane_alerts.h. Pure helpers first, then drawing and
 * the vtable. */
#include "tui/panes/pane_alerts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/view/freshness.h"
#include "tui/panes/pane_ext.h"
#include "tui/text/fmt.h"
#include "tui/panes/pane_common.h"
#include "tui/report/report_rules.h"

/* Narrower than this, the message would start past the column where a
 * reader can see it: rows lead with the key facts instead. */
#define ALERTS_WIDE_MIN 100

struct pane {
    rules *r;              /* the parameters: checks `:set`, seeds the loader's */
    size_t sel;            /* position in display order */
    size_t top;
    int head;              /* lines above the rows: totals, column headers */
    size_t hoff;           /* Left/Right: columns of the messages scrolled off */
    int overflow;          /* columns the longest message shown runs past the pane */
    int msg_cols;          /* the fewest columns a cut message has on screen */
    size_t line_pos[128];  /* the rule position each line shows (SIZE_MAX: none) */
    char note[600];        /* config problem or last command result */
};

static int rank(const rule_result *res)
{
    if (res->status == RULE_TRIGGERED)
        return 10 + (int)res->severity;
    return res->status == RULE_OK ? 1 : 0;
}

void pane_alerts_order(const viewsnap *s, size_t *idx)
{
    size_t n = rules_count();
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    /* insertion sort: eleven rules, and stable by table order */
    for (size_t i = 1; i < n; i++) {
        size_t v = idx[i], j = i;
        const rule_result *a = viewsnap_rule_at(s, v);
        while (j > 0) {
            const rule_result *b = viewsnap_rule_at(s, idx[j - 1]);
            if (rank(b) > rank(a) || (rank(b) == rank(a) && b->violations >= a->violations))
                break;
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = v;
    }
}

const char *pane_alerts_spec(const char *line)
{
    while (*line == ' ' || *line == ':')
        line++;
    if (!strncmp(line, "set ", 4))
        line += 4;
    return line;
}

int pane_alerts_facts(const rule_result *res, const char *who, char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "%s", res->name);
    if (res->status == RULE_TRIGGERED && res->node[0] && n >= 0 && (size_t)n < cap)
        n += snprintf(buf + n, cap - (size_t)n, " %s", who ? who : res->node);
    if (res->status == RULE_TRIGGERED && res->worst_pct > 0 && n >= 0 && (size_t)n < cap)
        n += snprintf(buf + n, cap - (size_t)n, " +%.0f%%", res->worst_pct);
    if (n >= 0 && (size_t)n < cap)
        n += snprintf(buf + n, cap - (size_t)n, " %lld/%lld", (long long)res->violations,
                      (long long)res->datapoints);
    return n;
}

const char *pane_alerts_message_tail(const char *msg, const char *node)
{
    size_t k = strlen(node);
    if (!k || strncmp(msg, node, k) || (msg[k] != ':' && msg[k] != ' '))
        return msg;
    msg += k;
    while (*msg == ':' || *msg == ' ')
        msg++;
    return msg;
}

const rules *pane_alerts_rules(const pane *p)
{
    return p->r;
}

int pane_alerts_command(pane *p, const char *line, char *msg, size_t cap,
                        sm_err *err)
{
    line = pane_alerts_spec(line);
    if (rules_apply_override(p->r, line, err) < 0)
        return -1;
    snprintf(msg, cap, "rule parameter set: %s (re-evaluated)", line);
    return 0;
}

int pane_alerts_configure(pane *p, const report_rules_opts *o, sm_err *err)
{
    rules *r = report_rules_new_configured(o, err);
    if (!r)
        return -1;
    rules_free(p->r);
    p->r = r;
    p->note[0] = '\0';   /* a rules.conf note from create is stale now */
    return 0;
}

void pane_alerts_jump_view(view_state *v, int64_t t0_us, int64_t t1_us)
{
    int64_t w = t1_us > t0_us ? t1_us - t0_us : 0;
    int64_t span = 2 * w;
    if (span < 30000000LL)
        span = 30000000LL;
    if (span > 7 * 86400000000LL)
        span = 7 * 86400000000LL;
    v->live = 0;
    v->span_us = span;
    v->end_us = t1_us + (span - w) / 2;
}

static pane *alerts_create(void)
{
    pane *p = calloc(1, sizeof *p);
    if (!p || !(p->r = rules_new())) {
        free(p);
        return NULL;
    }
    sm_err err = {0};
    if (report_rules_configure(p->r, NULL, &err) < 0)
        snprintf(p->note, sizeof p->note, "rules.conf ignored: %s", err.msg);
    return p;
}

static void alerts_destroy(pane *p)
{
    if (p)
        rules_free(p->r);
    free(p);
}

static int status_attr(const pane_ctx *ctx, const rule_result *res)
{
    if (res->status == RULE_NO_DATA)
        return theme_attr(ctx->th, ROLE_DIM);
    if (res->status == RULE_OK)
        return theme_attr(ctx->th, ROLE_OK);
    return theme_attr(ctx->th, res->severity == RULE_SEV_HIGH ? ROLE_ALERT_HIGH
                               : res->severity == RULE_SEV_MED ? ROLE_ALERT_MED
                                                                : ROLE_ALERT_LOW);
}

static const char *badge(const rule_result *res)
{
    if (res->status == RULE_NO_DATA)
        return "[ -- ]";
    if (res->status == RULE_OK)
        return "[ ok ]";
    return res->severity == RULE_SEV_HIGH ? "[HIGH]"
         : res->severity == RULE_SEV_MED ? "[MED ]" : "[LOW ]";
}

static const viewsnap *snap_of(const pane_ctx *ctx)
{
    const dash_ext *ext = ctx->ext;
    return ext ? ext->snap : NULL;
}

/* The totals line and, when the pane has room, the column headers: the
 * counter reads "fired/checked" (windows or samples that broke the rule
 * / that it looked at). Returns the lines used. */
static int draw_counts(WINDOW *w, const viewsnap *s, const pane_ctx *ctx)
{
    size_t by[4] = {0}, ok = 0, nd = 0;
    for (size_t i = 0; i < rules_count(); i++) {
        const rule_result *res = viewsnap_rule_at(s, i);
        if (res->status == RULE_TRIGGERED)
            by[res->severity]++;
        ok += res->status == RULE_OK;
        nd += res->status == RULE_NO_DATA;
    }
    char line[160];
    size_t fired = by[1] + by[2] + by[3];
    snprintf(line, sizeof line, "%zu alert%s: %zu high, %zu medium, %zu low; "
             "%zu ok, %zu no data", fired, fired == 1 ? "" : "s", by[3], by[2], by[1], ok, nd);
    pane_common_put(w, 0, 0, -1, line, theme_attr(ctx->th, ROLE_LABEL));
    if (getmaxy(w) < 4)
        return 1;
    if (getmaxx(w) < ALERTS_WIDE_MIN)
        snprintf(line, sizeof line, "%-6s %s", "level", "rule, where, worst case");
    else
        snprintf(line, sizeof line, "%-6s %-23s%13s  %s", "level", "rule", "fired/checked",
                 "where, worst case");
    pane_common_put(w, 1, 0, -1, line, theme_attr(ctx->th, ROLE_DIM));
    return 2;
}

/* A rule short of data says "job too short" once the job has stopped
 * writing; while it is still LIVE, "waiting" (more data may come). */
static const char *message_of(const rule_result *res, const pane_ctx *ctx, char *buf, size_t cap)
{
    size_t k = strlen(RULE_TOO_SHORT);
    if (!res->too_short || strncmp(res->message, RULE_TOO_SHORT, k) || !ctx->vd ||
        !freshness_writing(viewdata_freshness(ctx->vd, ctx->now_us, 0)))
        return res->message;
    snprintf(buf, cap, "waiting: %s", res->message + k);
    return buf;
}

/* msg with its leading writer id (a rule names the unit it judged)
 * said as a reader knows it: "algo-1 TRAIN: ..." for "14774-algo-1
 * TRAIN: ...". */
static const char *named_message(const char *msg, const char *node, const pane_ctx *ctx,
                                 char *buf, size_t cap)
{
    char who[160];
    const char *tail = pane_alerts_message_tail(msg, node);
    const char *label = pane_common_writer_label(ctx->vd, node, who, sizeof who);
    if (tail == msg || label == node)
        return msg;
    snprintf(buf, cap, "%s%.*s", label, (int)(tail - msg - strlen(node)), msg + strlen(node));
    size_t n = strlen(buf);
    snprintf(buf + n, cap - n, "%s", tail);
    return buf;
}

/* One rule's row; its message from column hoff on (Left/Right), or
 * whole over up to `wrap` lines (the zoomed pane; an alert where the
 * list has room). A pane too narrow for the columns leads with the key
 * facts instead (rule, where, how far: "Straggler algo-3 +29%"), so a cut
 * takes the least of it. Returns the lines used; p->overflow grows to
 * what the message runs past the pane. */
static int draw_row(pane *p, WINDOW *w, int y, const rule_result *res, int selected, int wrap,
                    const pane_ctx *ctx)
{
    int attr = status_attr(ctx, res);
    int x = pane_common_put(w, y, 0, -1, badge(res), attr) + 1;
    int sel = selected ? theme_attr(ctx->th, ROLE_SELECTED) : 0;
    int fattr = sel ? sel : theme_attr(ctx->th, ROLE_DEFAULT);
    int mattr = sel ? sel : theme_attr(ctx->th, ROLE_DIM);
    char mid[160], msg[sizeof res->message + 16], line[sizeof mid + sizeof msg + 4];
    const char *m = message_of(res, ctx, msg, sizeof msg);
    if (getmaxx(w) >= ALERTS_WIDE_MIN) {
        snprintf(mid, sizeof mid, "%-23s%6lld/%-6lld ", res->name,
                 (long long)res->violations, (long long)res->datapoints);
        x += pane_common_put(w, y, x, -1, mid, fattr);
        m = named_message(m, res->node, ctx, line, sizeof line);
    } else {
        char who[160];
        int flen = pane_alerts_facts(
            res, pane_common_writer_label(ctx->vd, res->node, who, sizeof who), mid, sizeof mid);
        if (res->status == RULE_TRIGGERED)
            m = pane_alerts_message_tail(m, res->node);
        if (wrap > 1) {
            /* Facts and reason as one paragraph under the rule's name. */
            snprintf(line, sizeof line, "%s  %s", mid, m);
            int used = pane_common_put_wrapped(w, y, x, wrap, line, mattr);
            if (flen < getmaxx(w) - x)
                pane_common_put(w, y, x, -1, mid, fattr);
            return used;
        }
        x += pane_common_put(w, y, x, -1, mid, fattr) + 2;
    }
    if (wrap > 1)
        return pane_common_put_wrapped(w, y, x, wrap, m, mattr);
    size_t len = strlen(m), off = p->hoff < len ? p->hoff : len;
    int over = (int)len - (getmaxx(w) - x);
    p->overflow = over > p->overflow ? over : p->overflow;
    if (over > 0 && (p->msg_cols == 0 || getmaxx(w) - x < p->msg_cols))
        p->msg_cols = getmaxx(w) - x;
    if (off)
        pane_common_put(w, y, x, 1, "<", theme_attr(ctx->th, ROLE_LABEL));
    pane_common_put(w, y, x + (off != 0), -1, m + off, mattr);
    return 1;
}

static int draw_detail(WINDOW *w, int y, size_t i, const viewsnap *s, const pane_ctx *ctx)
{
    const rule_result *res = viewsnap_rule_at(s, i);
    int rows = getmaxy(w), lab = theme_attr(ctx->th, ROLE_LABEL);
    char line[400], a[FMT_BUF], b[FMT_BUF], c[FMT_BUF], who[160];
    int len = snprintf(line, sizeof line, "%s: %s; params", res->name, rules_summary_at(i));
    for (size_t k = 0; k < rules_param_count(i) && len < (int)sizeof line - 40; k++)
        len += snprintf(line + len, sizeof line - (size_t)len, " %s=%g",
                        rules_param_name(i, k), viewsnap_rule_param(s, i, k));
    pane_common_put(w, y++, 0, -1, line, lab);
    if (res->t1_us > res->t0_us && y < rows) {
        int64_t span = res->t1_us - res->t0_us;
        snprintf(line, sizeof line, "worst: %s %s  %s - %s (%s)  [J: %s]",
                 pane_common_writer_label(ctx->vd, res->node, who, sizeof who), res->device, fmt_clock(a, sizeof a, res->t0_us, span),
                 fmt_clock(b, sizeof b, res->t1_us, span), fmt_duration(c, sizeof c, (double)span),
                 strcmp(res->name, "StepOutlier") ? "jump there" : "focus this step");
        pane_common_put(w, y++, 0, -1, line, theme_attr(ctx->th, ROLE_DEFAULT));
    }
    for (size_t k = 0; k < res->n_examples && y < rows; k++) {
        const rule_example *e = &res->examples[k];
        snprintf(line, sizeof line, "  %s %s %s  %s",
                 e->t0_us ? fmt_clock(a, sizeof a, e->t0_us, 0) : "",
                 pane_common_writer_label(ctx->vd, e->node, who, sizeof who), e->device, e->text);
        pane_common_put(w, y++, 0, -1, line, status_attr(ctx, res));
    }
    return y;
}

/* Lines an alert's message may take: whole when zoomed (up to four);
 * two for each alert when the list has room for every alert twice, so a
 * wide pane reads the reason without Left/Right; else one. */
static int wrap_of(const rule_result *res, int zoomed, int alert_lines)
{
    if (zoomed)
        return 4;
    return res->status == RULE_TRIGGERED && alert_lines ? 2 : 1;
}

static void alerts_draw(pane *p, WINDOW *w, const pane_ctx *ctx)
{
    werase(w);
    const viewsnap *s = snap_of(ctx);
    for (size_t k = 0; k < sizeof p->line_pos / sizeof *p->line_pos; k++)
        p->line_pos[k] = SIZE_MAX;
    if (!s) {   /* the loader has not evaluated the rules yet */
        pane_common_put(w, 0, 0, -1, "evaluating rules...", theme_attr(ctx->th, ROLE_DIM));
        return;
    }
    size_t n = rules_count(), idx[64], fired = 0;
    pane_alerts_order(s, idx);
    if (p->sel >= n)
        p->sel = n - 1;
    int head = p->head = draw_counts(w, s, ctx);
    int rows = getmaxy(w), y = head;
    int zoomed = ctx->view->zoomed;
    int detail = zoomed && rows > (int)n + 4;
    int list_rows = detail ? (int)n : rows - head - (p->note[0] != 0);
    if (list_rows < 1)
        list_rows = 1;
    for (size_t k = 0; k < n; k++)
        fired += viewsnap_rule_at(s, idx[k])->status == RULE_TRIGGERED;
    int alert_lines = fired && (int)(2 * fired) <= list_rows;
    p->top = pane_common_scroll_top(p->top, p->sel, n, (size_t)list_rows);
    p->overflow = 0;
    p->msg_cols = 0;
    /* Zoomed, each message is read whole: wrapped over the lines it needs
     * (up to four), the list scrolled so the selected rule shows; the
     * details follow where room is left. */
    if (zoomed || alert_lines) {
        if (p->top > p->sel)
            p->top = p->sel;
        if (zoomed)
            list_rows = rows - head - (p->note[0] != 0);
    }
    int sel_shown = 0;
    for (size_t k = p->top; k < n && y < head + list_rows; k++) {
        const rule_result *res = viewsnap_rule_at(s, idx[k]);
        int used = draw_row(p, w, y, res, k == p->sel, wrap_of(res, zoomed, alert_lines), ctx);
        for (int l = 0; l < used && (size_t)(y + l) < sizeof p->line_pos / sizeof *p->line_pos; l++)
            p->line_pos[y + l] = k;
        y += used;
        sel_shown |= k == p->sel && y <= head + list_rows;
    }
    if (!sel_shown && p->top < p->sel) {
        /* The selected rule fell below, or was cut: start lower and draw
         * again. */
        p->top++;
        alerts_draw(p, w, ctx);
        return;
    }
    if (detail && y + 4 < rows)
        y = draw_detail(w, y + 1, idx[p->sel], s, ctx);
    if (p->note[0] && y < rows)
        pane_common_put(w, rows - 1, 0, -1, p->note, theme_attr(ctx->th, ROLE_DIM));
}

/* A StepOutlier's worst span is one step (node, phase label in `device`,
 * its start and end): J ties every pane to that step (the cross-filter)
 * rather than to a window around it. The loader found the step when it
 * derived the results (viewsnap_rule_step): no model here. 0 when result i
 * is not such an alert or its step is no longer retained (J then jumps to
 * the span). */
static int focus_outlier_step(const viewsnap *s, size_t i, pane_ctx *ctx)
{
    const rule_result *res = viewsnap_rule_at(s, i);
    phase_event ev;
    if (strcmp(res->name, "StepOutlier") != 0 || !viewsnap_rule_step(s, i, &ev))
        return 0;
    view_focus_step(ctx->view, ev.step, ev.start_us, ev.start_us + ev.dur_us);
    view_focus_node(ctx->view, res->node);
    return 1;
}

static int alerts_on_key(pane *p, int ch, pane_ctx *ctx)
{
    size_t n = rules_count(), idx[64];
    /* Left/Right scroll long messages while there is more to see, as in
     * htop; at either end they move the focus as elsewhere. */
    /* A step never skips text: at most what the narrowest cut message
     * shows, less the '<' and the '~'. */
    size_t step = p->msg_cols > 18 ? 16 : p->msg_cols > 3 ? (size_t)p->msg_cols - 2 : 1;
    if (ch == KEY_RIGHT && (int)p->hoff < p->overflow) {
        p->hoff += step;
        return 1;
    }
    if (ch == KEY_LEFT && p->hoff > 0) {
        p->hoff = p->hoff > step ? p->hoff - step : 0;
        return 1;
    }
    if (ch == KEY_DOWN || ch == 'j') {
        p->sel = p->sel + 1 < n ? p->sel + 1 : p->sel;
        return 1;
    }
    if (ch == KEY_UP || ch == 'k') {
        p->sel = p->sel ? p->sel - 1 : 0;
        return 1;
    }
    const viewsnap *s = snap_of(ctx);
    if (ch != 'J' || !s)
        return 0;
    pane_alerts_order(s, idx);
    size_t i = idx[p->sel < n ? p->sel : 0];
    const rule_result *res = viewsnap_rule_at(s, i);
    if (focus_outlier_step(s, i, ctx))
        return 1;
    if (res->t1_us > res->t0_us)
        pane_alerts_jump_view(ctx->view, res->t0_us, res->t1_us);
    else
        snprintf(p->note, sizeof p->note, "%s has no time span to jump to", res->name);
    return 1;
}

static uint64_t alerts_stamp(pane *p, const pane_ctx *ctx)
{
    const viewsnap *s = snap_of(ctx);
    uint64_t h = pane_common_hash_u64(PANE_COMMON_HASH_SEED, s ? viewsnap_generation(s) : 0);
    h = pane_common_hash_u64(h, rules_generation(p->r));
    h = pane_common_hash_u64(h, p->sel);
    h = pane_common_hash_u64(h, (uint64_t)ctx->view->zoomed);
    h = pane_common_hash_u64(h, p->hoff);
    h = pane_common_hash_u64(h, p->top);
    return pane_common_hash_str(h, p->note);
}

/* A click on a rule's row selects it (above the rows: totals, headers). */
static int alerts_on_click(pane *p, int y, int x, pane_ctx *ctx)
{
    (void)x;
    (void)ctx;
    if (y < p->head || (size_t)y >= sizeof p->line_pos / sizeof *p->line_pos ||
        p->line_pos[y] >= rules_count())
        return 0;
    p->sel = p->line_pos[y];
    return 1;
}

static const pane_key alerts_keys[] = {
    {"j k  Dn Up", "rule", "select a rule"},
    {"J", "jump", "jump / focus the step"},
    {"Enter", "details", "zoom: whole messages"},
    {"Lt Rt", "scroll", "scroll long messages"},
    {NULL, NULL, NULL},
};

/* Two lines per alert (its facts and reason) and the totals; a job
 * without alerts has a line to say. */
static int alerts_say(pane *p, const pane_ctx *ctx)
{
    (void)p;
    const viewsnap *s = snap_of(ctx);
    int fired = 0;
    for (size_t i = 0; s && i < rules_count(); i++)
        fired += viewsnap_rule_at(s, i)->status == RULE_TRIGGERED;
    return 1 + 2 * fired;
}

const pane_vtbl pane_alerts_vtbl = {
    .id = "alerts",
    .title = "Alerts",
    .create = alerts_create,
    .destroy = alerts_destroy,
    .draw = alerts_draw,
    .on_key = alerts_on_key,
    .on_click = alerts_on_click,
    .stamp = alerts_stamp,
    .keys = alerts_keys,
    .whole_job = 1,
    .say = alerts_say,
};
