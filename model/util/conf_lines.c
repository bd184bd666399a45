/* conf_lines: see conf_lines.h. */
#include "model/util/conf_lines.h"

#include <ctype.h>
#include <string.h>

char *conf_lines_trim(char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

int conf_lines_each(const char *text, size_t len, const char *origin, conf_lines_fn fn,
                    void *ctx, sm_err *err)
{
    size_t pos = 0;
    for (int line = 1; pos < len; line++) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
        char buf[CONF_LINE_MAX + 1];
        if (n > CONF_LINE_MAX)
            return sm_err_set(err, SM_ERR_USAGE, "%s:%d: line too long", origin, line);
        memcpy(buf, text + pos, n);
        buf[n] = '\0';
        pos += n + 1;
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *s = conf_lines_trim(buf);
        sm_err e = {0};
        if (*s && fn(ctx, s, &e) < 0)
            return sm_err_set(err, SM_ERR_USAGE, "%s:%d: %s", origin, line, e.msg);
    }
    return 0;
}
