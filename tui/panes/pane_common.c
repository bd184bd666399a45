/* pane_common: see pane_common.h. */
#include "tui/panes/pane_common.h"

#include <stdio.h>
#include <string.h>

#include "tui/text/sanitize.h"
#include "model/fnv.h"

size_t pane_common_visible_nodes(const model *m, const view_state *v,
                                 const model_node **out, size_t max)
{
    size_t n = 0, total = m ? model_node_count(m) : 0;
    for (size_t i = 0; i < total; i++) {
        const model_node *nd = model_node_at(m, i);
        if (!nd || (v && !view_node_visible(v, model_node_id(nd))))
            continue;
        if (n < max)
            out[n] = nd;
        n++;
    }
    return n;
}

size_t pane_common_selected(const view_state *v, size_t count)
{
    if (count == 0 || !v)
        return 0;
    return v->selected_node < count ? v->selected_node : count - 1;
}

int pane_common_key_select(int ch, pane_ctx *ctx)
{
    size_t n = pane_common_visible_nodes(ctx->m, ctx->view, NULL, 0);
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

const model_node *pane_common_process(const pane_ctx *ctx, const model_node *nd)
{
    return nd && ctx->view->process[0] ? model_node_find_process(nd, ctx->view->process) : NULL;
}

#define PANE_COMMON_MAX_PROCS 256

int pane_common_key_process(int ch, pane_ctx *ctx, const model_node *nd)
{
    if ((ch != 'r' && ch != 'R') || !nd)
        return 0;
    const char *ids[PANE_COMMON_MAX_PROCS];
    size_t n = model_node_process_count(nd);
    n = n < PANE_COMMON_MAX_PROCS ? n : PANE_COMMON_MAX_PROCS;
    for (size_t i = 0; i < n; i++)
        ids[i] = model_node_id(model_node_process_at(nd, i));
    view_cycle_process(ctx->view, ids, n, ch == 'r' ? 1 : -1);
    return 1;
}

char *pane_common_process_label(char *buf, size_t cap, const model_node *nd,
                                const model_node *shown)
{
    size_t n = model_node_process_count(nd), k = 0;
    while (k < n && model_node_process_at(nd, k) != shown)
        k++;
    return pane_common_process_text(buf, cap, model_node_id(nd),
                                    k < n ? model_node_id(shown) : "", k, n);
}

char *pane_common_process_text(char *buf, size_t cap, const char *node, const char *shown,
                               size_t k, size_t n)
{
    if (n < 2)
        snprintf(buf, cap, "%s", node);
    else if (k >= n)
        snprintf(buf, cap, "%s all %zu ranks (r)", node, n);
    else
        snprintf(buf, cap, "%s > %s (%zu/%zu, r)", node, shown, k + 1, n);
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

/* "framework traces" when no node has any (a system-only job: every
 * PyTorch >= 2.0 or TF >= 2.11 job), NULL otherwise or before data. */
const char *pane_common_absent_traces(const pane_ctx *ctx)
{
    if (!ctx->vd || viewdata_has_traces(ctx->vd) || viewdata_node_total(ctx->vd) == 0)
        return NULL;
    return "framework traces|traces";
}
