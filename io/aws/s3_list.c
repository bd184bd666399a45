/* s3_list: ListObjectsV2 paging; see s3_list.h. */
#include "io/aws/s3_list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/aws/s3_url.h"
#include "io/aws/s3_xml.h"

typedef struct list_page {
    char *body;
    size_t len;
    s3_http_resp meta;        /* strings inside point into `codes` */
    char code[64], msg[256];
    char region[64];          /* the <Region> an error names, "" none */
    int ok;
} list_page;

static void list_on_done(void *ud, size_t idx, const s3_http_resp *r)
{
    list_page *p = ud;
    (void)idx;
    p->meta = *r;
    snprintf(p->code, sizeof p->code, "%s", r->s3code);
    snprintf(p->msg, sizeof p->msg, "%s", r->curl_msg);
    p->meta.s3code = p->code;
    p->meta.curl_msg = p->msg;
    p->ok = r->curl_code == 0 && r->status == 200;
    if (!p->ok && r->body && s3_xml_find(r->body, r->len, "Region", p->region,
                                         sizeof p->region) < 0)
        p->region[0] = '\0';
    if (p->ok && (p->body = malloc(r->len + 1))) {
        memcpy(p->body, r->body, r->len + 1);
        p->len = r->len;
    }
}

/* Fetches one page; returns 0 and fills out, or -1 with err. */
static int list_page_get(const s3_list_ctx *s, const char *prefix, const char *after,
                         const char *token, s3_xml_list *out, sm_err *err)
{
    char mk[16];
    s3_param p[5] = {{"list-type", "2"}, {"prefix", prefix}};
    size_t n = 2;
    list_page pg = {0};
    if (token)
        p[n++] = (s3_param){"continuation-token", token};
    else if (after && *after)
        p[n++] = (s3_param){"start-after", after};
    if (s->max_keys > 0) {
        snprintf(mk, sizeof mk, "%d", s->max_keys);
        p[n++] = (s3_param){"max-keys", mk};
    }
    char *q = s3_url_query(p, n);
    char *url = q ? s3_url_build(s->endpoint, s->region, s->bucket, NULL, q)
                  : NULL;
    s3_http_req req = {.url = url, .range_from = -1, .range_to = -1};
    int rc = -1;
    if (!url)
        sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    else if (s3_http_run(s->http, &req, 1, list_on_done, &pg, err) == 0) {
        if (!pg.ok) {
            s3_fail_ctx fc = *s->fail;
            fc.bucket_region = pg.region;
            s3_retry_explain(pg.meta.curl_code, pg.meta.curl_msg,
                             pg.meta.status, pg.meta.s3code, &fc, err);
        }
        else if (!pg.body || s3_xml_parse_list(pg.body, pg.len, out) < 0)
            sm_err_set(err, SM_ERR_FORMAT, "S3 listing of s3://%s/%s was not a"
                       " ListObjectsV2 result", s->bucket, prefix);
        else
            rc = 0;
    }
    free(pg.body);
    free(url);
    free(q);
    return rc;
}

int s3_list_objects(const s3_list_ctx *s, const char *prefix,
                    const char *start_after, s3_list_cb cb, void *ud,
                    sm_err *err)
{
    char *full = NULL, *after = NULL, *token = NULL;
    size_t rl = strlen(s->root);
    int rc = 0, stop = 0;
    if (asprintf(&full, "%s%s", s->root, prefix ? prefix : "") < 0)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    if (start_after && *start_after &&
        asprintf(&after, "%s%s", s->root, start_after) < 0) {
        free(full);
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    }
    while (!stop) {
        s3_xml_list l;
        if ((rc = list_page_get(s, full, after, token, &l, err)) < 0)
            break;
        for (size_t i = 0; i < l.n && !stop; i++) {
            const s3_xml_object *o = &l.objs[i];
            if (strncmp(o->key, s->root, rl) != 0 || !o->key[rl])
                continue;
            if (s3_etags_put(s->etags, o->key + rl, o->etag, o->size) < 0) {
                rc = sm_err_set(err, SM_ERR_NOMEM, "out of memory");
                stop = 1;
            } else if (cb(ud, o->key + rl, o->size, o->mtime_us, o->etag)) {
                stop = 1;
            }
        }
        free(token);
        token = l.truncated && l.next_token ? strdup(l.next_token) : NULL;
        stop |= !token;
        s3_xml_list_free(&l);
    }
    free(token);
    free(after);
    free(full);
    return rc;
}

