/* dash_keys: what each key does. Global keys first; the focused pane sees
 * the rest before the defaults (selection and focus movement) apply. The
 * help overlay is generated from dash_global_keys and each pane's table.
 * Keys and clicks read the loader's snapshot on screen (d->snap), never
 * the model: they take no lock, so none waits behind the loader's ingest. */
#include "tui/dash/dash_internal.h"

#include "tui/panes/pane_common.h"

#include <ctype.h>
#include <string.h>

const pane_key dash_global_keys[] = {
    /* Descriptions fit 23 cells: the two-column overlay on 80x24. */
    {"q  Ctrl-C", NULL, "quit"},
    {"?  F1", NULL, "this help"},
    {"W", NULL, "warnings: file, line"},
    {"h l  Lt Rt", NULL, "previous / next pane"},
    {"Tab S-Tab", NULL, "next / previous pane"},
    {"j k  Dn Up", NULL, "next / previous node"},
    {"Enter", NULL, "zoom the pane"},
    {"Esc", NULL, "back; clears a filter"},
    {"/", NULL, "filter nodes: a|b ^ $"},
    {":", NULL, "command :set R.p=v :q"},
    {"space", NULL, "pause / resume live"},
    {"+  -", NULL, "zoom time range in/out"},
    {"[  ]", NULL, "scrub back / forward"},
    {"0", NULL, "live, zoom reset"},
    {"a", NULL, "fit window to the job"},
    {"t  g", NULL, "theme / graph symbols"},
    {"1-7  p", NULL, "pane N on/off; layouts"},
    {"Ctrl-L", NULL, "repaint the screen"},
    {"mouse", NULL, "click selects, wheel scrolls"},
    {NULL, NULL, NULL},
};

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
    const viewdata *vd = d->snap ? derived_view(d->snap) : NULL;
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

/* Keys the focused pane did not take. */
static void default_key(dash *d, int ch, size_t nvis)
{
    view_state *v = &d->view;
    switch (ch) {
    case KEY_DOWN: case 'j':
        if (v->selected_node + 1 < nvis)
            v->selected_node++;
        break;
    case KEY_UP: case 'k':
        if (v->selected_node > 0)
            v->selected_node--;
        break;
    case KEY_RIGHT: case 'l':
        set_focus(d, v->focus + 1);
        break;
    case KEY_LEFT: case 'h':
        set_focus(d, v->focus - 1);
        break;
    case 'c':
        v->per_core = !v->per_core;
        break;
    }
}

/* Offers ch to the focused pane, then applies the default. */
static void focused_key(dash *d, int ch)
{
    pane_ctx ctx;
    key_ctx(d, &ctx);
    /* The snapshot's nodes under the filter as typed now. */
    size_t nvis = pane_common_visible_nodes(&ctx, NULL, 0);
    int used = 0;
    if ((size_t)d->view.focus < d->npanes) {
        dash_pane *p = &d->panes[d->view.focus];
        if (p->vt->on_key) {
            used = p->vt->on_key(p->p, ch, &ctx);
            p->dirty |= used;   /* its own key: redrawn even while backfilling */
        }
    }
    if (!used)
        default_key(d, ch, nvis);
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
    const viewdata *vd = d->snap ? derived_view(d->snap) : NULL;
    return vd ? viewdata_newest_us(vd) : 0;
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
    switch (ch) {
    case 'q': case 'Q': case 3:              /* 3: Ctrl-C without ISIG */
        d->quit = DASH_QUIT_KEY;
        return;
    case 'W':
        close_help(d);
        dash_warn_open(d);
        return;
    case '?': case KEY_F(1):
        d->help_on = 1;
        d->help_top = 0;
        return;
    case '\t':
        set_focus(d, d->view.focus + 1);
        return;
    case KEY_BTAB:
        set_focus(d, d->view.focus - 1);
        return;
    case '\n': case '\r': case KEY_ENTER:
        set_zoom(d, 1);
        return;
    case 27:
        /* Innermost layer first: zoom, a pane's kept filter, the step
         * focus (view.h), then the node filter. */
        if (view_esc_target(&d->view) == VIEW_ESC_ZOOM)
            set_zoom(d, 0);
        else if (pane_offer(d, ch))
            return;
        else if (view_esc_target(&d->view) == VIEW_ESC_STEP)
            view_clear_step(&d->view);
        else if (d->view.filter[0]) {
            d->view.filter[0] = '\0';
            d->view.selected_node = 0;
            dash_notice(d, "node filter cleared");
        } else if (d->o->esc_back) {
            d->quit = DASH_QUIT_KEY;   /* back to the job list */
        }
        return;
    case '/':
        if (pane_offer(d, ch))   /* a pane with a filter of its own */
            return;
        snprintf(d->filter_before, sizeof d->filter_before, "%s", d->view.filter);
        d->filter_edit = 1;
        return;
    case ':':
        dash_cmd_begin(d);
        return;
    case ' ':
        /* Pausing under a step focus would change nothing visible. */
        if (d->view.step_focus)
            dash_notice(d, "showing one step: Esc returns, 0 goes live");
        else
            view_toggle_pause(&d->view, newest_us(d));
        return;
    /* Zoom and scrub while focused leave the focus into HISTORY centred on
     * the step, then act: the user keeps their place in time. */
    case '+': case '=': case '-': case '_': case '[': case ']':
        view_leave_step(&d->view);
        if (ch == '+' || ch == '=' || ch == '-' || ch == '_')
            view_zoom(&d->view, ch == '+' || ch == '=');
        else
            view_scrub(&d->view, ch == ']', newest_us(d));
        keep_inside(d);
        return;
    case '0':
        view_go_live(&d->view);
        return;
    case 'a': {
        const viewdata *vd = d->snap ? derived_view(d->snap) : NULL;
        if (vd && viewdata_newest_us(vd) > 0)
            view_fit(&d->view, viewdata_first_us(vd), viewdata_newest_us(vd));
        else
            dash_notice(d, "no data to fit the window to yet");
        return;
    }
    case 't':
        cycle_theme(d);
        return;
    case 'p':
        dash_panes_next_preset(d);
        return;
    case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8':
        if ((size_t)(ch - '1') < d->npanes) {
            dash_panes_toggle(d, (size_t)(ch - '1'));
            return;
        }
        break;
    case 'g':
        cycle_glyphs(d);
        return;
    case 12:                                 /* Ctrl-L: repaint everything */
        dash_mark_all(d);
        clearok(curscr, TRUE);
        return;
    }
    focused_key(d, ch);
}
