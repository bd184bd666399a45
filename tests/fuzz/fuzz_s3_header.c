/* Fuzz target: what smtop reads from an S3 response's headers and keeps:
 * ETag and Content-Range lines (s3_header_parse, given exactly the bytes
 * curl gives, no NUL), and the ETag table (s3_etags) fed with the keys
 * and ETags of the input's lines. A parsed total is a size (>= 0, fits
 * 10^18), an ETag is NUL-terminated within its buffer, and the table
 * gives back what was last put for a key. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/aws/s3_etags.h"
#include "io/aws/s3_header.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    s3_etags *t = s3_etags_new();
    if (!t)
        return 0;
    size_t i = 0;
    while (i < size) {
        const uint8_t *e = memchr(data + i, '\n', size - i);
        size_t n = e ? (size_t)(e - (data + i)) + 1 : size - i;
        char *line = malloc(n ? n : 1);   /* exact size: an over-read is caught */
        if (!line)
            break;
        memcpy(line, data + i, n);
        char etag[128];
        memset(etag, 'x', sizeof etag);
        etag[0] = '\0';
        int64_t total = -1;
        s3_header_parse(line, n, etag, sizeof etag, &total);
        if (!memchr(etag, '\0', sizeof etag) || total < -1 || total > 1000000000000000000LL)
            abort();
        char key[64];
        size_t kl = n < sizeof key - 1 ? n : sizeof key - 1;
        memcpy(key, line, kl);
        key[kl] = '\0';
        if (etag[0] && s3_etags_put(t, key, etag, total) == 0) {
            int64_t sz = 0;
            const char *got = s3_etags_get(t, key, &sz);
            if (!got || strcmp(got, etag) || sz != total)
                abort();
        }
        free(line);
        i += n;
    }
    s3_etags_free(t);
    return 0;
}
