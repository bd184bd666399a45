/* pystats_load: the glue from a Python stats file's bytes to the store —
 * path → window (statsdir), bytes → functions (pstats_marshal or
 * pyinstrument), functions → pystats_win, window → store. */
#ifndef SMTOP_PYSTATS_LOAD_H
#define SMTOP_PYSTATS_LOAD_H

#include <stddef.h>

#include "model/pystats/pystats.h"
#include "model/util/sm_err.h"
#include "io/decode/keyname.h"

/* Decodes data[0..len), the file at `key` (KEY_CPROFILE python_stats or
 * KEY_PYINSTRUMENT python_stats.json; when ki is NULL the kind comes from
 * the file name), into a window of s that replaces an earlier version of
 * the same key. A failed pyinstrument session is stored as a failed window
 * (returns 0). -1 with err on a bad path or bad bytes (the message does
 * not repeat the key: the scanner names the file); the store is then
 * unchanged. Signature matches scanner_file_cb after the
 * store argument. */
int pystats_load_file(pystats_store *s, const key_info *ki, const char *key,
                      const void *data, size_t len, sm_err *err);

#endif
