/* s3_xml: minimal element extraction for S3 responses; see s3_xml.h. */
#include "io/aws/s3_xml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Finds "<name>" or "<name attr...>" (not "<nameX>") in [p, end); returns the first
 * byte of its content and sets *cend to the matching "</name>". */
static const char *xml_elem(const char *p, const char *end, const char *name,
                            const char **cend)
{
    size_t nl = strlen(name);
    while (p && p < end) {
        const char *lt = memchr(p, '<', (size_t)(end - p));
        if (!lt || (size_t)(end - lt) < nl + 2)
            return NULL;
        char after = lt[nl + 1];
        if (!memcmp(lt + 1, name, nl) &&
            (after == '>' || after == ' ' || after == '\t' || after == '\n')) {
            const char *gt = memchr(lt + nl + 1, '>', (size_t)(end - lt - nl - 1));
            if (!gt)
                return NULL;
            const char *c = gt + 1;
            for (const char *q = c; q + nl + 3 <= end; q++) {
                if (q[0] == '<' && q[1] == '/' && !memcmp(q + 2, name, nl) &&
                    q[nl + 2] == '>') {
                    *cend = q;
                    return c;
                }
            }
            return NULL;
        }
        p = lt + 1;
    }
    return NULL;
}

static size_t xml_put_utf8(char *o, unsigned long cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Decodes entities of [p, end) into a new string (never longer). */
static char *xml_text(const char *p, const char *end)
{
    static const struct { const char *ent; char c; } ents[] = {
        {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'},
        {"&apos;", '\''}};
    char *out = malloc((size_t)(end - p) + 1), *o = out;
    if (!out)
        return NULL;
    while (p < end) {
        size_t i, left = (size_t)(end - p);
        if (*p != '&') {
            *o++ = *p++;
            continue;
        }
        for (i = 0; i < 5; i++) {
            size_t el = strlen(ents[i].ent);
            if (left >= el && !memcmp(p, ents[i].ent, el)) {
                *o++ = ents[i].c;
                p += el;
                break;
            }
        }
        if (i < 5)
            continue;
        const char *semi = memchr(p, ';', left < 12 ? left : 12);
        unsigned long cp = 0;
        if (semi && left > 2 && p[1] == '#') {
            char num[12] = {0};
            memcpy(num, p + 2, (size_t)(semi - p - 2));
            cp = (num[0] == 'x') ? strtoul(num + 1, NULL, 16)
                                 : strtoul(num, NULL, 10);
        }
        if (cp > 0 && cp <= 0x10FFFF && (size_t)(semi + 1 - p) >= 4) {
            o += xml_put_utf8(o, cp);
            p = semi + 1;
        } else {
            *o++ = *p++;
        }
    }
    *o = '\0';
    return out;
}

int s3_xml_find(const char *buf, size_t len, const char *name, char *out,
                size_t cap)
{
    const char *cend, *c = xml_elem(buf, buf + len, name, &cend);
    char *t;
    if (!c || !cap || !(t = xml_text(c, cend)))
        return -1;
    snprintf(out, cap, "%s", t);
    free(t);
    return 0;
}

int64_t s3_xml_parse_time(const char *s)
{
    struct tm tm = {0};
    int y, mo, d, h, mi;
    double sec;
    if (sscanf(s, "%d-%d-%dT%d:%d:%lfZ", &y, &mo, &d, &h, &mi, &sec) != 6)
        return 0;
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    return (int64_t)timegm(&tm) * 1000000 + (int64_t)(sec * 1e6);
}

static int xml_add_object(s3_xml_list *l, const char *c, const char *end)
{
    const char *e, *v;
    s3_xml_object o = {0};
    s3_xml_object *grown;
    if (!(v = xml_elem(c, end, "Key", &e)))
        return 0; /* not an object entry we can use: skip it */
    o.key = xml_text(v, e);
    o.etag = (v = xml_elem(c, end, "ETag", &e)) ? xml_text(v, e) : strdup("");
    if ((v = xml_elem(c, end, "Size", &e)))
        o.size = strtoll(v, NULL, 10);
    if ((v = xml_elem(c, end, "LastModified", &e))) {
        char t[40] = {0};
        memcpy(t, v, (size_t)(e - v) < sizeof t - 1 ? (size_t)(e - v) : sizeof t - 1);
        o.mtime_us = s3_xml_parse_time(t);
    }
    grown = realloc(l->objs, (l->n + 1) * sizeof *grown);
    if (!o.key || !o.etag || !grown) {
        free(o.key);
        free(o.etag);
        if (grown)
            l->objs = grown;
        return -1;
    }
    l->objs = grown;
    l->objs[l->n++] = o;
    return 0;
}

int s3_xml_parse_list(const char *buf, size_t len, s3_xml_list *out)
{
    const char *end = buf + len, *rend, *root, *p, *c, *cend;
    memset(out, 0, sizeof *out);
    if (!(root = xml_elem(buf, end, "ListBucketResult", &rend)))
        return -1;
    for (p = root; (c = xml_elem(p, rend, "Contents", &cend)); p = cend) {
        if (xml_add_object(out, c, cend) < 0) {
            s3_xml_list_free(out);
            return -1;
        }
    }
    /* Only look for the paging fields outside <Contents> blocks' keys:
     * S3 puts them at top level, and a key named "<IsTruncated>" would be
     * entity-encoded anyway. */
    if ((c = xml_elem(root, rend, "IsTruncated", &cend)))
        out->truncated = (cend - c == 4 && !memcmp(c, "true", 4));
    if ((c = xml_elem(root, rend, "NextContinuationToken", &cend)) &&
        !(out->next_token = xml_text(c, cend))) {
        s3_xml_list_free(out);
        return -1;
    }
    return 0;
}

void s3_xml_list_free(s3_xml_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->objs[i].key);
        free(l->objs[i].etag);
    }
    free(l->objs);
    free(l->next_token);
    memset(l, 0, sizeof *l);
}
