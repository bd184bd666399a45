/* dash_keys: what each key does, from one table (dash_keys): input modes
 * first (a prompt, the warnings, the help), then the table's rows; the
 * focused pane sees the rest, and the rows that yield to it (selection and
 * focus movement) apply when it does not take them. The help overlay is
 * generated from the same table and each pane's.
 * Keys and clicks read the loader's snapshot on screen (d->snap), never
 * the model: they take no lock, so none waits behind the loader's ingest. */
#include "tui/dash/dash_internal.h"

#include "tui/panes/pane_common.h"

#include <ctype.h>
#include <string.h>

/* A pane context for a key or click: the snapshot on screen, no model
 * (keys never take the model lock, so a key never waits for the loader). */
static void key_ctx(dash *d, pane_ctx *ctx)
{
    dash_ctx(d, ctx, dash_now_us());
}

static void set_focus(dash *d, int f)
{
    int n = (int)d->npanes;
    if (n == 0)
        return;
    /* Skip hidden panes, in the direction of travel. */
    int dir = f < d->view.focus ? -1 : 1;
    for (int k = 0; k < n; k++) {
        int g = ((f % n) + n) % n;
        if (!d->shown_mask || (d->shown_mask >> g) & 1u)
            break;
        f += dir;
    }
    f = ((f % n) + n) % n;
    d->focus_want = f;
    if (f == d->view.focus)
        return;
    d->view.focus = f;
    if (d->view.zoomed)
        dash_relayout(d);
    for (size_t i = 0; i < d->npanes; i++)
        d->panes[i].border_dirty = 1;
}

static void set_zoom(dash *d, int on)
{
    if (d->view.zoomed == on)
        return;
    d->view.zoomed = on;
    dash_relayout(d);
}

/* The window back inside the job's data (view_keep_inside). */
static void keep_inside(dash *d)
{
    const viewdata *vd = d->snap ? viewsnap_view(d->snap) : NULL;
    if (vd)
        view_keep_inside(&d->view, viewdata_first_us(vd), viewdata_newest_us(vd));
}

static void close_help(dash *d)
{
    d->help_on = 0;
    if (d->help) {
        delwin(d->help);
        d->help = NULL;
    }
    touchwin(stdscr);
    dash_mark_all(d);
}

/* The `/` prompt: typing filters live, Enter keeps, Esc restores. */
static void filter_key(dash *d, int ch)
{
    char *f = d->view.filter;
    size_t n = strlen(f);
    if (ch == 27) {
        snprintf(f, sizeof d->view.filter, "%s", d->filter_before);
        d->filter_edit = 0;
    } else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
        d->filter_edit = 0;
    } else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
        if (n > 0)
            f[n - 1] = '\0';
    } else if (ch >= 0x20 && ch < 0x7F && n + 1 < sizeof d->view.filter) {
        f[n] = (char)ch;
        f[n + 1] = '\0';
    } else {
        return;
    }
    d->view.selected_node = 0;
    d->st_last[0] = '\0';
}

static void cycle_theme(dash *d)
{
    if (d->nthemes == 0)
        return;
    d->theme_idx = (d->theme_idx + 1) % d->nthemes;
    dash_set_theme(d, d->themes[d->theme_idx]);
}

static void cycle_glyphs(dash *d)
{
    d->view.glyphs = (chart_glyphs)((d->view.glyphs + 1) % GLYPHS_COUNT);
    /* Braille and block elements need a UTF-8 locale. */
    if (!d->unicode)
        d->view.glyphs = GLYPHS_ASCII;
    char note[64];
    snprintf(note, sizeof note, "graph symbols: %s", chart_glyphs_name(d->view.glyphs));
    dash_notice(d, note);
    dash_mark_all(d);
}

static void focused_key(dash *d, int ch);
static int key_warnings(dash *d, int ch);

/* The wheel scrolls the pane under the pointer as Up/Down would. */
static int wheel(dash *d, const MEVENT *ev)
{
    int up = (ev->bstate & BUTTON4_PRESSED) != 0, down = 0;
#ifdef BUTTON5_PRESSED
    down = (ev->bstate & BUTTON5_PRESSED) != 0;
#endif
    if (!up && !down)
        return 0;
    int i = layout_pane_at(&d->lay, ev->y, ev->x);
    if (i >= 0)
        set_focus(d, i);
    focused_key(d, up ? KEY_UP : KEY_DOWN);
    return 1;
}

static void click(dash *d)
{
    MEVENT ev;
    if (getmouse(&ev) != OK)
        return;
    if (d->help_on)
        return;   /* only ?, q or Esc close the help */
    if (d->warn_on) {
        dash_warn_close(d);
        return;
    }
    if (wheel(d, &ev))
        return;
    if (d->lay.header.h > 1 && ev.y == d->lay.header.y + 1 &&
        ev.x < d->lay.cols - dash_bar_cols(d)) {
        key_warnings(d, '!');   /* the verdict row: its findings, whole */
        return;
    }
    int i = layout_pane_at(&d->lay, ev.y, ev.x);
    if (i < 0)
        return;
    set_focus(d, i);
    dash_pane *p = &d->panes[i];
    if (!p->vt->on_click || !p->inner)
        return;
    int by, bx;
    getbegyx(p->inner, by, bx);
    int y = ev.y - by, x = ev.x - bx;
    if (y < 0 || x < 0 || y >= getmaxy(p->inner) || x >= getmaxx(p->inner))
        return;
    pane_ctx ctx;
    key_ctx(d, &ctx);
    p->dirty |= p->vt->on_click(p->p, y, x, &ctx);
}

/* The snapshot's nodes under the filter as typed now. */
static size_t visible_nodes(dash *d)
{
    pane_ctx ctx;
    key_ctx(d, &ctx);
    return pane_common_visible_nodes(&ctx, NULL, 0);
}

/* Offers ch to the focused pane, then runs its row of the table when the
 * pane did not take it (the rows that yield to the pane). */
static void focused_key(dash *d, int ch)
{
    pane_ctx ctx;
    key_ctx(d, &ctx);
    size_t nvis = pane_common_visible_nodes(&ctx, NULL, 0);
    int used = 0;
    if ((size_t)d->view.focus < d->npanes) {
        dash_pane *p = &d->panes[d->view.focus];
        if (p->vt->on_key) {
            used = p->vt->on_key(p->p, ch, &ctx);
            p->dirty |= used;   /* its own key: redrawn even while backfilling */
        }
    }
    const dash_keydef *k = used ? NULL : dash_keydef_of(ch);
    if (k && k->after_pane)
        k->act(d, ch);
    if (d->view.selected_node >= nvis)
        d->view.selected_node = nvis ? nvis - 1 : 0;
}

/* Offers ch to the focused pane alone; 1 when it took it. */
static int pane_offer(dash *d, int ch)
{
    if ((size_t)d->view.focus >= d->npanes)
        return 0;
    dash_pane *p = &d->panes[d->view.focus];
    if (!p->vt->on_key)
        return 0;
    pane_ctx ctx;
    key_ctx(d, &ctx);
    int used = p->vt->on_key(p->p, ch, &ctx);
    p->dirty |= used;
    return used;
}

static int pane_modal(dash *d)
{
    if ((size_t)d->view.focus >= d->npanes)
        return 0;
    const dash_pane *p = &d->panes[d->view.focus];
    return p->vt->modal && p->vt->modal(p->p);
}

/* The newest sample of the snapshot on screen (0 before the first): what
 * the window the user sees ends at. */
static int64_t newest_us(dash *d)
{
    const viewdata *vd = d->snap ? viewsnap_view(d->snap) : NULL;
    return vd ? viewdata_newest_us(vd) : 0;
}

/* ---- what each key of the table does: 1 when done, 0 to offer the key
 * to the focused pane after all. */

static int key_quit(dash *d, int ch)
{
    (void)ch;
    d->quit = DASH_QUIT_KEY;
    return 1;
}

static int key_help(dash *d, int ch)
{
    (void)ch;
    d->help_on = 1;
    d->help_top = 0;
    return 1;
}

static int key_warnings(dash *d, int ch)
{
    close_help(d);
    dash_warn_open(d, ch == '!' ? DASH_VIEW_WHY : DASH_VIEW_WARN);
    return 1;
}

static int key_pane_move(dash *d, int ch)
{
    int back = ch == 'h' || ch == KEY_LEFT || ch == KEY_BTAB;
    set_focus(d, d->view.focus + (back ? -1 : 1));
    return 1;
}

static int key_node_move(dash *d, int ch)
{
    view_state *v = &d->view;
    if (ch == KEY_DOWN || ch == 'j') {
        if (v->selected_node + 1 < visible_nodes(d))
            v->selected_node++;
    } else if (v->selected_node > 0) {
        v->selected_node--;
    }
    return 1;
}

static int key_per_core(dash *d, int ch)
{
    (void)ch;
    d->view.per_core = !d->view.per_core;
    return 1;
}

static int key_zoom_pane(dash *d, int ch)
{
    (void)ch;
    set_zoom(d, 1);
    return 1;
}

/* Innermost layer first: zoom, a pane's kept filter, the step focus
 * (view.h), then the node filter, then back to the job list. */
static int key_esc(dash *d, int ch)
{
    if (view_esc_target(&d->view) == VIEW_ESC_ZOOM)
        set_zoom(d, 0);
    else if (pane_offer(d, ch))
        return 1;
    else if (view_esc_target(&d->view) == VIEW_ESC_STEP)
        view_clear_step(&d->view);
    else if (d->view.filter[0]) {
        d->view.filter[0] = '\0';
        d->view.selected_node = 0;
        dash_notice(d, "node filter cleared");
    } else if (d->o->esc_back) {
        d->quit = DASH_QUIT_KEY;   /* back to the job list */
    }
    return 1;
}

static int key_filter(dash *d, int ch)
{
    if (pane_offer(d, ch))   /* a pane with a filter of its own */
        return 1;
    snprintf(d->filter_before, sizeof d->filter_before, "%s", d->view.filter);
    d->filter_edit = 1;
    return 1;
}

static int key_command(dash *d, int ch)
{
    (void)ch;
    dash_cmd_begin(d);
    return 1;
}

static int key_pause(dash *d, int ch)
{
    (void)ch;
    /* Pausing under a step focus would change nothing visible. */
    if (d->view.step_focus)
        dash_notice(d, "showing one step: Esc returns, 0 goes live");
    else
        view_toggle_pause(&d->view, newest_us(d));
    return 1;
}

/* Zoom and scrub while focused leave the focus into HISTORY centred on
 * the step, then act: the user keeps their place in time. */
static int key_zoom(dash *d, int ch)
{
    view_leave_step(&d->view);
    view_zoom(&d->view, ch == '+' || ch == '=');
    keep_inside(d);   /* - stays inside the job */
    return 1;
}

static int key_scrub(dash *d, int ch)
{
    view_leave_step(&d->view);
    view_scrub(&d->view, ch == ']', newest_us(d));
    keep_inside(d);
    return 1;
}

static int key_live(dash *d, int ch)
{
    (void)ch;
    view_go_live(&d->view);
    return 1;
}

static int key_fit(dash *d, int ch)
{
    (void)ch;
    const viewdata *vd = d->snap ? viewsnap_view(d->snap) : NULL;
    if (vd && viewdata_newest_us(vd) > 0)
        view_fit(&d->view, viewdata_first_us(vd), viewdata_newest_us(vd));
    else
        dash_notice(d, "no data to fit the window to yet");
    return 1;
}

static int key_look(dash *d, int ch)
{
    if (ch == 't')
        cycle_theme(d);
    else
        cycle_glyphs(d);
    return 1;
}

/* 1-8: pane N on or off; a number past the panes goes to the pane. */
static int key_pane_toggle(dash *d, int ch)
{
    if ((size_t)(ch - '1') >= d->npanes)
        return 0;
    dash_panes_toggle(d, (size_t)(ch - '1'));
    return 1;
}

static int key_preset(dash *d, int ch)
{
    (void)ch;
    dash_panes_next_preset(d);
    return 1;
}

static int key_repaint(dash *d, int ch)
{
    (void)ch;
    dash_mark_all(d);
    clearok(curscr, TRUE);
    return 1;
}

/* The dashboard's keys: dispatch (dash_key), the help overlay
 * (dash_help.c) and its lines are read from this one table, in help
 * order. A row without codes is help only (the mouse is an event, not a
 * key); a row without `what` is a key the help shows elsewhere (`c`: the
 * System pane's table). Descriptions fit 23 cells: the two-column
 * overlay on 80x24. */
const dash_keydef dash_keys[] = {
    {{'q', 'Q', 3}, {"q  Ctrl-C", NULL, "quit"}, 0, key_quit},   /* 3: Ctrl-C without ISIG */
    {{'?', KEY_F(1)}, {"?  F1", NULL, "this help"}, 0, key_help},
    {{'!'}, {"!", NULL, "findings: cause, fix"}, 0, key_warnings},
    {{'W'}, {"W", NULL, "warnings: file, line"}, 0, key_warnings},
    {{'h', 'l', KEY_LEFT, KEY_RIGHT}, {"h l  Lt Rt", NULL, "previous / next pane"}, 1,
     key_pane_move},
    {{'\t', KEY_BTAB}, {"Tab S-Tab", NULL, "next / previous pane"}, 0, key_pane_move},
    {{'j', 'k', KEY_DOWN, KEY_UP}, {"j k  Dn Up", NULL, "next / previous node"}, 1,
     key_node_move},
    {{'\n', '\r', KEY_ENTER}, {"Enter", NULL, "zoom the pane"}, 0, key_zoom_pane},
    {{27}, {"Esc", NULL, "back; clears a filter"}, 0, key_esc},
    {{'/'}, {"/", NULL, "filter nodes: a|b ^ $"}, 0, key_filter},
    {{':'}, {":", NULL, "command :set R.p=v :q"}, 0, key_command},
    {{' '}, {"space", NULL, "pause / resume live"}, 0, key_pause},
    {{'+', '=', '-', '_'}, {"+  -", NULL, "zoom time range in/out"}, 0, key_zoom},
    {{'[', ']'}, {"[  ]", NULL, "scrub back / forward"}, 0, key_scrub},
    {{'0'}, {"0", NULL, "live, zoom reset"}, 0, key_live},
    {{'a'}, {"a", NULL, "fit window to the job"}, 0, key_fit},
    {{'t', 'g'}, {"t  g", NULL, "theme / graph symbols"}, 0, key_look},
    {{'1', '2', '3', '4', '5', '6', '7', '8'}, {"1-7  p", NULL, "pane N on/off; layouts"}, 0,
     key_pane_toggle},
    {{'p'}, {"p", NULL, NULL}, 0, key_preset},
    {{12}, {"Ctrl-L", NULL, "repaint the screen"}, 0, key_repaint},
    {{0}, {"mouse", NULL, "click selects, wheel scrolls"}, 0, NULL},
    {{'c'}, {"c", NULL, NULL}, 1, key_per_core},
    {{0}, {NULL, NULL, NULL}, 0, NULL},
};

const dash_keydef *dash_keydef_of(int ch)
{
    for (const dash_keydef *k = dash_keys; k->show.keys; k++)
        for (size_t i = 0; i < DASH_KEY_CODES && k->codes[i]; i++)
            if (k->codes[i] == ch)
                return k;
    return NULL;
}

void dash_key(dash *d, int ch)
{
    if (ch == KEY_RESIZE) {
        dash_relayout(d);
        return;
    }
    if (ch == KEY_MOUSE) {
        click(d);
        return;
    }
    if (d->filter_edit) {
        filter_key(d, ch);
        return;
    }
    if (d->cmd_edit) {
        dash_cmd_key(d, ch);
        return;
    }
    if (d->warn_on) {
        dash_warn_key(d, ch);
        return;
    }
    if (d->help_on) {
        if (ch == 3)
            d->quit = DASH_QUIT_KEY;
        else if (dash_help_key(d, ch))   /* ?, q or Esc; j/k and pages scroll */
            close_help(d);
        return;
    }
    if (d->lay.too_small && ch != 'q' && ch != 3)
        return;
    if (pane_modal(d)) {
        pane_offer(d, ch);
        return;
    }
    const dash_keydef *k = dash_keydef_of(ch);
    if (k && !k->after_pane && k->act(d, ch))
        return;
    focused_key(d, ch);
}
