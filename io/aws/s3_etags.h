/* s3_etags: what the latest listing said about each key (ETag, size), so
 * a fetch can be served from the cache without asking S3 first. */
#ifndef SMTOP_S3_ETAGS_H
#define SMTOP_S3_ETAGS_H

#include <stdint.h>

typedef struct s3_etags s3_etags;

s3_etags *s3_etags_new(void);
void s3_etags_free(s3_etags *t);

/* Records (or updates) key. -1 on OOM (the table is unchanged). */
int s3_etags_put(s3_etags *t, const char *key, const char *etag, int64_t size);

/* The listed ETag of key (valid until the next put of that key), or NULL
 * when the key was never listed; *size receives its listed size. */
const char *s3_etags_get(const s3_etags *t, const char *key, int64_t *size);

#endif
