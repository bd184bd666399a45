/* rules_params: `Name.param=value` overrides from the command line
 * (--rule), the rules config file and the dashboard's `:set` line. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/util/conf_lines.h"
#include "model/rules/rules.h"

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
    size_t k = 0;
    while (isspace((unsigned char)s[k]))
        k++;
    memmove(s, s + k, n - k + 1);
}

/* Splits spec into rule, param and value; -1 with err on bad syntax. */
static int parse_spec(const char *spec, char *rule, char *param, double *value,
                      sm_err *err)
{
    char buf[256];
    if (strlen(spec) >= sizeof buf)
        return sm_err_set(err, SM_ERR_USAGE, "rule override too long: '%.40s...'", spec);
    strcpy(buf, spec);
    char *eq = strchr(buf, '=');
    char *dot = eq ? memchr(buf, '.', (size_t)(eq - buf)) : NULL;
    if (!eq || !dot)
        return sm_err_set(err, SM_ERR_USAGE, "bad rule override '%s': expected "
                          "Name.param=value (e.g. StepOutlier.stddev=4)", spec);
    *eq = 0;
    *dot = 0;
    strcpy(rule, buf);
    strcpy(param, dot + 1);
    trim(rule);
    trim(param);
    char *v = eq + 1, *end;
    trim(v);
    *value = strtod(v, &end);
    if (!*rule || !*param || !*v || *end || !isfinite(*value))
        return sm_err_set(err, SM_ERR_USAGE, "bad rule override '%s': expected "
                          "Name.param=<number>", spec);
    return 0;
}

int rules_apply_override(rules *r, const char *spec, sm_err *err)
{
    char rule[256], param[256];
    double v = 0;
    if (parse_spec(spec, rule, param, &v, err) < 0)
        return -1;
    return rules_set_param(r, rule, param, v, err);
}

static int apply_line(void *r, char *line, sm_err *err)
{
    return rules_apply_override(r, line, err);
}

/* Applies every line of text to r; stops at the first bad one. */
static int apply_lines(rules *r, const char *text, size_t len,
                       const char *origin, sm_err *err)
{
    return conf_lines_each(text, len, origin, apply_line, r, err);
}

int rules_apply_config(rules *r, const char *text, size_t len,
                       const char *origin, sm_err *err)
{
    /* validate on a scratch copy first so a bad line changes nothing */
    rules *scratch = rules_new();
    if (!scratch)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory reading %s", origin);
    int rc = apply_lines(scratch, text, len, origin, err);
    rules_free(scratch);
    if (rc < 0)
        return -1;
    return apply_lines(r, text, len, origin, err);
}

int rules_parse_list(const char *list, int *idx, size_t max, sm_err *err)
{
    size_t k = 0;
    const char *p = list;
    while (p && *p) {
        const char *c = strchr(p, ',');
        size_t n = c ? (size_t)(c - p) : strlen(p);
        char name[128];
        if (n >= sizeof name)
            n = sizeof name - 1;
        memcpy(name, p, n);
        name[n] = 0;
        trim(name);
        if (*name) {
            int i = rules_find(name);
            const char *near = i < 0 ? rules_nearest(name) : NULL;
            if (near)
                return sm_err_set(err, SM_ERR_USAGE, "unknown rule '%s' in --fail-on: did you "
                                  "mean %s?", name, near);
            if (i < 0)
                return sm_err_set(err, SM_ERR_USAGE, "unknown rule '%s' in "
                                  "--fail-on (see `smtop report --json` rules[])", name);
            if (k < max)
                idx[k++] = i;
        }
        p = c ? c + 1 : NULL;
    }
    if (k == 0)
        return sm_err_set(err, SM_ERR_USAGE, "empty rule list '%s'", list ? list : "");
    return (int)k;
}
