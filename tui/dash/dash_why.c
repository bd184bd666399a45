/* dash_why: the findings view's lines (`!`, or a click on the verdict).
 * The verdict row says what is wrong and the fix in a few words; this
 * says it whole, as `smtop report`'s "causes and fixes" does: each
 * finding of the verdict, worst first, with its cause, its fix and where
 * to look, then each rule that fired and no finding tells. Both read the
 * same findings (model/view/verdict.h) and rule results, so the two
 * surfaces never differ. The lines are wrapped here, not scrolled
 * sideways: a fix is read whole. */
#include "tui/dash/dash_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "model/view/verdict.h"
#include "model/view/viewsnap.h"
#include "tui/text/sanitize.h"

#define WHY_INDENT "           "   /* under "cause:    " */

typedef struct why_out {
    void (*keep)(void *ud, const char *line);
    void *ud;
    int cols;
} why_out;

/* head then text, wrapped at spaces to o->cols, later lines under the
 * text's first column. A character counts one column (the lead byte of
 * each UTF-8 sequence), counted as the line grows. */
static void put_wrapped(const why_out *o, const char *head, const char *text)
{
    char line[1024];
    const char *lead = head;
    size_t n = strlen(text);
    do {
        int room = o->cols - sanitize_cols(lead), used = 0;
        size_t cut = 0, last_space = 0, max = sizeof line - strlen(lead) - 1;
        for (; cut < n && cut < max; cut++) {
            used += ((unsigned char)text[cut] & 0xC0) != 0x80;
            if (room >= 8 && used > room)
                break;
            if (text[cut] == ' ' && text[cut + 1] != '%')   /* "30 %" stays whole */
                last_space = cut;
        }
        if (cut < n && last_space > 0)
            cut = last_space;
        snprintf(line, sizeof line, "%s%.*s", lead, (int)cut, text);
        o->keep(o->ud, line);
        text += cut;
        n -= cut;
        while (n && *text == ' ')
            text++, n--;
        lead = WHY_INDENT;
    } while (n);
}

static void put_advice(const why_out *o, const char *cause, const char *fix, const char *look)
{
    if (cause && *cause)
        put_wrapped(o, "  cause:   ", cause);
    if (fix && *fix)
        put_wrapped(o, "  fix:     ", fix);
    if (look && *look)
        put_wrapped(o, "  look at: ", look);
    o->keep(o->ud, "");
}

/* 1 when a finding of v tells rule `name`. */
static int told(const verdict *v, const char *name)
{
    for (size_t i = 0; i < v->n; i++)
        if (v->f[i].rule && !strcmp(v->f[i].rule, name))
            return 1;
    return 0;
}

static void sev_head(const why_out *o, rule_severity sev, const char *text)
{
    char head[16];   /* "[HIGH] ", as the Alerts pane marks it */
    snprintf(head, sizeof head, "[%s] ", rules_severity_name(sev));
    for (char *c = head + 1; *c && *c != ']'; c++)
        *c = (char)toupper((unsigned char)*c);
    put_wrapped(o, head, text);
}

void dash_why_lines(const dash *d, int cols, void (*keep)(void *ud, const char *line), void *ud,
                    char *title, size_t tcap)
{
    why_out o = {keep, ud, cols};
    const verdict *v = d->snap ? viewsnap_verdict(d->snap) : NULL;
    if (!v) {
        snprintf(title, tcap, " findings: reading the job ");
        return;
    }
    size_t rules_told = 0;
    for (size_t i = 0; i < v->n; i++) {
        sev_head(&o, v->f[i].severity, v->f[i].text);
        put_advice(&o, v->f[i].cause, v->f[i].fix, v->f[i].evidence);
    }
    for (size_t i = 0; i < rules_count(); i++) {
        const rule_result *r = viewsnap_rule_at(d->snap, i);
        if (!r || r->status != RULE_TRIGGERED || !r->cause[0] || told(v, r->name))
            continue;
        sev_head(&o, r->severity, r->name);
        put_advice(&o, r->cause, r->fix, r->evidence);
        rules_told++;
    }
    if (!v->n && !rules_told)
        keep(ud, "nothing to fix: no finding, and no rule fired");
    snprintf(title, tcap, " findings: %zu, worst first; then %zu rule%s they do not tell ", v->n,
             rules_told, rules_told == 1 ? "" : "s");
}
