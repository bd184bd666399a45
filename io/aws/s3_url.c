/* s3_url: canonical percent-encoding and URL assembly; see s3_url.h. */
#include "io/aws/s3_url.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int url_unreserved(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
           (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' ||
           c == '~';
}

char *s3_url_encode(const char *s, int keep_slash)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = strlen(s);
    char *out = malloc(3 * n + 1), *o = out;
    if (!out)
        return NULL;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (url_unreserved(*p) || (keep_slash && *p == '/')) {
            *o++ = (char)*p;
        } else {
            *o++ = '%';
            *o++ = hex[*p >> 4];
            *o++ = hex[*p & 15];
        }
    }
    *o = '\0';
    return out;
}

static int param_cmp(const void *a, const void *b)
{
    return strcmp(((const s3_param *)a)->name, ((const s3_param *)b)->name);
}

char *s3_url_query(const s3_param *p, size_t n)
{
    s3_param *sorted = malloc((n ? n : 1) * sizeof *sorted);
    size_t cap = 1, len = 0;
    char *out = NULL;
    if (!sorted)
        return NULL;
    memcpy(sorted, p, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, param_cmp);
    for (size_t i = 0; i < n; i++)
        cap += 3 * (strlen(sorted[i].name) +
                    strlen(sorted[i].value ? sorted[i].value : "")) + 2;
    out = malloc(cap);
    for (size_t i = 0; out && i < n; i++) {
        char *k = s3_url_encode(sorted[i].name, 0);
        char *v = s3_url_encode(sorted[i].value ? sorted[i].value : "", 0);
        if (k && v)
            len += (size_t)snprintf(out + len, cap - len, "%s%s=%s",
                                    i ? "&" : "", k, v);
        free(k);
        free(v);
        if (!k || !v) {
            free(out);
            out = NULL;
        }
    }
    if (out)
        out[len] = '\0';
    free(sorted);
    return out;
}

int s3_url_parse_spec(const char *spec, char *bucket, size_t bcap,
                      char *prefix, size_t pcap, sm_err *err)
{
    const char *b, *slash;
    size_t blen, plen;
    if (strncmp(spec, "s3://", 5) != 0)
        return sm_err_set(err, SM_ERR_USAGE, "'%s' is not an s3:// URL", spec);
    b = spec + 5;
    slash = strchr(b, '/');
    blen = slash ? (size_t)(slash - b) : strlen(b);
    if (blen < 1 || blen >= bcap || blen > 63)
        return sm_err_set(err, SM_ERR_USAGE,
                          "'%s': expected s3://BUCKET/PREFIX", spec);
    for (size_t i = 0; i < blen; i++)
        if (!url_unreserved((unsigned char)b[i]) || b[i] == '~')
            return sm_err_set(err, SM_ERR_USAGE,
                              "'%s': invalid bucket name", spec);
    const char *p = slash ? slash + 1 : "";
    plen = strlen(p);
    if (plen + 2 > pcap)
        return sm_err_set(err, SM_ERR_USAGE, "'%s': prefix too long", spec);
    memcpy(bucket, b, blen);
    bucket[blen] = '\0';
    memcpy(prefix, p, plen + 1);
    if (plen && prefix[plen - 1] != '/')
        memcpy(prefix + plen, "/", 2);
    return 0;
}

char *s3_url_build(const char *endpoint, const char *region,
                   const char *bucket, const char *key, const char *query)
{
    char *ek = s3_url_encode(key ? key : "", 1);
    char *out = NULL;
    size_t elen;
    int n;
    if (!ek)
        return NULL;
    const char *q = query && *query ? query : NULL;
    if (endpoint) {
        elen = strlen(endpoint);
        while (elen && endpoint[elen - 1] == '/')
            elen--;
        n = asprintf(&out, "%.*s/%s/%s%s%s", (int)elen, endpoint, bucket, ek,
                     q ? "?" : "", q ? q : "");
    } else if (strchr(bucket, '.')) {
        n = asprintf(&out, "https://s3.%s.amazonaws.com/%s/%s%s%s", region,
                     bucket, ek, q ? "?" : "", q ? q : "");
    } else {
        n = asprintf(&out, "https://%s.s3.%s.amazonaws.com/%s%s%s", bucket,
                     region, ek, q ? "?" : "", q ? q : "");
    }
    free(ek);
    return n < 0 ? NULL : out;
}
