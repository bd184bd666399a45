/* s3_list: ListObjectsV2 over s3_http, page after page.
 *
 * Sends list-type=2 with prefix, start-after (first page only; S3 ignores
 * it once a continuation token is sent), continuation-token and max-keys,
 * canonically encoded (s3_url_query); parses each page by element name
 * (s3_xml) and records every listed key's ETag and size in `etags` so a
 * later fetch can be served from the cache. */
#ifndef SMTOP_S3_LIST_H
#define SMTOP_S3_LIST_H

#include <stdint.h>

#include "model/util/sm_err.h"
#include "io/aws/s3_etags.h"
#include "io/aws/s3_http.h"
#include "io/aws/s3_retry.h"

typedef struct s3_list_ctx {
    s3_http *http;
    const char *endpoint;        /* NULL = AWS virtual-host style */
    const char *region;
    const char *bucket;
    const char *root;            /* source key prefix, "" or ends in '/' */
    int max_keys;                /* 0 = server default */
    s3_etags *etags;             /* updated with every listed key */
    const s3_fail_ctx *fail;     /* for explaining a final failure */
} s3_list_ctx;

/* One listed object: key relative to root (valid only during the call),
 * its size, last-modified time (µs, 0 when unknown) and ETag. Non-zero
 * stops the listing. */
typedef int (*s3_list_cb)(void *ud, const char *key, int64_t size, int64_t mtime_us,
                          const char *etag);

/* Lists root+prefix after root+start_after, calling cb with keys relative
 * to root, ascending. Returns 0 (also when cb stopped early), or -1 with
 * err when a page could not be had after retries. */
int s3_list_objects(const s3_list_ctx *c, const char *prefix,
                    const char *start_after, s3_list_cb cb, void *ud,
                    sm_err *err);

#endif
