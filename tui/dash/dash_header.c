/* dash_header: the header (what is shown: source, nodes, time range,
 * LIVE/PAUSED) and the status line (last scan, data lag, backfill
 * progress, the latest error in plain words, transient notices). Each is
 * redrawn only when its text changed. */
#include "tui/dash/dash_internal.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "io/run/job_warn.h"
#include "io/run/job_watch.h"
#include "model/view/freshness.h"
#include "tui/text/fmt.h"
#include "tui/text/progress.h"
#include "tui/text/sanitize.h"
#include "tui/text/step_focus.h"
#include "tui/text/url_tail.h"

#define NOTICE_US (6LL * 1000000)

void dash_notice(dash *d, const char *text)
{
    sanitize_str(text, d->msg, sizeof d->msg, -1);
    d->msg_until_us = dash_now_us() + NOTICE_US;
    d->st_last[0] = '\0';
}

/* "7 s", "3 m 05 s", or fmt_duration beyond an hour. */
static char *fmt_age(char *buf, size_t cap, int64_t us)
{
    int64_t s = us < 0 ? 0 : us / 1000000;
    if (s < 60)
        snprintf(buf, cap, "%d s", (int)s);
    else if (s < 3600)
        snprintf(buf, cap, "%d m %02d s", (int)(s / 60), (int)(s % 60));
    else
        fmt_duration(buf, cap, (double)us);
    return buf;
}

/* Puts sanitized text at the cursor, cut to the columns left before
 * `limit`; returns the columns used. */
static int put(WINDOW *w, const char *text, int attr, int limit)
{
    int x = getcurx(w);
    if (x >= limit)
        return 0;
    char safe[1024];
    sanitize_str(text, safe, sizeof safe, limit - x);
    wattrset(w, attr);
    waddstr(w, safe);
    wattrset(w, 0);
    return sanitize_cols(safe);
}

/* Shared end: compares with the last drawn text, draws when changed. */
static int changed(char *last, size_t cap, const char *now)
{
    if (!strcmp(last, now))
        return 0;
    snprintf(last, cap, "%s", now);
    return 1;
}

/* " STEP 1234 algo-3  12:03:04.120-12:03:05.900 (1.78 s)  Esc: back " */
static void step_badge_text(const view_state *v, char *out, size_t cap)
{
    char a[32], b[32], span[FMT_BUF], step[64];
    if (v->step >= 0)
        snprintf(step, sizeof step, "STEP %lld", v->step);
    else
        snprintf(step, sizeof step, "EVENT");
    if (v->step_node[0])
        snprintf(step + strlen(step), sizeof step - strlen(step), " %.20s", v->step_node);
    snprintf(out, cap, " %s  %s-%s (%s)  Esc: back ", step,
             step_focus_clock(a, sizeof a, v->step_t0_us),
             step_focus_clock(b, sizeof b, v->step_t1_us),
             fmt_duration(span, sizeof span, (double)(v->step_t1_us - v->step_t0_us)));
}

/* "08:20-08:25 CEST (5 m)": the visible window, with the date on an end
 * that is not today and always the zone, so a screen read later or
 * elsewhere is unambiguous. A live window across midnight dates only its
 * start ("2026-11-27 23:58-00:03"): a second date would cost the header
 * eleven columns that the job's name needs. */
static void range_text(const view_state *v, int64_t t0, int64_t t1, int64_t now,
                       char *out, size_t cap)
{
    char a[FMT_BUF], b[FMT_BUF], da[FMT_BUF + 1] = "", db[FMT_BUF + 1] = "", span[FMT_BUF],
        zone[FMT_BUF];
    if (!fmt_same_day(t0, now))
        snprintf(da, sizeof da, "%s ", fmt_date(a, sizeof a, t0));
    if (!fmt_same_day(t0, t1) && !fmt_same_day(t1, now))
        snprintf(db, sizeof db, "%s ", fmt_date(b, sizeof b, t1));
    snprintf(out, cap, "%s%s-%s%s %s (%s)", da, fmt_clock(a, sizeof a, t0, v->span_us), db,
             fmt_clock(b, sizeof b, t1, v->span_us), fmt_zone(zone, sizeof zone, t1),
             fmt_duration(span, sizeof span, (double)v->span_us));
}

/* What the SageMaker API says of the job (io/job/job_watch.h), as the
 * header shows it: "Training", "Completed 2 h ago", "Failed: REASON"
 * (raw: sanitize it). 0 when the API has not described it. */
static int api_status(dash *d, int64_t now_us, char *out, size_t cap)
{
    jobrow r;
    job_watch *w = job_get_watch(d->j);
    if (!w || !job_watch_row(w, &r) || !r.status[0])
        return 0;
    char ago[FMT_BUF];
    if (!strcmp(r.status, "Failed"))
        snprintf(out, cap, "Failed%s%.300s", r.failure[0] ? ": " : "", r.failure);
    else if (!strcmp(r.status, "InProgress") || !strcmp(r.status, "Stopping"))
        snprintf(out, cap, "%s", r.secondary[0] ? r.secondary : r.status);
    else if (r.end_s > 0)
        snprintf(out, cap, "%s %s ago", r.status,
                 fmt_ago(ago, sizeof ago, now_us - (int64_t)(r.end_s * 1e6)));
    else
        snprintf(out, cap, "%s", r.status);
    return 1;
}

/* The badge while the view follows the newest data: whether the job is
 * still writing it (model/view/freshness.h), from the snapshot's view data. */
static const char *fresh_badge(dash *d, const viewdata *vd, int64_t now, char *buf, size_t cap,
                               int *role)
{
    char api[400];
    if (api_status(d, now, api, sizeof api)) {   /* the API's word is the truth */
        char safe[96];
        sanitize_fit(api, safe, sizeof safe, 40);   /* the source keeps its room */
        *role = !strncmp(api, "Failed", 6) ? ROLE_ALERT_HIGH
              : !strncmp(api, "Completed", 9) || !strncmp(api, "Stopped", 7) ? ROLE_DIM
                                                                             : ROLE_STATUS_LIVE;
        snprintf(buf, cap, " %s ", safe);
        return buf;
    }
    scan_stats st;
    scanner_get_stats(job_scanner(d->j), &st);
    int64_t newest = vd ? viewdata_newest_us(vd) : 0, scan_us = (int64_t)d->o->interval_ms * 1000;
    char age[FMT_BUF];
    switch (st.waiting || !vd ? FRESH_NONE : viewdata_freshness(vd, now, scan_us)) {
    case FRESH_LIVE:
        *role = ROLE_STATUS_LIVE;
        return " LIVE ";
    case FRESH_QUIET:   /* one profiling cycle seen: not known to be late */
        *role = ROLE_STATUS_PAUSED;
        snprintf(buf, cap, " LAST TRACE %s ago ", fmt_ago(age, sizeof age, now - newest));
        return buf;
    case FRESH_STALE:
        *role = ROLE_ALERT_MED;
        snprintf(buf, cap, " STALE %s ", fmt_ago(age, sizeof age, now - newest));
        return buf;
    case FRESH_ENDED:
        *role = ROLE_DIM;
        snprintf(buf, cap, " ENDED %s ago ", fmt_ago(age, sizeof age, now - newest));
        return buf;
    default:
        *role = ROLE_STATUS_PAUSED;
        return " WAITING ";
    }
}

/* Where src's last n components start ("/job-7/profiler-output" of
 * "s3://bucket/runs/job-7/profiler-output" for 2), or NULL. */
static const char *path_tail(const char *src, int len, int n)
{
    int slashes = 0;
    for (int i = len - 2; i > 0; i--)   /* a trailing '/' names no component */
        if (src[i] == '/' && ++slashes == n)
            return src + i;
    return NULL;
}

/* src[0..len) as head "..." tail when the tail from path_tail(n) fits
 * max beside a head of min_head bytes; 0 when it does not. */
static int keep_tail(const char *src, int len, int n, int max, int min_head, char *out,
                     size_t cap)
{
    const char *tail = path_tail(src, len, n);
    int tl = tail ? (int)(len - (tail - src)) : 0;
    if (!tail || tl + 3 + min_head > max)
        return 0;
    snprintf(out, cap, "%.*s...%.*s", max - 3 - tl, src, tl, tail);
    return 1;
}

/* src cut to at most max bytes, with "..." where it was cut. The job's
 * folder tells jobs apart, so it stays whole while it fits: first with
 * what follows it ("/job-7/profiler-output"), then without that
 * boilerplate, then alone ("s3://b.../job-7"), the head (bucket or
 * root) taking the rest. Else both ends of the job's path are kept
 * evenly. Sources are ASCII paths and URLs in practice; the header
 * sanitizes the rest. */
static const char *mid_cut(const char *src, int max, char *out, size_t cap)
{
    static const char boiler[] = "/profiler-output";
    int len = (int)strlen(src);
    if (len <= max || max < 9) {
        snprintf(out, cap, "%s", max < 9 && len > max ? "" : src);
        return out;
    }
    if (keep_tail(src, len, 2, max, 4, out, cap))
        return out;
    int job = len - (src[len - 1] == '/');
    if (job > (int)sizeof boiler && !strncmp(src + job - (sizeof boiler - 1), boiler,
                                             sizeof boiler - 1)) {
        job -= (int)sizeof boiler - 1;
        if (job <= max) {
            snprintf(out, cap, "%.*s", job, src);
            return out;
        }
        len = job;
    }
    if (keep_tail(src, len, 1, max, 2, out, cap))
        return out;
    int head = (max - 3) / 2, tail = max - 3 - head;
    snprintf(out, cap, "%.*s...%.*s", head, src, tail, src + len - tail);
    return out;
}

/* A job's places by their labels alone: after "traces: ", each
 * "URL (label)" becomes "label"; with drop_name what comes before is the
 * job's name alone ("JOB (no profiler output)", ".../JOB/profiler-output"). */
static void place_labels(const char *in, int drop_name, char *out, size_t cap)
{
    const char *tr = strstr(in, "traces: ");
    int head = (int)(tr - in);
    const char *np = strstr(in, " (no profiler output)"), *po = strstr(in, "/profiler-output");
    size_t w;
    if (drop_name && np && np < tr) {
        w = (size_t)snprintf(out, cap, "%.*s \xc2\xb7 ", (int)(np - in), in);
    } else if (drop_name && po && po < tr) {
        const char *name = po;
        while (name > in && name[-1] != '/')
            name--;
        w = (size_t)snprintf(out, cap, "%.*s \xc2\xb7 ", (int)(po - name), name);
    } else {
        w = (size_t)snprintf(out, cap, "%.*s", head, in);
    }
    for (const char *p = tr + 8; *p && w + 1 < cap;) {
        const char *open = strstr(p, " ("), *close = open ? strchr(open, ')') : NULL;
        if (!close)
            break;
        int k = snprintf(out + w, cap - w, "%s%.*s", p == tr + 8 ? "traces: " : ", ",
                         (int)(close - open - 2), open + 2);
        w += k > 0 ? (size_t)k : 0;
        p = close[1] == ',' ? close + 3 : close + 1;
    }
}

/* Columns of UTF-8 s (its places' separator is one column, two bytes). */
static int cols_of(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* The place cut to max bytes. A job read from several places (" · traces: ")
 * first loses the middle of each URL, keeping the job's folder and the
 * place ("s3://.../JOB/tensorboard-output/"), then all but the place's
 * folder, then the URLs of the places (their labels stay); what is still
 * too long is cut in the middle. */
static const char *place_cut(const char *place, int max, char *out, size_t cap)
{
    char short_[1024], labels[1024];
    const char *fit = NULL;
    if (!strstr(place, "traces: "))
        return mid_cut(place, max, out, cap);
    if (cols_of(place) <= max)
        fit = place;
    for (int keep = 2; keep >= 1 && !fit; keep--)
        if ((url_tail(place, keep, short_, sizeof short_), cols_of(short_)) <= max)
            fit = short_;
    if (!fit)
        url_tail(place, 2, short_, sizeof short_);   /* the job's folder names it */
    for (int drop = 0; drop <= 1 && !fit; drop++) {
        place_labels(short_, drop, labels, sizeof labels);
        if (cols_of(labels) <= max)
            fit = labels;
    }
    if (!fit)
        return mid_cut(labels, max, out, cap);
    snprintf(out, cap, "%.*s", (int)cap - 1, fit);
    return out;
}

/* The job's name (the scan may still set it): the loader's snapshot
 * carries it; before the first, the name dash_run copied before the
 * loader started. No lock. */
static void job_place(dash *d, char *buf, size_t cap)
{
    const char *p = d->snap ? viewsnap_place(d->snap) : "";
    snprintf(buf, cap, "%s", p[0] ? p : d->place);
}

/* The header's second row: the job's verdict (model/view/verdict.h, the
 * one `report --summary` prints), worst finding first, in the colour of
 * its severity; green when nothing is wrong. Returns the theme role. */
static int verdict_text(const dash *d, char *out, size_t cap, int bar_w)
{
    const verdict *v = d->snap ? viewsnap_verdict(d->snap) : NULL;
    const char *sep = d->view.glyphs == GLYPHS_ASCII ? " | " : " \u00b7 ";
    if (!v) {
        snprintf(out, cap, "verdict: reading the job");
        return ROLE_DIM;
    }
    char line[400];
    verdict_format(v, sep, getmaxx(d->header) - 2 - bar_w, line, sizeof line);
    snprintf(out, cap, "%s", line);
    switch (verdict_worst(v)) {
    case RULE_SEV_HIGH:
        return ROLE_ALERT_HIGH;
    case RULE_SEV_MED:
        return ROLE_ALERT_MED;
    case RULE_SEV_LOW:
        return ROLE_ALERT_LOW;
    default:
        return v->has_data ? ROLE_OK : ROLE_DIM;
    }
}

int dash_bar_cols(const dash *d)
{
    return 2 * (int)d->npanes + 1;   /* " 1 2 3": a digit and a blank each, one blank more */
}

/* Every pane's digit at the end of the verdict row, as btop's box
 * toggles: bright when the pane is on screen (the focused one reversed),
 * dim when hidden or without data, so a user sees that more exists and
 * which key brings it. */
static void pane_bar(const dash *d, WINDOW *w, int x)
{
    if (x < 0)
        return;
    wmove(w, 1, x);
    for (size_t i = 0; i < d->npanes && i < 9; i++) {
        int on = !d->shown_mask || ((d->shown_mask >> i) & 1u);
        int attr = on ? theme_attr(d->th, ROLE_TITLE) | (int)A_BOLD : theme_attr(d->th, ROLE_DIM);
        if (on && (int)i == d->view.focus)
            attr |= (int)A_REVERSE;
        char dig[4] = {' ', (char)('1' + i), 0, 0};
        wattrset(w, 0);
        waddch(w, ' ');
        wattrset(w, attr);
        waddstr(w, dig + 1);
    }
    wattrset(w, 0);
}

void dash_draw_header(dash *d, const pane_ctx *ctx)
{
    const viewdata *vd = ctx->vd;
    int64_t now_us = ctx->now_us;
    size_t total = vd ? viewdata_node_total(vd) : 0, shown = vd ? viewdata_node_shown(vd) : 0;
    char left[1024], range[128], nodes[96], step_badge[200], fresh[128];
    int64_t t0 = ctx->t0_us, t1 = ctx->t1_us;
    char place[400];
    job_place(d, place, sizeof place);
    if (total == 0)
        snprintf(range, sizeof range, "waiting for data");
    else
        range_text(&d->view, t0, t1, now_us, range, sizeof range);
    if (d->view.filter[0])
        snprintf(nodes, sizeof nodes, "%zu/%zu node%s match%s /%s", shown, total,
                 total == 1 ? "" : "s", total == 1 ? "es" : "", d->view.filter);
    else
        snprintf(nodes, sizeof nodes, "%zu node%s", total, total == 1 ? "" : "s");
    int role = ROLE_STATUS_PAUSED, flags = A_BOLD | A_REVERSE;
    const char *badge = d->view.paused ? " PAUSED "
                        : !d->view.live ? " HISTORY "
                                        : fresh_badge(d, vd, now_us, fresh, sizeof fresh, &role);
    if (d->view.step_focus) {
        /* The focused step replaces the time range and the badge: it is
         * the one thing every pane now shows. */
        step_badge_text(&d->view, step_badge, sizeof step_badge);
        badge = step_badge;
        role = ROLE_STATUS_PAUSED;
        snprintf(left, sizeof left, " smtop | %.500s | %s |%s", place, nodes, badge);
    } else {
        /* The node count and the time range always fit (80 columns and
         * up): the source gives way, cut in the middle. */
        char src[512];
        const char *name = " smtop |";
        int room = getmaxx(d->header) - (int)(strlen(nodes) + strlen(range) + strlen(badge)) -
                   16;
        int need = (int)strlen(place);
        if (room < need && room < 20) {   /* narrow: the program name goes first */
            name = "";
            room += 8;
        }
        char *paren = strrchr(range, '(');
        if (room < need && room < 20 && paren && paren > range) {   /* then the span */
            paren[-1] = '\0';
            room += (int)strlen(paren) + 1;
        }
        snprintf(left, sizeof left, "%s %s | %s | %s |%s", name,
                 place_cut(place, room, src, sizeof src), nodes, range, badge);
    }
    char verdict_line[512], key[sizeof d->hdr_last];
    int bar_w = dash_bar_cols(d);
    const verdict *vv = d->snap ? viewsnap_verdict(d->snap) : NULL;
    int lead = vv ? verdict_lead_cols(vv, d->view.glyphs == GLYPHS_ASCII ? " | " : " \u00b7 ") : 0;
    int cols_all = getmaxx(d->header) - 2;
    if (lead > cols_all - bar_w && lead <= cols_all)
        bar_w = 0;   /* the pane digits give way to the cause and its fix */
    int vrole = verdict_text(d, verdict_line, sizeof verdict_line, bar_w);
    snprintf(key, sizeof key, "%.700s\x1f%.500s\x1f%x.%d", left, verdict_line,
             (unsigned)d->shown_mask, d->view.focus);
    if (!changed(d->hdr_last, sizeof d->hdr_last, key))
        return;
    WINDOW *w = d->header;
    int cols = getmaxx(w), blen = (int)strlen(badge);
    werase(w);
    wmove(w, 0, 0);
    left[strlen(left) - (size_t)blen] = '\0';
    put(w, left, theme_attr(d->th, ROLE_STATUS) | A_BOLD, cols - blen);
    wmove(w, 0, cols - blen > 0 ? cols - blen : 0);
    put(w, badge, theme_attr(d->th, role) | flags, cols);
    if (getmaxy(w) > 1) {
        wmove(w, 1, 0);
        put(w, " ", 0, cols);
        put(w, verdict_line, theme_attr(d->th, vrole) | A_BOLD, cols - bar_w);
        if (bar_w)
            pane_bar(d, w, cols - bar_w);
    }
    wnoutrefresh(w);
}

/* Columns the status line keeps for " ? help  q quit ". */
#define STATUS_TAIL_COLS 17

/* Gives up the status line's leading part to what must be read whole:
 * "scanned N s ago", then (sample_too) "newest sample N old", up to its
 * " | ", or all of left when that part is all. The columns freed; 0 when
 * no such part leads. */
static int give_way(char *left, int sample_too)
{
    if (strncmp(left, " scanned ", 9) && !(sample_too && !strncmp(left, " newest sample ", 15)))
        return 0;
    size_t before = strlen(left);
    const char *bar = strstr(left, " | ");
    if (bar)
        memmove(left, bar + 2, strlen(bar + 2) + 1);
    else
        left[0] = '\0';
    return (int)(before - strlen(left));
}

/* Left part of the status line: scan time, lag, progress. */
static void status_text(dash *d, int64_t now, char *out, size_t cap)
{
    scan_stats st;
    scanner_get_stats(job_scanner(d->j), &st);
    char age[FMT_BUF], lag[FMT_BUF], place[1024], prog[160] = "";
    const viewdata *vd = d->snap ? viewsnap_view(d->snap) : NULL;
    int64_t newest = vd ? viewdata_newest_us(vd) : 0;
    job_place(d, place, sizeof place);
    int n = 0;
    char missing[SCANNER_MSG_LEN];
    source_status(job_source(d->j), missing, sizeof missing);
    job_watch *w = job_get_watch(d->j);
    double cw_s = 0;
    if (st.waiting && w && job_watch_cloudwatch(w, &cw_s))   /* no files: CloudWatch's */
        n = cw_s > 0 ? snprintf(out, cap, " CloudWatch read %s ago",
                                fmt_age(age, sizeof age, now - (int64_t)(cw_s * 1e6)))
                     : snprintf(out, cap, " reading CloudWatch");
    else if (st.waiting && strstr(missing, " does not exist (yet)"))
        n = snprintf(out, cap, " %s (%s so far)", missing,
                     fmt_age(age, sizeof age, now - st.started_us));
    else if (st.waiting && st.passes > 0)
        n = snprintf(out, cap, " waiting for the first data (%s so far) in %s",
                     fmt_age(age, sizeof age, now - st.started_us), place);
    else if (progress_line(&st, now, st.passes ? PROGRESS_AFTER_US : 0, prog, sizeof prog))
        n = snprintf(out, cap, " %s", prog);
    else if (st.passes == 0 && (st.scanning || !st.last_scan_us))
        n = snprintf(out, cap, " first scan in progress");
    else if (st.passes == 0)
        n = snprintf(out, cap, " no scan has worked yet (last try %s ago)",
                     fmt_age(age, sizeof age, now - st.last_scan_us));
    else
        n = snprintf(out, cap, " scanned %s ago", fmt_age(age, sizeof age, now - st.last_scan_us));
    if (n < 0 || (size_t)n >= cap)
        return;
    if (newest > 0)
        n += snprintf(out + n, cap - (size_t)n, " | newest sample %s old",
                      fmt_age(lag, sizeof lag, now - newest));
    else if (st.passes > 0 && !st.waiting)
        n += snprintf(out + n, cap - (size_t)n, " | no samples yet");
    if (n >= 0 && (size_t)n < cap && st.files_pending > 0 && !prog[0])
        n += snprintf(out + n, cap - (size_t)n, " | backfilling: %lld file%s left",
                      (long long)st.files_pending, st.files_pending == 1 ? "" : "s");
    /* Files the job holds that no pane shows, and the problems noted: the
     * counts of what the warnings view (W) lists, line for line
     * (io/job/job_warn.h), as `smtop report` does. */
    job_warn_counts wc;
    job_warn_get_counts(d->j, &wc);
    char warn[120] = "";
    int k = 0;
    if (wc.unread_files > 0)
        k = snprintf(warn, sizeof warn, " | %lld file%s not read%s",
                     (long long)wc.unread_files, wc.unread_files == 1 ? "" : "s",
                     wc.noted > 0 ? "," : " (W)");
    if (k >= 0 && (size_t)k < sizeof warn && wc.noted > 0)
        snprintf(warn + k, sizeof warn - (size_t)k, "%s%lld warning%s (W)",
                 wc.unread_files ? " " : " | ", (long long)wc.noted, wc.noted == 1 ? "" : "s");
    /* The counts must be read whole, or the line counts what no one can
     * read against W's lines (80 columns cut "2 files not read, 1 warning
     * (W)" to "2 files not r"): "scanned N s ago" gives way, as for
     * append_absent, then the newest sample's age (the header's badge
     * keeps the freshness). */
    while (warn[0] &&
           sanitize_cols(out) + (int)strlen(warn) + STATUS_TAIL_COLS > getmaxx(d->status) &&
           give_way(out, 1))
        n = (int)strlen(out);
    if (!out[0] && warn[0])
        memmove(warn + 1, warn + 3, strlen(warn + 3) + 1);   /* no " | " before it */
    if (n >= 0 && (size_t)n < cap)
        snprintf(out + n, cap - (size_t)n, "%s", warn);
}

int dash_job_ended(dash *d, int64_t now_us)
{
    jobrow r;
    job_watch *w = job_get_watch(d->j);
    if (w && job_watch_row(w, &r) && r.status[0])   /* the API's word is the truth */
        return jobrow_ended(&r);
    const viewdata *vd = d->snap ? viewsnap_view(d->snap) : NULL;
    return vd && viewdata_freshness(vd, now_us, (int64_t)d->o->interval_ms * 1000) == FRESH_ENDED;
}

/* k9s-style hints in plain words for the focused pane, from its key table:
 * " n/N phase  ,/. step  f focus | ? help  q quit ", as many as fit in
 * `room` columns. */
static void pane_hints(const dash *d, char *out, size_t cap, int room)
{
    const char *tail = "? help  q quit ";
    int n = snprintf(out, cap, " ");
    const pane_key *k = (size_t)d->view.focus < d->npanes ? d->panes[d->view.focus].vt->keys
                                                           : NULL;
    for (; k && k->keys && n >= 0 && (size_t)n < cap; k++) {
        if (!k->hint)
            continue;
        char keys[24];
        size_t j = 0;
        /* "j k  Dn Up" -> "j/k": the first spelling, joined by '/'. */
        for (const char *c = k->keys; *c && j + 1 < sizeof keys; c++) {
            if (c[0] == ' ' && c[1] == ' ')
                break;
            keys[j++] = *c == ' ' ? '/' : *c;
        }
        keys[j] = '\0';
        int len = (int)(strlen(keys) + strlen(k->hint) + 3);
        if (n + len + (int)strlen(tail) + 2 > room)
            break;
        n += snprintf(out + n, cap - (size_t)n, "%s %s  ", keys, k->hint);
    }
    if (n > 1 && n >= 0 && (size_t)n + 2 < cap)
        n += snprintf(out + n, cap - (size_t)n, "| ");
    if (n >= 0 && (size_t)n < cap)
        snprintf(out + n, cap - (size_t)n, "%s", tail);
}

/* What the job lacks, once, in the longest form that leaves the status
 * line room for "? help  q quit": "no framework traces, no Python stats
 * in this job", without "in this job", or "no traces, no Python". When
 * even that does not fit (80 columns), "scanned N s ago" gives way: the
 * newest sample's age stays, and the header says STALE. */
static void append_absent(const dash *d, char *left, size_t cap)
{
    if (!d->absent_note[0])
        return;
    int room = getmaxx(d->status) - sanitize_cols(left) - STATUS_TAIL_COLS;
    if (strstr(left, " | ") && (int)strlen(d->absent_short) + 3 > room)
        room += give_way(left, 0);
    size_t k = strlen(left);
    char note[200];
    snprintf(note, sizeof note, " | %s in this job", d->absent_note);
    if ((int)strlen(note) > room)
        snprintf(note, sizeof note, " | %s", d->absent_note);
    if ((int)strlen(note) > room)
        snprintf(note, sizeof note, " | %s", d->absent_short);
    if (k < cap)
        snprintf(left + k, cap - k, "%s", note);
}

void dash_draw_status(dash *d, int64_t now)
{
    char left[512], err[SCANNER_MSG_LEN] = "", key[1400], hints[200];
    if (d->filter_edit) {
        snprintf(left, sizeof left, " filter nodes: /%s_", d->view.filter);
    } else if (d->cmd_edit) {
        snprintf(left, sizeof left, " :%s_", d->cmd);
    } else {
        status_text(d, now, left, sizeof left);
        /* What the job lacks, once: it explains the panes that gave their
         * space away. */
        append_absent(d, left, sizeof left);
        /* What the transport is doing now ("connecting to … (attempt
         * 2/5)") is newer than how the last pass ended. */
        source_status(job_source(d->j), err, sizeof err);
        if (strstr(err, " does not exist (yet)"))   /* status_text said it */
            err[0] = '\0';
        /* The API's failures matter where CloudWatch is the job's data,
         * more than a place of files that failed too: the header names
         * that place already. Elsewhere the header keeps the files'
         * freshness. */
        if (!err[0] && job_get_watch(d->j) && job_watch_cloudwatch(job_get_watch(d->j), NULL))
            job_watch_error(job_get_watch(d->j), err, sizeof err);
        if (!err[0] && d->ld)
            loader_last_error(d->ld, err, sizeof err, NULL);
        scan_stats st;
        scanner_get_stats(job_scanner(d->j), &st);
        if (!err[0])
            snprintf(err, sizeof err, "%s", st.last_error);
        /* No pass has worked: why is all there is to say (a folder of
         * jobs names them), with the room of the whole line. */
        if (st.passes == 0 && err[0] && !st.scanning)
            snprintf(left, sizeof left, " %.*s", (int)sizeof left - 2, err), err[0] = '\0';
        /* A notice answers the key just pressed: it goes first, alone. */
        if (now < d->msg_until_us) {
            snprintf(left, sizeof left, " %s", d->msg);
            err[0] = '\0';
        }
    }
    /* The pane's key hints take what the status leaves (up to half). */
    int cols = getmaxx(d->status);
    int used = sanitize_cols(left) + (err[0] ? sanitize_cols(err) + 3 : 0) + 2;
    pane_hints(d, hints, sizeof hints, cols - used < cols / 2 ? cols - used : cols / 2);
    const char *hint = d->filter_edit || d->cmd_edit ? " Enter keep  Esc cancel " : hints;
    /* The key only detects change: hints differ within their first
     * words, and the cut keeps it within st_last. */
    snprintf(key, sizeof key, "%s\x1f%s\x1f%.118s", left, err, hint);
    if (!changed(d->st_last, sizeof d->st_last, key))
        return;
    WINDOW *w = d->status;
    int hl = (int)strlen(hint);
    werase(w);
    wmove(w, 0, 0);
    int limit = cols - hl > 0 ? cols - hl : cols;
    put(w, left, theme_attr(d->th, ROLE_STATUS), limit);
    if (err[0]) {
        put(w, " | ", theme_attr(d->th, ROLE_DIM), limit);
        put(w, err, theme_attr(d->th, now < d->msg_until_us ? ROLE_LABEL : ROLE_ERROR), limit);
    }
    if (cols - hl > 0) {
        wmove(w, 0, cols - hl);
        put(w, hint, theme_attr(d->th, ROLE_DIM), cols);
    }
    wnoutrefresh(w);
}
