/* conf_file: see conf_file.h. */
#include "tui/conf/conf_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/conf_lines.h"

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

typedef struct kv_ctx {
    conf_file_kv_fn fn;
    void *ctx;
} kv_ctx;

/* One trimmed, non-blank line: `key = value`. */
static int parse_line(void *c, char *line, sm_err *err)
{
    const kv_ctx *kv = c;
    char *eq = strchr(line, '=');
    if (!eq)
        return sm_err_set(err, SM_ERR_USAGE, "expected key = value, got '%.60s'", line);
    *eq = '\0';
    char *key = conf_lines_trim(line), *value = conf_lines_trim(eq + 1);
    if (!*key)
        return sm_err_set(err, SM_ERR_USAGE, "no key before '='");
    return kv->fn(kv->ctx, key, value, err);
}

int conf_file_parse_kv(const char *text, size_t len, const char *origin,
                       conf_file_kv_fn fn, void *ctx, sm_err *err)
{
    kv_ctx kv = {fn, ctx};
    return conf_lines_each(text, len, origin, parse_line, &kv, err);
}
