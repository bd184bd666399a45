/* s3_header: the response headers smtop reads from an S3 GET, parsed
 * from one raw header line as libcurl hands it over (not NUL-terminated,
 * CRLF included): ETag, and the object's full size from Content-Range.
 * Pure, so it is fuzzed without a server (tests/fuzz/fuzz_s3_header.c). */
#ifndef SMTOP_S3_HEADER_H
#define SMTOP_S3_HEADER_H

#include <stddef.h>
#include <stdint.h>

/* Reads line[0..n). An "ETag:" line sets etag (NUL-terminated, cut to
 * cap); a "Content-Range: bytes A-B/TOTAL" line sets *total to TOTAL when
 * it is a decimal number of at most 18 digits (a "*" or anything else
 * leaves *total alone). Never reads past line[n - 1]. Other lines are
 * ignored. */
void s3_header_parse(const char *line, size_t n, char *etag, size_t cap, int64_t *total);

#endif
