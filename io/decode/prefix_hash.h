/* prefix_hash: the identity of the lines of a trace file read so far, by
 * which scan_adopt matches a closed file with the `.tmp` it was renamed
 * from. Lines are taken canonically — blank lines skipped, surrounding
 * whitespace and every trailing ',' trimmed — because smdebug's close()
 * rewrites the last event's ",\n" into "\n]\n": the same event line with
 * other bytes, which a hash of raw bytes would not recognise (issue 12,
 * finding 1), and a line ending ",," would still differ by one ','
 * (fuzz_scanner crash b26e8b34). The trace decoder trims the same way, so
 * such a line is judged alike open and closed. No I/O. */
#ifndef SMTOP_PREFIX_HASH_H
#define SMTOP_PREFIX_HASH_H

#include <stddef.h>
#include <stdint.h>

/* Lines that make a file's head: "[" and the metadata line. Every file of
 * one process starts with the same head, so it only narrows the search. */
#define PREFIX_HEAD_LINES 2

typedef struct prefix_hash {
    int64_t lines;      /* non-blank lines added */
    uint64_t hash;      /* FNV-1a of their canonical forms, each + '\n' */
    uint64_t head;      /* hash after PREFIX_HEAD_LINES lines; 0 before */
} prefix_hash;

void prefix_hash_init(prefix_hash *p);

/* Adds one line (without its '\n'); a blank line changes nothing. */
void prefix_hash_add(prefix_hash *p, const char *line, size_t len);

/* When the first p->lines non-blank lines of data hash as p's, the offset
 * just past the last of them (past its '\n', or len); -1 otherwise. A
 * line still missing its '\n' at the end of data counts as whole. */
int64_t prefix_hash_match(const prefix_hash *p, const char *data, size_t len);

/* The head hash of data (see PREFIX_HEAD_LINES), 0 when data has fewer
 * lines. */
uint64_t prefix_hash_head(const char *data, size_t len);

#endif
