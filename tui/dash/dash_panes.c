/* dash_panes: which panes are on screen. A pane whose data the job does
 * not have (a system-only job has no framework trace events, a
 * framework-only one no system metrics, most jobs no Python stats) gives
 * its space to the others, so the first pane with data takes the main
 * slot; digits 1-7 show or hide a
 * pane by its number (btop); `p` cycles presets. The choice is saved to
 * smtop.conf on exit with the theme and symbols. */
#include "tui/dash/dash_internal.h"

#include <stdio.h>
#include <string.h>

#include "tui/conf/conf_file.h"

/* Pane ids each preset shows; NULL = every pane with data ("auto") or
 * every pane ("all"). */
typedef struct preset {
    const char *name;
    const char *const *ids;
    int all;
} preset;

static const char *const cluster_ids[] = {"system", "heatmap", "alerts", "diff", NULL};
static const char *const training_ids[] = {"steps", "timeline", "python", "alerts", "diff",
                                           NULL};
static const preset presets[] = {
    {"auto", NULL, 0},
    {"all", NULL, 1},
    {"cluster", cluster_ids, 0},
    {"training", training_ids, 0},
};
#define NPRESETS (sizeof presets / sizeof presets[0])

const char *dash_panes_preset_name(int k)
{
    return presets[((k % (int)NPRESETS) + (int)NPRESETS) % (int)NPRESETS].name;
}

int dash_panes_preset_find(const char *name)
{
    for (size_t i = 0; i < NPRESETS; i++)
        if (!strcmp(presets[i].name, name))
            return (int)i;
    return -1;
}

static int in_list(const char *const *ids, const char *id)
{
    for (; *ids; ids++)
        if (!strcmp(*ids, id))
            return 1;
    return 0;
}

/* Bit i set: pane i is on screen. Never empty: with nothing left, the
 * first pane stays. Fills d->absent_note with what the job lacks. */
uint32_t dash_panes_shown(dash *d, const pane_ctx *ctx)
{
    const preset *pr = &presets[d->preset];
    uint32_t mask = 0;
    char note[sizeof d->absent_note] = "", brief[sizeof d->absent_short] = "";
    size_t nl = 0, bl = 0;
    for (size_t i = 0; i < d->npanes; i++) {
        const pane_vtbl *vt = d->panes[i].vt;
        const char *why = vt->absent ? vt->absent(d->panes[i].p, ctx) : NULL;
        int on = pr->all || (pr->ids ? in_list(pr->ids, vt->id) : !why);
        if (d->pane_mode[i])
            on = d->pane_mode[i] > 0;
        if (on)
            mask |= 1u << i;
        /* Name each absent kind of data once ("no framework traces, no
         * Python stats"), and in one word each ("no traces, no Python"). */
        const char *bar = why ? strchr(why, '|') : NULL;
        int wl = why ? (int)(bar ? (size_t)(bar - why) : strlen(why)) : 0;
        const char *word = bar ? bar + 1 : why;
        char item[96];
        snprintf(item, sizeof item, "no %.*s", wl, why ? why : "");
        if (why && !strstr(note, item) && nl + strlen(item) + 3 < sizeof note) {
            nl += (size_t)snprintf(note + nl, sizeof note - nl, "%s%s", nl ? ", " : "", item);
            if (bl + strlen(word) + 6 < sizeof brief)
                bl += (size_t)snprintf(brief + bl, sizeof brief - bl, "%sno %s",
                                       bl ? ", " : "", word);
        }
    }
    snprintf(d->absent_note, sizeof d->absent_note, "%s", note);
    snprintf(d->absent_short, sizeof d->absent_short, "%s", brief);
    return mask ? mask : 1u;
}

static int say_of(dash *d, size_t i, const pane_ctx *ctx)
{
    const pane_vtbl *vt = d->panes[i].vt;
    return vt->say ? vt->say(d->panes[i].p, ctx) : 0;
}

/* The pane that gets the widest slot: of the shown panes but the main
 * one, the one that says the most (pane_vtbl.say). Decided once per
 * snapshot, and a new pane takes the slot only when it says clearly more
 * than the one there (half as much again, and two lines more), so the
 * panes do not trade places as counts tick up and down. -1: none. */
static int pick_wide(dash *d, const pane_ctx *ctx, uint32_t mask)
{
    const dash_ext *ext = ctx->ext;
    uint64_t gen = ext && ext->snap ? viewsnap_generation(ext->snap) : 0;
    int cur = d->wide_pick;
    size_t main = 0;
    while (main < d->npanes && !((mask >> main) & 1u))
        main++;
    int ok = cur >= 0 && (size_t)cur != main && ((mask >> cur) & 1u);
    if (ok && gen == d->wide_gen)
        return cur;
    d->wide_gen = gen;
    int best = -1, best_say = 0;
    for (size_t i = main + 1; i < d->npanes; i++) {
        int s = (mask >> i) & 1u ? say_of(d, i, ctx) : 0;
        if (s > 0 && s >= best_say)   /* a tie: the later pane, as without a pick */
            best = (int)i, best_say = s;
    }
    if (!ok || best < 0)
        return best;
    int cs = say_of(d, (size_t)cur, ctx);
    return best_say > cs + cs / 2 + 2 ? best : cur;
}

void dash_panes_update(dash *d, const pane_ctx *ctx)
{
    uint32_t m = dash_panes_shown(d, ctx);
    int wide = pick_wide(d, ctx, m);
    if (m == d->shown_mask && wide == d->wide_pick)
        return;
    d->wide_pick = wide;
    d->shown_mask = m;
    /* A hidden pane gives the focus to the first shown one, and takes it
     * back when it is shown again if the user has not moved it since: a
     * pane toggled off and on, or one focused in the first frame (which
     * shows every pane) that then waits for its data. */
    if (d->focus_want >= 0 && (m & (1u << d->focus_want)))
        d->view.focus = d->focus_want;
    else if (!(m & (1u << d->view.focus)))
        for (size_t i = 0; i < d->npanes; i++)
            if (m & (1u << i)) {
                d->view.focus = (int)i;
                break;
            }
    dash_relayout(d);
}

void dash_panes_toggle(dash *d, size_t i)
{
    if (i >= d->npanes)
        return;
    int on = (d->shown_mask >> i) & 1u;
    d->pane_mode[i] = on ? -1 : 1;
    char note[96];
    snprintf(note, sizeof note, "%s %s (%zu toggles it)", d->panes[i].vt->title,
             on ? "hidden" : "shown", i + 1);
    dash_notice(d, note);
    d->shown_mask = 0;   /* recomputed and laid out on the next frame */
}

void dash_panes_next_preset(dash *d)
{
    d->preset = (d->preset + 1) % (int)NPRESETS;
    memset(d->pane_mode, 0, sizeof d->pane_mode);
    char note[96];
    snprintf(note, sizeof note, "layout: %s (p for the next)", presets[d->preset].name);
    dash_notice(d, note);
    d->shown_mask = 0;
}

/* "id,id" of the panes whose mode is `want` (+1 shown, -1 hidden). */
static void mode_list(const dash *d, int want, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    for (size_t i = 0; i < d->npanes && n < cap; i++)
        if (d->pane_mode[i] == want)
            n += (size_t)snprintf(out + n, cap - n, "%s%s", n ? "," : "", d->panes[i].vt->id);
}

void dash_panes_configure(dash *d, const char *layout, const char *shown, const char *hidden)
{
    int k = layout ? dash_panes_preset_find(layout) : -1;
    d->preset = k < 0 ? 0 : k;
    for (size_t i = 0; i < d->npanes; i++) {
        const char *id = d->panes[i].vt->id;
        size_t len = strlen(id);
        for (int pass = 0; pass < 2; pass++) {
            const char *list = pass ? hidden : shown;
            for (const char *s = list; s && (s = strstr(s, id)); s += len)
                if ((s == list || s[-1] == ',') && (s[len] == ',' || s[len] == '\0'))
                    d->pane_mode[i] = pass ? -1 : 1;
        }
    }
}

int dash_panes_save(const dash *d, sm_err *err)
{
    char path[1024], shown[256], hidden[256];
    if (conf_file_path("smtop.conf", path, sizeof path) < 0)
        return 0;
    mode_list(d, 1, shown, sizeof shown);
    mode_list(d, -1, hidden, sizeof hidden);
    const char *keys[] = {"layout", "shown", "hidden", "theme", "symbols"};
    const char *vals[] = {presets[d->preset].name, shown, hidden, theme_name(d->th),
                          chart_glyphs_name(d->view.glyphs)};
    return conf_file_update(path, keys, vals, sizeof keys / sizeof keys[0], err);
}
