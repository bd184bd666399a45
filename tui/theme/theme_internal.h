/* theme_internal: the theme struct shared by the pure parser (theme.c) and
 * the curses side (theme_curses.c). Not for panes: they use theme.h. */
#ifndef SMTOP_THEME_INTERNAL_H
#define SMTOP_THEME_INTERNAL_H

#include "tui/theme/theme.h"

#define THEME_BG_DEFAULT 0xFFFFFFFFu   /* "background = default": terminal's own */

struct theme {
    char name[64];
    unsigned rgb[ROLE_COUNT];
    unsigned heat[3];                  /* heat_start / _mid / _end */
    unsigned gradient[THEME_GRADIENT_STEPS];
    unsigned background;               /* THEME_BG_DEFAULT or 0xRRGGBB */
    /* Filled by theme_apply. */
    int attr[ROLE_COUNT];
    int heat_attr[THEME_GRADIENT_STEPS];
    theme_depth depth;
};

/* Built-in theme texts (tui/theme/theme_builtin.c), so a missing themes/
 * directory still works. NULL when name is not built in. */
const char *theme_builtin_text(const char *name);
size_t theme_builtin_count(void);
const char *theme_builtin_name(size_t i);

#endif
