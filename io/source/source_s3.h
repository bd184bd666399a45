/* source_s3: the S3 implementation of source.h.
 *
 * Lists with ListObjectsV2 (paged by continuation token), reads with
 * ranged GETs through s3_http (parallel, retried), signs with the
 * credentials and region the AWS CLI would use (aws_creds, aws_region),
 * and serves repeat reads of a listed object version from the zstd cache.
 *
 * Cache rule: a response that holds a whole object (GET without Range,
 * HTTP 200) and carries an ETag is stored under bucket+key+ETag, except
 * open `.tmp` trace files. A later fetch is served from the cache, with no
 * request, when the ETag the latest listing gave for that key matches the
 * stored one. Because the entry is tied to the exact ETag, a cached copy
 * is always the bytes S3 holds for that version, whether or not the object
 * is "finished"; one entry per key keeps a growing object from filling the
 * cache with old versions. */
#ifndef SMTOP_SOURCE_S3_H
#define SMTOP_SOURCE_S3_H

#include <stdint.h>

#include "model/util/sm_err.h"
#include "io/source/source.h"
#include "io/source/source_open.h"

/* Knobs below the command line. Defaults (source_s3_tuning_defaults) come from
 * the environment where the AWS CLI has a variable (AWS_MAX_ATTEMPTS,
 * default 8) and otherwise from SMTOP_S3_BACKOFF_MS (500),
 * SMTOP_S3_STALL_TIMEOUT (20 s), SMTOP_S3_CONNECT_TIMEOUT (10 s; before
 * the endpoint first answers, 5 attempts starting within 7 s, see s3_http.h),
 * SMTOP_S3_MAX_KEYS (0 = server default, 1000 on S3). SMTOP_S3_TRACE=1
 * prints one line per finished transfer attempt (time, attempt, curl code,
 * HTTP status, S3 error code, bytes; never URLs or credentials) to stderr,
 * for debugging `report` runs. */
typedef struct s3_tuning {
    int max_keys;
    int max_attempts;
    int backoff_base_ms;
    int backoff_cap_ms;       /* 16 s */
    long stall_timeout_s;
    long connect_timeout_s;
    int connect_attempts;     /* first contact, see s3_http.h: 5 */
    int connect_budget_ms;    /* first contact: 7000 */
    const char *cache_dir;    /* NULL = $XDG_CACHE_HOME/smtop */
} s3_tuning;

void source_s3_tuning_defaults(s3_tuning *t);
/* Narrows t for source_opts.fail_fast. */
void source_s3_tuning_fail_fast(s3_tuning *t);

/* Opens "s3://bucket/prefix". o and t may be NULL (defaults). Resolves
 * credentials and region now. NULL with err: SM_ERR_USAGE (bad URL,
 * unknown profile), SM_ERR_NOTFOUND (no credentials). The bucket is not
 * contacted until the first list. Caller owns the result. */
source *source_s3_open(const char *spec, const source_opts *o,
                       const s3_tuning *t, sm_err *err);

typedef struct source_s3_stats {
    int64_t bytes_net;    /* response bytes received from S3, all requests */
    int64_t bytes_cache;  /* payload bytes served from the cache */
    int64_t requests;     /* HTTP requests sent (incl. retries) */
    int64_t retries;
    int64_t cache_hits;
    int64_t cache_puts;
} source_s3_stats;

/* Fills out; -1 when s is not an S3 source. */
int source_s3_get_stats(const source *s, source_s3_stats *out);

#endif
