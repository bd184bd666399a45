/* pane_common: see pane_common.h. */
#include "tui/panes/pane_common.h"

#include <stdio.h>
#include <string.h>

#include "tui/text/sanitize.h"
#include "model/util/fnv.h"
#include "model/view/rank_name.h"

size_t pane_common_visible_nodes(const pane_ctx *ctx, size_t *out, size_t max)
{
    if (!ctx->vd)
        return 0;
    return viewdata_nodes_passing(ctx->vd, ctx->view ? ctx->view->filter : "",
                                  ctx->view ? view_filter_match : NULL, out, max);
}

#define PANE_COMMON_MAX_NODES 1024

long pane_common_traced_node(const pane_ctx *ctx, const char **why)
{
    size_t nodes[PANE_COMMON_MAX_NODES] = {0};
    size_t n = pane_common_visible_nodes(ctx, nodes, PANE_COMMON_MAX_NODES);
    n = n < PANE_COMMON_MAX_NODES ? n : PANE_COMMON_MAX_NODES;
    long k = viewdata_pick_traced(ctx->vd, nodes, n, pane_common_selected(ctx->view, n));
    if (k < 0) {
        *why = n == 0 ? "waiting for data"
                      : "no framework trace events in this job - system metrics only";
        return -1;
    }
    return (long)nodes[k];
}

size_t pane_common_selected(const view_state *v, size_t count)
{
    if (count == 0 || !v)
        return 0;
    return v->selected_node < count ? v->selected_node : count - 1;
}

int pane_common_key_select(int ch, pane_ctx *ctx)
{
    size_t n = pane_common_visible_nodes(ctx, NULL, 0);
    size_t sel = pane_common_selected(ctx->view, n);
    switch (ch) {
    case KEY_UP: case 'k': sel = sel > 0 ? sel - 1 : 0; break;
    case KEY_DOWN: case 'j': sel = sel + 1 < n ? sel + 1 : sel; break;
    case KEY_PPAGE: sel = sel > 10 ? sel - 10 : 0; break;
    case KEY_NPAGE: sel = sel + 10 < n ? sel + 10 : (n ? n - 1 : 0); break;
    case KEY_HOME: sel = 0; break;
    case KEY_END: sel = n ? n - 1 : 0; break;
    default: return 0;
    }
    ctx->view->selected_node = sel;
    return 1;
}

uint64_t pane_common_hash_u64(uint64_t h, uint64_t x)
{
    return fnv_add(h, &x, sizeof x);
}

uint64_t pane_common_hash_str(uint64_t h, const char *s)
{
    return pane_common_hash_u64(s ? fnv_add_str(h, s) : h, 0xff);
}

uint64_t pane_common_hash_viewdata(uint64_t h, const pane_ctx *ctx)
{
    if (!ctx->vd)
        return pane_common_hash_u64(h, 0);
    h = pane_common_hash_u64(h, viewdata_model_generation(ctx->vd));
    return fnv_add(h, viewdata_request(ctx->vd), sizeof(viewdata_req));
}

uint64_t pane_common_hash_view(uint64_t h, const pane_ctx *ctx)
{
    const view_state *v = ctx->view;
    h = pane_common_hash_u64(h, (uint64_t)ctx->t0_us);
    h = pane_common_hash_u64(h, (uint64_t)ctx->t1_us);
    if (!v)
        return h;
    h = pane_common_hash_u64(h, v->selected_node);
    h = pane_common_hash_u64(h, (uint64_t)v->per_core);
    h = pane_common_hash_u64(h, (uint64_t)v->glyphs);
    h = pane_common_hash_str(h, v->process);
    return pane_common_hash_str(h, v->filter);
}

#define PANE_COMMON_MAX_PROCS 256

int pane_common_key_process(int ch, pane_ctx *ctx, long node)
{
    if ((ch != 'r' && ch != 'R') || node < 0 || !ctx->vd)
        return 0;
    const char *ids[PANE_COMMON_MAX_PROCS];
    size_t n = viewdata_node_writer_count(ctx->vd, (size_t)node);
    n = n < PANE_COMMON_MAX_PROCS ? n : PANE_COMMON_MAX_PROCS;
    for (size_t i = 0; i < n; i++)
        ids[i] = viewdata_node_writer(ctx->vd, (size_t)node, i);
    view_cycle_process(ctx->view, ids, n, ch == 'r' ? 1 : -1);
    return 1;
}

/* The shown writer as its rank ("rank 2") when the node's writers are
 * numbered as ranks (model/view/rank_name.h), else its id. */
static const char *writer_text(const viewdata *vd, const char *node, const char *shown,
                               char *out, size_t cap)
{
    size_t nn = vd ? viewdata_node_total(vd) : 0;
    for (size_t i = 0; i < nn; i++) {
        if (strcmp(viewdata_node_id(vd, i), node))
            continue;
        const char *ids[PANE_COMMON_MAX_PROCS];
        size_t n = viewdata_node_writer_count(vd, i);
        n = n < PANE_COMMON_MAX_PROCS ? n : PANE_COMMON_MAX_PROCS;
        for (size_t k = 0; k < n; k++)
            ids[k] = viewdata_node_writer(vd, i, k);
        for (size_t k = 0; k < n; k++)
            if (!strcmp(ids[k], shown))
                return rank_name(ids, n, k, out, cap);
    }
    return shown;
}

const char *pane_common_writer_label(const viewdata *vd, const char *id, char *out,
                                     size_t cap)
{
    size_t nn = vd && id ? viewdata_node_total(vd) : 0;
    for (size_t i = 0; i < nn; i++) {
        const char *ids[PANE_COMMON_MAX_PROCS];
        size_t n = viewdata_node_writer_count(vd, i);
        n = n < PANE_COMMON_MAX_PROCS ? n : PANE_COMMON_MAX_PROCS;
        for (size_t k = 0; k < n; k++)
            ids[k] = viewdata_node_writer(vd, i, k);
        for (size_t k = 0; k < n; k++) {
            if (strcmp(ids[k], id))
                continue;
            long rank = rank_of_writer(ids, n, k);
            if (n == 1)
                snprintf(out, cap, "%s", viewdata_node_id(vd, i));
            else if (rank >= 0)
                snprintf(out, cap, "rank %ld of %s", rank, viewdata_node_id(vd, i));
            else
                return id;
            return out;
        }
    }
    return id;
}

char *pane_common_process_text(char *buf, size_t cap, const viewdata *vd, const char *node,
                               const char *shown, size_t k, size_t n)
{
    char who[160];
    if (n < 2)
        snprintf(buf, cap, "%s", node);
    else if (k >= n)
        snprintf(buf, cap, "%s all %zu ranks (r)", node, n);
    else
        snprintf(buf, cap, "%s > %s (%zu/%zu, r)", node,
                 writer_text(vd, node, shown, who, sizeof who), k + 1, n);
    return buf;
}

size_t pane_common_scroll_top(size_t top, size_t sel, size_t count, size_t fit)
{
    if (fit == 0 || count <= fit)
        return 0;
    if (sel >= count)
        sel = count - 1;
    if (sel < top)
        top = sel;
    else if (sel >= top + fit)
        top = sel + 1 - fit;
    if (top + fit > count)
        top = count - fit;
    return top;
}

int pane_common_put(WINDOW *w, int y, int x, int max_cols, const char *text, int attr)
{
    int h, wd;
    getmaxyx(w, h, wd);
    if (y < 0 || y >= h || x < 0 || x >= wd)
        return 0;
    int room = wd - x;
    if (max_cols >= 0 && max_cols < room)
        room = max_cols;
    if (room <= 0)
        return 0;
    char buf[512];
    if (room >= 2)
        sanitize_fit(text, buf, sizeof buf, room);
    else
        sanitize_str(text, buf, sizeof buf, room);
    wattrset(w, attr);
    mvwaddstr(w, y, x, buf);
    wattrset(w, A_NORMAL);
    return sanitize_cols(buf);
}

int pane_common_put_wrapped(WINDOW *w, int y, int x, int max_lines, const char *text, int attr)
{
    int h, wd;
    getmaxyx(w, h, wd);
    int width = wd - x;
    if (y < 0 || y >= h || width < 8 || max_lines < 1)
        return 0;
    char safe[1024];
    sanitize_str(text, safe, sizeof safe, -1);
    const char *s = safe;
    int lines = 0;
    while (*s && lines < max_lines && y + lines < h) {
        /* Bytes of the next line: up to `width` columns, cut after the
         * last space that fits (a word longer than the line is cut). */
        int cols = 0;
        const char *p = s, *brk = NULL;
        while (*p && cols < width) {
            if (*p == ' ')
                brk = p;
            p++;
            while ((*p & 0xC0) == 0x80)
                p++;
            cols++;
        }
        size_t take = *p && brk && brk > s ? (size_t)(brk - s) : (size_t)(p - s);
        int last = lines + 1 == max_lines || y + lines + 1 == h;
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)take, s);
        /* The last line allowed keeps what is left, cut with "~". */
        pane_common_put(w, y + lines, x, width, last ? s : line, attr);
        lines++;
        s += take;
        while (*s == ' ')
            s++;
    }
    return lines;
}

int pane_common_put_right(WINDOW *w, int y, int right_x, int max_cols,
                          const char *text, int attr)
{
    char buf[512];
    int room = right_x + 1;
    if (max_cols >= 0 && max_cols < room)
        room = max_cols;
    if (room <= 0)
        return 0;
    if (room >= 2)
        sanitize_fit(text, buf, sizeof buf, room);
    else
        sanitize_str(text, buf, sizeof buf, room);
    int cols = sanitize_cols(buf);
    return pane_common_put(w, y, right_x + 1 - cols, cols, buf, attr);
}

void pane_common_put_wch(WINDOW *w, int y, int x, wchar_t ch, int attr)
{
    int h, wd;
    getmaxyx(w, h, wd);
    if (y < 0 || y >= h || x < 0 || x >= wd)
        return;
    wchar_t s[2] = {ch, L'\0'};
    cchar_t c;
    if (setcchar(&c, s, (attr_t)(attr & ~A_COLOR), (short)PAIR_NUMBER(attr), NULL) == OK)
        mvwadd_wch(w, y, x, &c);
}

void pane_common_edit_prompt(char *buf, size_t cap, int ch, int *editing)
{
    size_t n = strlen(buf);
    if (ch == 27) {
        buf[0] = '\0';
        *editing = 0;
    } else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
        *editing = 0;
    } else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
        if (n)
            buf[n - 1] = '\0';
    } else if (ch >= 0x20 && ch < 0x7f && n + 1 < cap) {
        buf[n] = (char)ch;
        buf[n + 1] = '\0';
    }
}

/* "system metrics" when no node has any (a job profiled with framework
 * traces only), NULL otherwise or before data. */
const char *pane_common_absent_system(const pane_ctx *ctx)
{
    if (!ctx->vd || viewdata_has_system(ctx->vd) || viewdata_node_total(ctx->vd) == 0)
        return NULL;
    return "system metrics|system";
}

/* "framework traces" when no node has any (a system-only job: every
 * PyTorch >= 2.0 or TF >= 2.11 job), NULL otherwise or before data. */
const char *pane_common_absent_traces(const pane_ctx *ctx)
{
    if (!ctx->vd || viewdata_has_traces(ctx->vd) || viewdata_node_total(ctx->vd) == 0)
        return NULL;
    return "framework traces|traces";
}

const char *pane_common_source_note(const pane_ctx *ctx, char *buf, size_t cap)
{
    int64_t iv = 0;
    const char *src = ctx->vd ? viewdata_system_source(ctx->vd, &iv) : "";
    const char *sep = ctx->view->glyphs == GLYPHS_ASCII ? " - " : " \u00b7 ";
    if (!src[0])
        snprintf(buf, cap, "%s", "");
    else if (iv >= 3600 * 1000000LL && iv % (3600 * 1000000LL) == 0)
        snprintf(buf, cap, "%s%s%lld h", src, sep, (long long)(iv / 3600000000LL));
    else if (iv >= 60 * 1000000LL)
        snprintf(buf, cap, "%s%s%lld min", src, sep, (long long)(iv / 60000000LL));
    else
        snprintf(buf, cap, "%s%s%lld s", src, sep, (long long)(iv / 1000000LL));
    return buf;
}

int pane_common_fit_cols(int width, int fixed, const int *widths, size_t n, const int *drop,
                         const int *want, size_t ndrop, int *shown)
{
    int used = fixed;
    for (size_t i = 0; i < n; i++) {
        shown[i] = 1;
        used += widths[i];
    }
    for (size_t k = 0; k < ndrop; k++) {
        int need = want && want[k] > PANE_NAME_MIN ? want[k] : PANE_NAME_MIN;
        if (width - used >= need)
            continue;
        shown[drop[k]] = 0;
        used -= widths[drop[k]];
    }
    return used;
}
