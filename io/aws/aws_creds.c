/* aws_creds: credential provider chain; see aws_creds.h. */
#include "io/aws/aws_creds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "io/aws/aws_imds.h"
#include "io/aws/aws_ini.h"
#include "io/aws/aws_region.h"

#define REFRESH_AHEAD_US (5LL * 60 * 1000000)

struct aws_creds {
    aws_cred_set set;
    int from_imds;
    int64_t expires_us;
    char origin[256];
    char where[4200];
};

static int64_t creds_now_us(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
}

void aws_creds_wipe(aws_cred_set *s)
{
    volatile char *p = (volatile char *)s;
    for (size_t i = 0; i < sizeof *s; i++)
        p[i] = 0;
}

static int creds_from_env(aws_creds *c)
{
    const char *ak = getenv("AWS_ACCESS_KEY_ID");
    const char *sk = getenv("AWS_SECRET_ACCESS_KEY");
    const char *tk = getenv("AWS_SESSION_TOKEN");
    if (!ak || !*ak || !sk || !*sk)
        return 0;
    snprintf(c->set.akid, sizeof c->set.akid, "%s", ak);
    snprintf(c->set.secret, sizeof c->set.secret, "%s", sk);
    snprintf(c->set.token, sizeof c->set.token, "%s", tk ? tk : "");
    snprintf(c->origin, sizeof c->origin, "the environment variables");
    snprintf(c->where, sizeof c->where, "AWS_ACCESS_KEY_ID / "
             "AWS_SECRET_ACCESS_KEY%s", tk && *tk ? " / AWS_SESSION_TOKEN" : "");
    return 1;
}

/* 1 found, 0 no such profile/keys in this file. *has_profile is set when
 * the section exists (even without keys). */
static int creds_from_file(aws_creds *c, aws_ini_kind kind, const char *name,
                           int *has_profile)
{
    char path[4096];
    char *text;
    int ok;
    if (!aws_ini_path(kind, path, sizeof path) || !(text = aws_ini_read_file(path)))
        return 0;
    *has_profile |= aws_ini_has_profile(text, kind, name);
    ok = aws_ini_lookup(text, kind, name, "aws_access_key_id", c->set.akid,
                        sizeof c->set.akid) &&
         aws_ini_lookup(text, kind, name, "aws_secret_access_key",
                        c->set.secret, sizeof c->set.secret);
    if (ok) {
        if (!aws_ini_lookup(text, kind, name, "aws_session_token",
                            c->set.token, sizeof c->set.token))
            c->set.token[0] = '\0';
        snprintf(c->origin, sizeof c->origin, "profile '%s'", name);
        snprintf(c->where, sizeof c->where, "%s", path);
    } else {
        aws_creds_wipe(&c->set);
    }
    memset(text, 0, strlen(text));
    free(text);
    return ok;
}

static int creds_from_imds(aws_creds *c, sm_err *err)
{
    aws_imds_creds ic;
    int rc = aws_imds_fetch(&ic, err);
    if (rc == 0) {
        snprintf(c->set.akid, sizeof c->set.akid, "%s", ic.akid);
        snprintf(c->set.secret, sizeof c->set.secret, "%s", ic.secret);
        snprintf(c->set.token, sizeof c->set.token, "%s", ic.token);
        c->expires_us = ic.expires_us;
        c->from_imds = 1;
        snprintf(c->origin, sizeof c->origin, "the EC2 instance role");
        snprintf(c->where, sizeof c->where, "the instance's IAM role "
                 "(via the EC2 metadata service)");
    }
    memset(&ic, 0, sizeof ic);
    return rc;
}

aws_creds *aws_creds_new(const char *profile, sm_err *err)
{
    aws_creds *c = calloc(1, sizeof *c);
    const char *name = aws_region_profile_name(profile);
    int has = 0, explicit_p = (profile && *profile) || getenv("AWS_PROFILE");
    sm_err ierr = {0};
    if (!c) {
        sm_err_set(err, SM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    if (!(profile && *profile) && creds_from_env(c))
        return c;
    if (creds_from_file(c, AWS_INI_CREDENTIALS, name, &has) ||
        creds_from_file(c, AWS_INI_CONFIG, name, &has))
        return c;
    if (explicit_p && !has) {
        sm_err_set(err, SM_ERR_USAGE, "AWS profile '%s' not found in the "
                   "credentials or config file (see AWS_SHARED_CREDENTIALS_FILE "
                   "/ AWS_CONFIG_FILE)", name);
    } else if (!aws_imds_disabled() && creds_from_imds(c, &ierr) == 0) {
        return c;
    } else {
        sm_err_set(err, SM_ERR_NOTFOUND, "no AWS credentials found: set "
                   "AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, run `aws configure`"
                   " (profile '%s'), or use an EC2 instance role%s%s", name,
                   ierr.msg[0] ? " — " : "", ierr.msg);
    }
    aws_creds_free(c);
    return NULL;
}

int aws_creds_get(aws_creds *c, aws_cred_set *out, sm_err *err)
{
    if (c->from_imds && c->expires_us &&
        creds_now_us() > c->expires_us - REFRESH_AHEAD_US) {
        aws_creds fresh = *c;
        if (creds_from_imds(&fresh, err) < 0) {
            aws_creds_wipe(out);
            memset(&fresh, 0, sizeof fresh);
            /* still valid for a while: keep using what we have */
            if (creds_now_us() >= c->expires_us)
                return -1;
            *out = c->set;
            return 0;
        }
        *c = fresh;
        memset(&fresh, 0, sizeof fresh);
    }
    *out = c->set;
    return 0;
}

const char *aws_creds_origin(const aws_creds *c) { return c->origin; }
const char *aws_creds_where(const aws_creds *c) { return c->where; }

void aws_creds_free(aws_creds *c)
{
    if (!c)
        return;
    aws_creds_wipe(&c->set);
    free(c);
}
