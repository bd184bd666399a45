/* theme: pure parsing, merging over defaults, gradients and color
 * reduction (see theme.h). File lookup lives in theme_load.c, curses in
 * theme_curses.c. */
#include "tui/theme/theme_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const role_keys[ROLE_COUNT] = {
    [ROLE_DEFAULT] = "default",         [ROLE_TITLE] = "title",
    [ROLE_BORDER] = "border",           [ROLE_BORDER_FOCUS] = "border.focus",
    [ROLE_LABEL] = "label",             [ROLE_DIM] = "dim",
    [ROLE_STATUS] = "status",           [ROLE_STATUS_LIVE] = "status.live",
    [ROLE_STATUS_PAUSED] = "status.paused", [ROLE_ERROR] = "error",
    [ROLE_SELECTED] = "selected",       [ROLE_GRAPH_CPU] = "graph.cpu",
    [ROLE_GRAPH_GPU] = "graph.gpu",     [ROLE_GRAPH_GPUMEM] = "graph.gpumem",
    [ROLE_GRAPH_MEM] = "graph.mem",     [ROLE_GRAPH_IO] = "graph.io",
    [ROLE_GRAPH_NET] = "graph.net",     [ROLE_GRAPH_OTHER] = "graph.other",
    [ROLE_STEP_BAR] = "step.bar",       [ROLE_STEP_OUTLIER] = "step.outlier",
    [ROLE_MARK_P50] = "mark.p50",       [ROLE_MARK_P95] = "mark.p95",
    [ROLE_MARK_P99] = "mark.p99",       [ROLE_ALERT_HIGH] = "alert.high",
    [ROLE_ALERT_MED] = "alert.med",     [ROLE_ALERT_LOW] = "alert.low",
    [ROLE_OK] = "ok",
};

/* Gradient stops; `heat.low/mid/high` are accepted as aliases. */
static const char *const heat_keys[3][2] = {
    {"heat_start", "heat.low"}, {"heat_mid", "heat.mid"}, {"heat_end", "heat.high"}};

/* Appends one formatted warning line to w (bounded, always terminated). */
static void warn(char *w, size_t cap, const char *fmt, ...)
{
    if (!w || cap == 0)
        return;
    size_t used = strnlen(w, cap - 1);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(w + used, cap - used, fmt, ap);
    va_end(ap);
    if (n >= 0 && used + (size_t)n + 1 < cap) {
        w[used + n] = '\n';
        w[used + n + 1] = '\0';
    }
}

static unsigned lerp_rgb(unsigned a, unsigned b, double f)
{
    unsigned out = 0;
    for (int sh = 16; sh >= 0; sh -= 8) {
        double ca = (a >> sh) & 0xFF, cb = (b >> sh) & 0xFF;
        out |= (unsigned)(ca + (cb - ca) * f + 0.5) << sh;
    }
    return out;
}

static unsigned gradient_at(const theme *t, double pos)
{
    if (!(pos > 0))
        pos = 0;
    if (pos > 1)
        pos = 1;
    if (pos < 0.5)
        return lerp_rgb(t->heat[0], t->heat[1], pos * 2);
    return lerp_rgb(t->heat[1], t->heat[2], (pos - 0.5) * 2);
}

static void theme_finish(theme *t)
{
    for (int i = 0; i < THEME_GRADIENT_STEPS; i++)
        t->gradient[i] = gradient_at(t, (double)i / (THEME_GRADIENT_STEPS - 1));
}

/* "#rrggbb" (quotes optional) or "default". -1 when malformed. */
static int parse_color(const char *v, size_t n, unsigned *out)
{
    if (n >= 2 && v[0] == '"' && v[n - 1] == '"')
        v++, n -= 2;
    if (n == 7 && strncmp(v, "default", 7) == 0) {
        *out = THEME_BG_DEFAULT;
        return 0;
    }
    if (n != 7 || v[0] != '#')
        return -1;
    unsigned x = 0;
    for (size_t i = 1; i < 7; i++) {
        if (!isxdigit((unsigned char)v[i]))
            return -1;
        x = x * 16 + (unsigned)(isdigit((unsigned char)v[i])
                                    ? v[i] - '0' : tolower((unsigned char)v[i]) - 'a' + 10);
    }
    *out = x;
    return 0;
}

/* The slot a key names, or NULL when unknown. */
static unsigned *slot_for(theme *t, const char *key)
{
    for (int r = 0; r < ROLE_COUNT; r++)
        if (!strcmp(key, role_keys[r]))
            return &t->rgb[r];
    for (int i = 0; i < 3; i++)
        if (!strcmp(key, heat_keys[i][0]) || !strcmp(key, heat_keys[i][1]))
            return &t->heat[i];
    if (!strcmp(key, "background"))
        return &t->background;
    return NULL;
}

static void trim(const char **s, size_t *n)
{
    while (*n && isspace((unsigned char)**s))
        (*s)++, (*n)--;
    while (*n && isspace((unsigned char)(*s)[*n - 1]))
        (*n)--;
}

static void parse_line(theme *t, const char *line, size_t n, const char *origin,
                       int lineno, char *w, size_t wcap)
{
    trim(&line, &n);
    if (n == 0 || line[0] == '#' || line[0] == ';')
        return;
    const char *eq = memchr(line, '=', n);
    if (!eq) {
        warn(w, wcap, "%s:%d: expected `key = \"#rrggbb\"`, line ignored", origin, lineno);
        return;
    }
    const char *k = line, *v = eq + 1;
    size_t kn = (size_t)(eq - line), vn = n - kn - 1;
    trim(&k, &kn);
    trim(&v, &vn);
    char key[64];
    snprintf(key, sizeof key, "%.*s", (int)(kn < 63 ? kn : 63), k);
    for (char *p = key; *p; p++)
        if (!isprint((unsigned char)*p))
            *p = '?';
    unsigned *slot = slot_for(t, key), rgb;
    if (!slot) {
        warn(w, wcap, "%s:%d: unknown key '%s' ignored", origin, lineno, key);
        return;
    }
    if (parse_color(v, vn, &rgb) < 0) {
        warn(w, wcap, "%s:%d: bad color for '%s' (expected \"#rrggbb\" or "
             "\"default\"), default kept", origin, lineno, key);
        return;
    }
    *slot = rgb;
}

/* Theme name from an origin path: basename without ".theme". */
static void name_from_origin(theme *t, const char *origin)
{
    const char *b = strrchr(origin, '/');
    b = b ? b + 1 : origin;
    size_t n = strlen(b);
    if (n > 6 && !strcmp(b + n - 6, ".theme"))
        n -= 6;
    snprintf(t->name, sizeof t->name, "%.*s", (int)(n < 63 ? n : 63), b);
}

/* Applies every line of text to t (warnings appended). */
static void parse_into(theme *t, const char *text, size_t len, const char *origin,
                       char *warnings, size_t wcap)
{
    size_t i = 0;
    for (int lineno = 1; i < len; lineno++) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
        if (memchr(text + i, '\0', n))
            warn(warnings, wcap, "%s:%d: binary data, line ignored", origin, lineno);
        else
            parse_line(t, text + i, n, origin, lineno, warnings, wcap);
        i += n + 1;
    }
}

theme *theme_default(void)
{
    theme *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    for (int r = 0; r < ROLE_COUNT; r++)
        t->rgb[r] = THEME_BG_DEFAULT;
    t->background = THEME_BG_DEFAULT;
    t->heat[0] = 0x000000, t->heat[1] = 0x808080, t->heat[2] = 0xffffff;
    const char *def = theme_builtin_text("default");
    parse_into(t, def, strlen(def), "built-in default", NULL, 0);
    snprintf(t->name, sizeof t->name, "default");
    theme_finish(t);
    return t;
}

theme *theme_parse(const char *text, size_t len, const char *origin,
                   char *warnings, size_t wcap, sm_err *err)
{
    if (!text && len) {
        sm_err_set(err, SM_ERR_FORMAT, "theme %s: no text", origin ? origin : "?");
        return NULL;
    }
    theme *t = theme_default();
    if (!t) {
        sm_err_set(err, SM_ERR_NOMEM, "out of memory loading a theme");
        return NULL;
    }
    origin = origin ? origin : "theme";
    name_from_origin(t, origin);
    if (text)
        parse_into(t, text, len, origin, warnings, wcap);
    theme_finish(t);
    return t;
}

void theme_free(theme *t)
{
    free(t);
}

const char *theme_name(const theme *t)
{
    return t->name;
}

unsigned theme_rgb(const theme *t, theme_role role)
{
    return (unsigned)role < ROLE_COUNT ? t->rgb[role] : t->rgb[ROLE_DEFAULT];
}

unsigned theme_gradient_rgb(const theme *t, double pos)
{
    return gradient_at(t, pos);
}
