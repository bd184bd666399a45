/* aws_ini: AWS CLI INI file reading; see aws_ini.h. */
#include "io/aws/aws_ini.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void ini_trim(const char **b, const char **e)
{
    while (*b < *e && (**b == ' ' || **b == '\t'))
        (*b)++;
    while (*e > *b && ((*e)[-1] == ' ' || (*e)[-1] == '\t' || (*e)[-1] == '\r'))
        (*e)--;
}

/* Does the header "[...]" content [b, e) name this profile? */
static int ini_section_is(const char *b, const char *e, aws_ini_kind kind,
                          const char *profile)
{
    size_t pl = strlen(profile);
    ini_trim(&b, &e);
    if (kind == AWS_INI_CONFIG && (size_t)(e - b) > 8 &&
        !strncmp(b, "profile", 7) && (b[7] == ' ' || b[7] == '\t')) {
        b += 8;
        ini_trim(&b, &e);
    } else if (kind == AWS_INI_CONFIG && strcmp(profile, "default") != 0) {
        return 0; /* config needs "[profile x]" for every x but default */
    }
    return (size_t)(e - b) == pl && !memcmp(b, profile, pl);
}

/* Walks the lines of the profile's sections; calls back for key=value. */
static int ini_walk(const char *text, aws_ini_kind kind, const char *profile,
                    const char *key, char *out, size_t cap, int *seen)
{
    int in = 0;
    for (const char *p = text; p && *p;) {
        const char *nl = strchr(p, '\n');
        const char *e = nl ? nl : p + strlen(p), *b = p;
        p = nl ? nl + 1 : NULL;
        if (*b == ' ' || *b == '\t')
            continue; /* nested block ("s3 =\n  addressing_style = path") */
        ini_trim(&b, &e);
        if (b == e || *b == '#' || *b == ';')
            continue;
        if (*b == '[') {
            const char *close = memchr(b, ']', (size_t)(e - b));
            in = close && ini_section_is(b + 1, close, kind, profile);
            *seen |= in;
            continue;
        }
        const char *eq = memchr(b, '=', (size_t)(e - b));
        if (!in || !eq || !key)
            continue;
        const char *kb = b, *ke = eq, *vb = eq + 1, *ve = e;
        ini_trim(&kb, &ke);
        ini_trim(&vb, &ve);
        if ((size_t)(ke - kb) == strlen(key) && !memcmp(kb, key, strlen(key))) {
            snprintf(out, cap, "%.*s", (int)(ve - vb), vb);
            return 1;
        }
    }
    return 0;
}

int aws_ini_lookup(const char *text, aws_ini_kind kind, const char *profile,
                   const char *key, char *out, size_t cap)
{
    int seen = 0;
    if (!text || !cap)
        return 0;
    return ini_walk(text, kind, profile, key, out, cap, &seen);
}

int aws_ini_has_profile(const char *text, aws_ini_kind kind,
                        const char *profile)
{
    int seen = 0;
    char dummy[1];
    if (!text)
        return 0;
    ini_walk(text, kind, profile, NULL, dummy, sizeof dummy, &seen);
    return seen;
}

char *aws_ini_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    size_t n;
    if (!f)
        return NULL;
    buf = malloc((1 << 20) + 1);
    n = buf ? fread(buf, 1, 1 << 20, f) : 0;
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}

char *aws_ini_path(aws_ini_kind kind, char *out, size_t cap)
{
    const char *env = getenv(kind == AWS_INI_CONFIG ? "AWS_CONFIG_FILE"
                                                    : "AWS_SHARED_CREDENTIALS_FILE");
    const char *home = getenv("HOME");
    if (env && *env) {
        if (env[0] == '~' && env[1] == '/' && home)
            snprintf(out, cap, "%s%s", home, env + 1);
        else
            snprintf(out, cap, "%s", env);
        return out;
    }
    if (!home || !*home)
        return NULL;
    snprintf(out, cap, "%s/.aws/%s", home,
             kind == AWS_INI_CONFIG ? "config" : "credentials");
    return out;
}
