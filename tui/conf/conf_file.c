/* conf_file: see conf_file.h. */
#include "tui/conf/conf_file.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int conf_file_path(const char *name, char *buf, size_t cap)
{
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    buf[0] = '\0';
    if (xdg && *xdg)
        snprintf(buf, cap, "%s/smtop/%s", xdg, name);
    else if (home && *home)
        snprintf(buf, cap, "%s/.config/smtop/%s", home, name);
    else
        return -1;
    return 0;
}

char *conf_file_read(const char *path, size_t *len, int *missing, sm_err *err)
{
    FILE *f = fopen(path, "rb");
    int absent = !f && errno == ENOENT;
    if (missing)
        *missing = absent;
    if (!f) {
        if (absent && missing)
            return NULL;   /* an optional file: not an error */
        sm_err_set(err, errno == ENOENT ? SM_ERR_NOTFOUND : SM_ERR_IO, "cannot read %s: %s",
                   path, strerror(errno));
        return NULL;
    }
    char *buf = malloc(CONF_FILE_MAX + 1);
    size_t n = buf ? fread(buf, 1, CONF_FILE_MAX + 1, f) : 0;
    int bad = buf && ferror(f);
    fclose(f);
    if (!buf || bad || n > CONF_FILE_MAX) {
        free(buf);
        sm_err_set(err, bad ? SM_ERR_IO : buf ? SM_ERR_FORMAT : SM_ERR_NOMEM,
                   "cannot read %s: %s", path, !buf ? "out of memory"
                   : bad ? "read error" : "larger than 64 KiB");
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* Trims s in place; returns the first non-space byte. */
static char *trim(char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

/* One line (NUL-terminated, comment already cut): 0 for a blank line or a
 * good pair, -1 with err. */
static int parse_line(char *buf, conf_file_kv_fn fn, void *ctx, sm_err *err)
{
    char *line = trim(buf);
    if (!*line)
        return 0;
    char *eq = strchr(line, '=');
    if (!eq)
        return sm_err_set(err, SM_ERR_USAGE, "expected key = value, got '%.60s'", line);
    *eq = '\0';
    char *key = trim(line), *value = trim(eq + 1);
    if (!*key)
        return sm_err_set(err, SM_ERR_USAGE, "no key before '='");
    return fn(ctx, key, value, err);
}

int conf_file_parse_kv(const char *text, size_t len, const char *origin,
                       conf_file_kv_fn fn, void *ctx, sm_err *err)
{
    size_t pos = 0;
    for (int line = 1; pos < len; line++) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
        char buf[512];
        if (n >= sizeof buf)
            return sm_err_set(err, SM_ERR_USAGE, "%s:%d: line too long", origin, line);
        memcpy(buf, text + pos, n);
        buf[n] = '\0';
        pos += n + 1;
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        sm_err e = {0};
        if (parse_line(buf, fn, ctx, &e) < 0)
            return sm_err_set(err, SM_ERR_USAGE, "%s:%d: %s", origin, line, e.msg);
    }
    return 0;
}
