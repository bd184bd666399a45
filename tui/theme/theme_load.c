/* theme_load: finding theme files — user themes in $XDG_CONFIG_HOME, the
 * installed share/smtop/themes of the binary's own prefix, the source
 * tree's themes/ (SMTOP_THEME_DIR, for a binary run from its build
 * directory), then the compiled-in copies. */
#include "tui/theme/theme_internal.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/conf/conf_file.h"

#ifndef SMTOP_THEME_DIR
#define SMTOP_THEME_DIR "themes"
#endif
/* The installed themes relative to the binary's directory: CMake derives
 * it from GNUInstallDirs (bin -> share/smtop/themes), so a package or a
 * `cmake --install --prefix` anywhere finds its own themes. */
#ifndef SMTOP_THEME_DIR_FROM_BIN
#define SMTOP_THEME_DIR_FROM_BIN "../share/smtop/themes"
#endif
#define THEME_DIRS 3

/* Theme directories in priority order; empty strings when unknown. */
static void theme_dirs(char dirs[THEME_DIRS][PATH_MAX])
{
    conf_file_path("themes", dirs[0], PATH_MAX);
    dirs[1][0] = '\0';
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            snprintf(dirs[1], PATH_MAX, "%.*s/%s", PATH_MAX - 256, exe,
                     SMTOP_THEME_DIR_FROM_BIN);
        }
    }
    snprintf(dirs[2], PATH_MAX, "%s", SMTOP_THEME_DIR);
}

static theme *load_path(const char *path, char *w, size_t wcap, sm_err *err)
{
    size_t len;
    char *text = conf_file_read(path, &len, NULL, err);
    if (!text)
        return NULL;
    theme *t = theme_parse(text, len, path, w, wcap, err);
    free(text);
    return t;
}

theme *theme_load(const char *name, char *w, size_t wcap, sm_err *err)
{
    if (!name || !name[0])
        name = "default";
    if (strchr(name, '/'))
        return load_path(name, w, wcap, err);
    char dirs[THEME_DIRS][PATH_MAX], path[PATH_MAX + 80];
    theme_dirs(dirs);
    for (int i = 0; i < THEME_DIRS; i++) {
        if (!dirs[i][0])
            continue;
        snprintf(path, sizeof path, "%.3900s/%.64s.theme", dirs[i], name);
        if (access(path, R_OK) == 0)
            return load_path(path, w, wcap, err);
    }
    const char *text = theme_builtin_text(name);
    if (text)
        return theme_parse(text, strlen(text), name, w, wcap, err);
    sm_err_set(err, SM_ERR_NOTFOUND,
               "theme '%.64s' not found: try default, light, high-contrast, "
               "monochrome, a path, or a file in %.200s", name,
               dirs[0][0] ? dirs[0] : "$XDG_CONFIG_HOME/smtop/themes");
    return NULL;
}

static int has_name(char names[][64], size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(names[i], s))
            return 1;
    return 0;
}

/* Adds NAME for every NAME.theme in dir not yet listed. */
static size_t list_dir(const char *dir, char names[][64], size_t n, size_t max)
{
    DIR *d = dir[0] ? opendir(dir) : NULL;
    if (!d)
        return n;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        size_t len = strlen(e->d_name);
        if (len <= 6 || len - 6 >= 64 || strcmp(e->d_name + len - 6, ".theme"))
            continue;
        char nm[64];
        snprintf(nm, sizeof nm, "%.*s", (int)(len - 6), e->d_name);
        if (!has_name(names, n, nm))
            snprintf(names[n++], 64, "%s", nm);
    }
    closedir(d);
    return n;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(a, b);
}

size_t theme_list(char names[][64], size_t max, sm_err *err)
{
    (void)err;   /* unreadable directories are simply skipped */
    size_t n = 0;
    for (size_t i = 0; i < theme_builtin_count() && n < max; i++)
        snprintf(names[n++], 64, "%s", theme_builtin_name(i));
    char dirs[THEME_DIRS][PATH_MAX];
    theme_dirs(dirs);
    size_t builtin = n;
    for (int i = 0; i < THEME_DIRS; i++)
        n = list_dir(dirs[i], names, n, max);
    /* Directory order is arbitrary; `t` should cycle the same way each run. */
    qsort(names + builtin, n - builtin, sizeof names[0], cmp_name);
    return n;
}
