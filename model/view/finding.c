/* finding: see finding.h. */
#include "model/view/finding.h"

#include <stdarg.h>
#include <stdio.h>

finding *finding_add(finding *v, size_t *n, size_t max, const char *source, rule_severity sev,
                     const char *fmt, ...)
{
    if (*n >= max)
        return NULL;
    finding *f = &v[(*n)++];
    f->source = source;
    f->severity = sev;
    f->brief[0] = '\0';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->text, sizeof f->text, fmt, ap);
    va_end(ap);
    return f;
}
