/* s3_xml: the few S3 XML documents smtop reads (ListObjectsV2 results and
 * <Error> bodies), parsed by element name, never by position.
 *
 * Hand-written rather than libxml2: the dependency set has no XML library
 * and three element names do not justify one more. The scanner is minimal
 * but safe on any bytes: it bounds every search by the buffer length,
 * decodes the five predefined entities and numeric references, and treats
 * anything it does not understand as absent. */
#ifndef SMTOP_S3_XML_H
#define SMTOP_S3_XML_H

#include <stddef.h>
#include <stdint.h>

typedef struct s3_xml_object {
    char *key;        /* decoded, malloc'd */
    char *etag;       /* quotes kept as S3 sends them, decoded */
    int64_t size;
    int64_t mtime_us; /* from LastModified, 0 when absent/unparsable */
} s3_xml_object;

typedef struct s3_xml_list {
    s3_xml_object *objs;
    size_t n;
    int truncated;        /* IsTruncated == true */
    char *next_token;     /* NextContinuationToken, NULL when none */
} s3_xml_list;

/* Parses a ListObjectsV2 body. Returns 0 and fills out (caller frees with
 * s3_xml_list_free), -1 when the body is not a ListBucketResult or on OOM. */
int s3_xml_parse_list(const char *buf, size_t len, s3_xml_list *out);
void s3_xml_list_free(s3_xml_list *l);

/* Copies the decoded text of the first <name> element anywhere in buf
 * into out (truncated to cap). Returns 0, or -1 when absent. Used for
 * <Error><Code> and <Message>. */
int s3_xml_find(const char *buf, size_t len, const char *name, char *out,
                size_t cap);

/* "2026-11-22T11:36:16.000Z" → µs since the epoch; 0 when unparsable. */
int64_t s3_xml_parse_time(const char *s);

#endif
