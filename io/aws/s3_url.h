/* s3_url: the exact bytes of S3 request URLs.
 *
 * libcurl's CURLOPT_AWS_SIGV4 signs the path and query exactly as written,
 * so the one canonical form has to be produced here: parameters sorted by
 * name, every byte outside A-Za-z0-9-_.~ percent-encoded (upper-case hex),
 * '/' kept in object paths but encoded as %2F in query values. */
#ifndef SMTOP_S3_URL_H
#define SMTOP_S3_URL_H

#include <stddef.h>

#include "model/util/sm_err.h"

typedef struct s3_param {
    const char *name;
    const char *value;  /* NULL is sent as "" */
} s3_param;

/* Percent-encodes s per the rules above. Caller frees; NULL on OOM. */
char *s3_url_encode(const char *s, int keep_slash);

/* "a=1&b=x%2Fy" from params sorted by name (the array is not modified).
 * Caller frees; NULL on OOM. */
char *s3_url_query(const s3_param *p, size_t n);

/* Splits "s3://bucket/some/prefix" into bucket and prefix ("some/prefix/",
 * always ending in '/' unless empty). -1 with SM_ERR_USAGE when malformed. */
int s3_url_parse_spec(const char *spec, char *bucket, size_t bcap,
                      char *prefix, size_t pcap, sm_err *err);

/* URL of the bucket (key NULL) or of an object, with optional query.
 * endpoint NULL → virtual-host style https://bucket.s3.REGION.amazonaws.com
 * (path style for bucket names with dots, whose certificate would not
 * match); otherwise path style ENDPOINT/bucket/key. Caller frees. */
char *s3_url_build(const char *endpoint, const char *region,
                   const char *bucket, const char *key, const char *query);

#endif
