/* finding: see finding.h. */
#include "model/view/finding.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

finding *finding_add(finding *v, size_t *n, size_t max, const char *source, rule_severity sev,
                     const char *fmt, ...)
{
    if (*n >= max)
        return NULL;
    finding *f = &v[(*n)++];
    memset(f, 0, sizeof *f);
    f->source = source;
    f->severity = sev;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->text, sizeof f->text, fmt, ap);
    va_end(ap);
    return f;
}

void finding_short(finding *f, const char *why, const char *knob)
{
    if (!f)
        return;
    if (why)
        snprintf(f->why, sizeof f->why, "%s", why);
    if (knob)
        snprintf(f->knob, sizeof f->knob, "%s", knob);
}

#define FINDING_PRINT(field)                                  \
    do {                                                      \
        if (!f)                                               \
            return;                                           \
        va_list ap;                                           \
        va_start(ap, fmt);                                    \
        vsnprintf(f->field, sizeof f->field, fmt, ap);        \
        va_end(ap);                                           \
    } while (0)

void finding_cause(finding *f, const char *fmt, ...) { FINDING_PRINT(cause); }
void finding_fix(finding *f, const char *fmt, ...) { FINDING_PRINT(fix); }
void finding_evidence(finding *f, const char *fmt, ...) { FINDING_PRINT(evidence); }

void finding_from_rule(finding *f, const rule_result *r)
{
    if (!f || !r)
        return;
    f->rule = r->name;
    snprintf(f->cause, sizeof f->cause, "%s", r->cause);
    snprintf(f->fix, sizeof f->fix, "%s", r->fix);
    snprintf(f->evidence, sizeof f->evidence, "%s", r->evidence);
}
