/* conf_file: the files a user edits, all under $XDG_CONFIG_HOME/smtop/
 * (else ~/.config/smtop/): smtop.conf (dashboard defaults, read by
 * tui/cmd), rules.conf (rule parameters, tui/report) and themes/
 * (tui/theme). One place decides the directory, reads a file whole and
 * splits `key = value` lines, so the three agree on where and how. */
#ifndef SMTOP_CONF_FILE_H
#define SMTOP_CONF_FILE_H

#include <stddef.h>

#include "model/util/sm_err.h"

/* Largest config or theme file read: anything bigger is a mistake. */
#define CONF_FILE_MAX (64 * 1024)

/* Writes the path of NAME in the config directory ("smtop.conf",
 * "rules.conf", "themes") into buf. 0, or -1 when neither
 * XDG_CONFIG_HOME nor HOME is set (buf then empty). */
int conf_file_path(const char *name, char *buf, size_t cap);

/* Reads a whole file of at most CONF_FILE_MAX bytes, NUL-terminated
 * (caller frees). NULL with err. With `missing` non-NULL the file is
 * optional: when it does not exist, NULL with *missing = 1 and err
 * untouched. */
char *conf_file_read(const char *path, size_t *len, int *missing, sm_err *err);

/* Called for each `key = value` line; returns 0, or -1 with err (the
 * caller prefixes the origin and line). */
typedef int (*conf_file_kv_fn)(void *ctx, const char *key, const char *value,
                               sm_err *err);

/* Splits text into lines as every config file does (model/util/conf_lines.h:
 * `#` comments, blank lines skipped), splits each at its first '=', trims
 * key and value, and calls fn for each. Stops at the first bad line: -1
 * with err "ORIGIN:LINE: reason" (SM_ERR_USAGE). */
int conf_file_parse_kv(const char *text, size_t len, const char *origin,
                       conf_file_kv_fn fn, void *ctx, sm_err *err);

/* Sets `key = value` for keys[0..n) in the file at path, keeping every
 * other line (comments too) as it was: a key's first line takes the new
 * value, later lines of it go, a key not yet there is appended; an empty
 * value removes the key. Creates the file and its directory when missing;
 * replaces it by rename, so a reader never sees half a file. 0, or -1
 * with err. */
int conf_file_update(const char *path, const char *const *keys, const char *const *values,
                     size_t n, sm_err *err);

#endif
