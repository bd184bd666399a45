/* theme_curses: the one place that turns theme colors into curses color
 * pairs and attributes (see theme.h). Pair numbers: 1..ROLE_COUNT-1 for the
 * roles, then one per gradient step. */
#include "tui/theme/theme_internal.h"

#include <curses.h>
#include <term.h>
#include <stdlib.h>
#include <string.h>

#define PAIR_HEAT0 ROLE_COUNT

/* Emphasis that survives without color (NO_COLOR, monochrome terminals). */
static int role_flags(theme_role r, theme_depth d)
{
    switch (r) {
    case ROLE_TITLE: case ROLE_BORDER_FOCUS: case ROLE_ERROR:
    case ROLE_STEP_OUTLIER: case ROLE_ALERT_HIGH: case ROLE_MARK_P99:
        return A_BOLD;
    case ROLE_STATUS_LIVE: case ROLE_STATUS_PAUSED:
        return A_BOLD | A_REVERSE;
    case ROLE_SELECTED:
        return A_REVERSE;
    case ROLE_DIM:
        return d == THEME_MONO ? A_DIM : 0;
    default:
        return 0;
    }
}

/* Curses color number for rgb at depth; -1 = terminal default. */
static int color_for(unsigned rgb, theme_depth d, int *bold)
{
    *bold = 0;
    if (rgb == THEME_BG_DEFAULT)
        return -1;
    if (d == THEME_TRUECOLOR)
        return (int)rgb;
    if (d == THEME_256)
        return theme_reduce_256(rgb);
    int c = theme_reduce_16(rgb);
    if (c >= 8 && COLORS < 16) {
        /* Eight-color terminals show the bright half as bold. */
        *bold = A_BOLD;
        c -= 8;
    }
    return c;
}

static int make_pair(int pair, unsigned fg_rgb, unsigned bg_rgb, theme_depth d)
{
    int bold, unused;
    int fg = color_for(fg_rgb, d, &bold), bg = color_for(bg_rgb, d, &unused);
    if (init_extended_pair(pair, fg, bg) == ERR)
        return 0;
    return COLOR_PAIR(pair) | bold;
}

int theme_apply(theme *t, theme_depth depth)
{
    t->depth = depth;
    if (depth != THEME_MONO && start_color() == ERR)
        depth = t->depth = THEME_MONO;
    if (depth != THEME_MONO) {
        /* Pair 0 (every cell not drawn with a role) takes the theme's
         * default ink and background; "default" keeps the terminal's. */
        int b1, b2;
        if (assume_default_colors(color_for(t->rgb[ROLE_DEFAULT], depth, &b1),
                                  color_for(t->background, depth, &b2)) == ERR)
            depth = t->depth = THEME_MONO;
    }
    if (depth != THEME_MONO && COLOR_PAIRS <= PAIR_HEAT0 + THEME_GRADIENT_STEPS)
        depth = t->depth = THEME_MONO;
    for (int r = 0; r < ROLE_COUNT; r++) {
        t->attr[r] = role_flags((theme_role)r, depth);
        if (depth != THEME_MONO && r > 0)
            t->attr[r] |= make_pair(r, t->rgb[r], t->background, depth);
    }
    for (int i = 0; i < THEME_GRADIENT_STEPS; i++) {
        if (depth == THEME_MONO) {
            /* Brightness steps stand in for the gradient. */
            t->heat_attr[i] = i < THEME_GRADIENT_STEPS / 3 ? A_DIM
                              : i >= 2 * THEME_GRADIENT_STEPS / 3 ? A_BOLD : 0;
        } else {
            /* The heat color is the cell background: blocks of color read
             * at a glance, and text drawn on them keeps the default ink. */
            t->heat_attr[i] = make_pair(PAIR_HEAT0 + i, t->rgb[ROLE_DEFAULT],
                                        t->gradient[i], depth);
        }
    }
    return 0;
}

int theme_attr(const theme *t, theme_role role)
{
    return (unsigned)role < ROLE_COUNT ? t->attr[role] : 0;
}

int theme_heat_attr(const theme *t, double pos)
{
    if (!(pos > 0))
        pos = 0;
    if (pos > 1)
        pos = 1;
    return t->heat_attr[(int)(pos * (THEME_GRADIENT_STEPS - 1) + 0.5)];
}

theme_depth theme_detect_depth(int no_color_flag)
{
    const char *nc = getenv("NO_COLOR");
    if (no_color_flag || (nc && nc[0]) || !has_colors())
        return THEME_MONO;
    /* ncurses can only emit 24-bit colors through a direct-color terminfo
     * entry (COLORS = 2^24, e.g. TERM=xterm-direct); COLORTERM=truecolor
     * with a 256-color entry still has to go through the palette. */
    int colors = tigetnum("colors");   /* COLORS is only set by start_color */
    if (colors >= 0x1000000)
        return THEME_TRUECOLOR;
    if (colors >= 256)
        return THEME_256;
    if (colors >= 8)
        return THEME_16;
    return THEME_MONO;
}
