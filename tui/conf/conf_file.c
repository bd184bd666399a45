/* conf_file: see conf_file.h. */
#include "tui/conf/conf_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/util/conf_lines.h"

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

/* The key of a `key = value` line (trimmed, into buf), or "" for a blank,
 * comment or other line. */
static const char *line_key(const char *line, size_t len, char *buf, size_t cap)
{
    size_t i = 0, k = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    while (i < len && line[i] != '=' && line[i] != '#' && k + 1 < cap)
        buf[k++] = line[i++];
    if (i >= len || line[i] != '=')
        k = 0;
    while (k > 0 && (buf[k - 1] == ' ' || buf[k - 1] == '\t'))
        k--;
    buf[k] = '\0';
    return buf;
}

static long key_index(const char *key, const char *const *keys, size_t n)
{
    for (size_t i = 0; *key && i < n; i++)
        if (!strcmp(key, keys[i]))
            return (long)i;
    return -1;
}

/* The directory holding path, and its parent, created when missing. */
static void make_parent(const char *path)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return;
    *slash = '\0';
    char *up = strrchr(dir, '/');
    if (up && up != dir) {
        *up = '\0';
        mkdir(dir, 0755);
        *up = '/';
    }
    mkdir(dir, 0755);
}

int conf_file_update(const char *path, const char *const *keys, const char *const *values,
                     size_t n, sm_err *err)
{
    size_t len = 0;
    int missing = 0;
    char *text = conf_file_read(path, &len, &missing, err);
    if (!text && !missing)
        return -1;
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    make_parent(path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        free(text);
        return sm_err_set(err, SM_ERR_IO, "cannot write %s: %s", tmp, strerror(errno));
    }
    unsigned char done[64] = {0};
    /* Every line as it was, except a line of one of the keys: it takes
     * the new value (or goes, when the value is empty). */
    for (size_t at = 0; text && at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t ll = nl ? (size_t)(nl - (text + at)) : len - at;
        char key[64];
        long k = key_index(line_key(text + at, ll, key, sizeof key), keys, n);
        if (k < 0)
            fprintf(f, "%.*s\n", (int)ll, text + at);
        else if (!done[k] && values[k][0])
            fprintf(f, "%s = %s\n", keys[k], values[k]);
        if (k >= 0 && k < 64)
            done[k] = 1;
        at += ll + 1;
    }
    for (size_t k = 0; k < n && k < 64; k++)
        if (!done[k] && values[k][0])
            fprintf(f, "%s = %s\n", keys[k], values[k]);
    free(text);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        return sm_err_set(err, SM_ERR_IO, "cannot write %s: %s", path, strerror(e));
    }
    return 0;
}
