/* theme: colors by semantic role, loaded from plain-text theme files.
 *
 * Panes never pick color pairs: they ask for theme_attr(th, ROLE) and get
 * a curses attribute. A theme file holds `role = "#rrggbb"` lines and
 * comments (#, ;), gradients as `<role>_start/_mid/_end`; it is merged key
 * by key over the built-in defaults, unknown keys produce a warning (not an
 * error). Colors are reduced once on load to what the terminal has
 * (truecolor → 256 → 16 → monochrome attributes), and NO_COLOR/--no-color
 * give attributes only (bold/reverse/dim), never a color escape. */
#ifndef SMTOP_THEME_H
#define SMTOP_THEME_H

#include <stddef.h>

#include "model/util/sm_err.h"

typedef enum theme_role {
    ROLE_DEFAULT = 0,
    ROLE_TITLE,        /* pane titles */
    ROLE_BORDER,
    ROLE_BORDER_FOCUS, /* border of the focused pane */
    ROLE_LABEL,        /* axis labels, column headers */
    ROLE_DIM,          /* secondary text, "no data" */
    ROLE_STATUS,       /* header/status line background text */
    ROLE_STATUS_LIVE,  /* "LIVE" badge */
    ROLE_STATUS_PAUSED,
    ROLE_ERROR,        /* error text in the status line */
    ROLE_SELECTED,     /* selected row / node */
    ROLE_GRAPH_CPU,
    ROLE_GRAPH_GPU,
    ROLE_GRAPH_GPUMEM,
    ROLE_GRAPH_MEM,
    ROLE_GRAPH_IO,
    ROLE_GRAPH_NET,
    ROLE_GRAPH_OTHER,
    ROLE_STEP_BAR,     /* histogram bars */
    ROLE_STEP_OUTLIER,
    ROLE_MARK_P50,
    ROLE_MARK_P95,
    ROLE_MARK_P99,
    ROLE_ALERT_HIGH,   /* severity colors for alerts */
    ROLE_ALERT_MED,
    ROLE_ALERT_LOW,
    ROLE_OK,
    ROLE_COUNT
} theme_role;

/* Gradient used for heatmaps and utilization-colored graphs. */
#define THEME_GRADIENT_STEPS 8

typedef struct theme theme;

/* Color capability of the terminal, decided once by the caller. */
typedef enum theme_depth {
    THEME_MONO = 0,    /* NO_COLOR, --no-color, or no color support */
    THEME_16,
    THEME_256,
    THEME_TRUECOLOR
} theme_depth;

/* Parses theme text over the built-in defaults. `warnings` (may be NULL)
 * receives one line per unknown key or bad value, up to wcap bytes total.
 * Returns NULL with err set only for unreadable input; a malformed line is
 * a warning and the default stays. Pure: no curses calls. */
theme *theme_parse(const char *text, size_t len, const char *origin,
                   char *warnings, size_t wcap, sm_err *err);
/* The built-in default theme. NULL on OOM. */
theme *theme_default(void);
/* Finds NAME in $XDG_CONFIG_HOME/smtop/themes/NAME.theme (user themes
 * override built-ins), then the built-in theme directory, or treats it as
 * a path when it contains '/'. NULL with err when not found. */
theme *theme_load(const char *name_or_path, char *warnings, size_t wcap,
                  sm_err *err);
void theme_free(theme *t);
const char *theme_name(const theme *t);

/* Names of the themes that `t` cycles through, in order (built-ins plus user
 * themes found at load time): fills out (up to max), returns count. */
size_t theme_list(char names[][64], size_t max, sm_err *err);

/* RGB of a role / gradient position (0..1), for tests and for reduction. */
unsigned theme_rgb(const theme *t, theme_role role);
unsigned theme_gradient_rgb(const theme *t, double pos);

/* Pure color reduction by squared RGB distance: the nearest xterm
 * 256-color index (16..255: the 6x6x6 cube or the gray ramp), and one of
 * the 16 ANSI colors (xterm palette values) — the nearest gray for nearly
 * gray input (max-min channel < 48), else the nearest of the 12 chromatic
 * colors, so a muted green stays green instead of turning gray. */
int theme_reduce_256(unsigned rgb);
int theme_reduce_16(unsigned rgb);

/* Curses side (tui/theme/theme_curses.c): after initscr/start_color, allocates
 * pairs for every role and gradient step at the given depth. */
int theme_apply(theme *t, theme_depth depth);
/* Attribute for a role (color pair | A_BOLD etc.), valid after theme_apply. */
int theme_attr(const theme *t, theme_role role);
/* Attribute for utilization-like position 0..1 on the heat gradient. */
int theme_heat_attr(const theme *t, double pos);
/* Detects the depth from NO_COLOR, COLORTERM, COLORS. */
theme_depth theme_detect_depth(int no_color_flag);

#endif
