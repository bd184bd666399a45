/* conf_lines: the line grammar every smtop config file shares. Text is
 * split at '\n'; '#' starts a comment; blanks around a line are trimmed
 * and blank lines skipped; an error names the origin and the line. Pure
 * text in, no I/O: rules.conf (model/rules/rules_params.c) and smtop.conf
 * (tui/conf/conf_file.c) both go through it, so they read alike. */
#ifndef SMTOP_CONF_LINES_H
#define SMTOP_CONF_LINES_H

#include <stddef.h>

#include "model/util/sm_err.h"

/* Longest line accepted (bytes, comment included). */
#define CONF_LINE_MAX 511

/* Called with each non-blank line, comment cut and trimmed (fn may modify
 * it). 0, or -1 with err: the reason, without origin or line number. */
typedef int (*conf_lines_fn)(void *ctx, char *line, sm_err *err);

/* Calls fn for every line of text[0, len) in order and stops at the first
 * failure: -1 with err "ORIGIN:LINE: reason" (SM_ERR_USAGE). A line longer
 * than CONF_LINE_MAX is such a failure ("line too long"). */
int conf_lines_each(const char *text, size_t len, const char *origin, conf_lines_fn fn,
                    void *ctx, sm_err *err);

/* Trims blanks from both ends of s in place; returns the first non-blank. */
char *conf_lines_trim(char *s);

#endif
