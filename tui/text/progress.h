/* progress: the line that says how far a long read has come (issue 35):
 * "reading 12/127 files, 0.52/2.30 GB, 1.10 GB/s, 2.1 s left". The
 * dashboard's status line and `report`'s stderr (on a terminal) show the
 * same words. */
#ifndef SMTOP_PROGRESS_H
#define SMTOP_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

#include "io/scan/scanner.h"

/* A pass is worth a progress line once it has read this long (`report`,
 * and the dashboard's later passes: a tailing pass is short); the
 * dashboard's first read shows one from its start. */
#define PROGRESS_AFTER_US 1000000

/* The line for the pass st describes (scanner_get_stats) at now_us, into
 * out (always NUL-terminated when cap > 0). Returns 1 when there is one: a
 * pass is running, has run after_us and has files to read; else 0 with
 * out "". */
int progress_line(const scan_stats *st, int64_t now_us, int64_t after_us, char *out,
                  size_t cap);

#endif
