/* aws_imds: IMDSv2 client; see aws_imds.h. */
#include "io/aws/aws_imds.h"

#include <curl/curl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "io/aws/s3_xml.h"

typedef struct imds_buf {
    char data[8192];
    size_t len;
} imds_buf;

int aws_imds_disabled(void)
{
    const char *v = getenv("AWS_EC2_METADATA_DISABLED");
    return v && !strcasecmp(v, "true");
}

static size_t imds_write(char *p, size_t sz, size_t n, void *ud)
{
    imds_buf *b = ud;
    size_t take = sz * n;
    if (take > sizeof b->data - 1 - b->len)
        return 0; /* larger than any real answer: fail the transfer */
    memcpy(b->data + b->len, p, take);
    b->len += take;
    b->data[b->len] = '\0';
    return take;
}

/* One request; returns the HTTP status (0 on transport failure). */
static long imds_call(const char *url, const char *method, const char *hdr,
                      imds_buf *out)
{
    CURL *c = curl_easy_init();
    struct curl_slist *h = hdr ? curl_slist_append(NULL, hdr) : NULL;
    long status = 0;
    if (!c)
        return 0;
    out->len = 0;
    out->data[0] = '\0';
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, 1000L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, 2000L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_NOPROXY, "*");
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, imds_write);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, out);
    if (curl_easy_perform(c) == CURLE_OK)
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(h);
    curl_easy_cleanup(c);
    return status;
}

int aws_imds_parse(const char *text, aws_imds_creds *out, sm_err *err)
{
    json_t *j = json_loads(text, 0, NULL);
    const char *ak = j ? json_string_value(json_object_get(j, "AccessKeyId")) : NULL;
    const char *sk = j ? json_string_value(json_object_get(j, "SecretAccessKey")) : NULL;
    const char *tk = j ? json_string_value(json_object_get(j, "Token")) : NULL;
    const char *ex = j ? json_string_value(json_object_get(j, "Expiration")) : NULL;
    int rc = -1;
    if (ak && sk && tk && strlen(ak) < sizeof out->akid &&
        strlen(sk) < sizeof out->secret && strlen(tk) < sizeof out->token) {
        snprintf(out->akid, sizeof out->akid, "%s", ak);
        snprintf(out->secret, sizeof out->secret, "%s", sk);
        snprintf(out->token, sizeof out->token, "%s", tk);
        out->expires_us = ex ? s3_xml_parse_time(ex) : 0;
        rc = 0;
    } else {
        sm_err_set(err, SM_ERR_DENIED, "the EC2 metadata service returned "
                   "unusable role credentials");
    }
    json_decref(j);
    return rc;
}

int aws_imds_fetch(aws_imds_creds *out, sm_err *err)
{
    const char *ep = getenv("AWS_EC2_METADATA_SERVICE_ENDPOINT");
    char base[512], url[1024], hdr[8300], role[256];
    imds_buf *b = malloc(sizeof *b);
    long st;
    int rc = -1;
    if (!b)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    snprintf(base, sizeof base, "%s", ep && *ep ? ep : "http://169.254.169.254");
    for (size_t n = strlen(base); n && base[n - 1] == '/'; n--)
        base[n - 1] = '\0';
    snprintf(url, sizeof url, "%s/latest/api/token", base);
    st = imds_call(url, "PUT", "X-aws-ec2-metadata-token-ttl-seconds: 21600", b);
    if (st != 200 || !b->len || b->len > 400) {
        sm_err_set(err, SM_ERR_NOTFOUND, "no EC2 instance metadata at %s "
                   "(IMDSv2 token request: %s)", base,
                   st ? "rejected" : "no answer");
        goto out;
    }
    snprintf(hdr, sizeof hdr, "X-aws-ec2-metadata-token: %s", b->data);
    snprintf(url, sizeof url, "%s/latest/meta-data/iam/security-credentials/", base);
    st = imds_call(url, "GET", hdr, b);
    if (st != 200 || !b->len || b->len >= sizeof role || strchr(b->data, '/')) {
        sm_err_set(err, st == 401 ? SM_ERR_DENIED : SM_ERR_NOTFOUND,
                   "the EC2 instance has no IAM role attached (IMDS answered %ld)", st);
        goto out;
    }
    snprintf(role, sizeof role, "%.*s", (int)strcspn(b->data, "\r\n"), b->data);
    snprintf(url, sizeof url, "%s/latest/meta-data/iam/security-credentials/%s",
             base, role);
    st = imds_call(url, "GET", hdr, b);
    if (st != 200) {
        sm_err_set(err, SM_ERR_DENIED, "IMDS refused the credentials of role "
                   "'%s' (HTTP %ld)", role, st);
        goto out;
    }
    rc = aws_imds_parse(b->data, out, err);
out:
    memset(b, 0, sizeof *b); /* the token and secret leave no copy behind */
    free(b);
    return rc;
}
