/* s3_rig: starts and drives the loopback S3 test rig (tests/s3/server.js:
 * s3rver behind the strict SigV4 front, control port, fake IMDSv2) from a
 * C test. Header-only so any test_*.c can include it; the process,
 * control requests and keys are rig_proc's (the server also exits by
 * itself after --max-runtime-s). */
#ifndef SMTOP_TEST_S3_RIG_H
#define SMTOP_TEST_S3_RIG_H

#include <sys/stat.h>
#include <time.h>

#include "rig_proc.h"

typedef struct s3_rig {
    char dir[256];
    pid_t pid;
    int s3, s3rver, ctl, imds;   /* ports; reused on restart */
    char endpoint[64];
} s3_rig;

static int rig_node_modules_present(void)
{
    struct stat sb;
    return stat(SMTOP_TEST_SRC "/s3/node_modules/s3rver", &sb) == 0;
}

static int rig_read_ready(void *ud, json_t *j)
{
    s3_rig *r = ud;
    r->s3 = (int)json_integer_value(json_object_get(j, "s3"));
    r->s3rver = (int)json_integer_value(json_object_get(j, "s3rver"));
    r->ctl = (int)json_integer_value(json_object_get(j, "ctl"));
    r->imds = (int)json_integer_value(json_object_get(j, "imds"));
    snprintf(r->endpoint, sizeof r->endpoint, "http://127.0.0.1:%d", r->s3);
    return r->s3 > 0 ? 0 : -1;
}

/* Starts the rig (fixed ports when r->s3 != 0, i.e. on a restart).
 * Returns 0 when it is listening, -1 otherwise. */
static int rig_start(s3_rig *r)
{
    char ready[300], ports[4][16], imds_exp[] = "120", data[300];
    snprintf(ready, sizeof ready, "%s/ready.json", r->dir);
    snprintf(ports[0], 16, "%d", r->s3);
    snprintf(ports[1], 16, "%d", r->s3rver);
    snprintf(ports[2], 16, "%d", r->ctl);
    snprintf(ports[3], 16, "%d", r->imds);
    snprintf(data, sizeof data, "%s/data", r->dir);
    char *const argv[] = {"node", "--openssl-legacy-provider", SMTOP_TEST_SRC "/s3/server.js",
                          "--dir", data, "--ready-file", ready, "--port", ports[0],
                          "--s3rver-port", ports[1], "--ctl-port", ports[2], "--imds-port",
                          ports[3], "--imds-expiry-s", imds_exp, "--max-runtime-s", "240",
                          NULL};
    return rig_proc_start(argv, ready, &r->pid, rig_read_ready, r);
}

static void rig_stop(s3_rig *r)
{
    rig_proc_stop(&r->pid);
}

/* Stores an object straight into s3rver (the front is for smtop only).
 * key must already be URL-encoded where needed. */
static long rig_put(s3_rig *r, const char *bucket, const char *enc_key,
                    const void *data, size_t len)
{
    char path[1024];
    snprintf(path, sizeof path, "/%s/%s", bucket, enc_key);
    return rig_http(r->s3rver, "PUT", path, data, len, NULL);
}

static long rig_mkbucket(s3_rig *r, const char *bucket)
{
    char path[128];
    snprintf(path, sizeof path, "/%s", bucket);
    return rig_http(r->s3rver, "PUT", path, NULL, 0, NULL);
}

static void rig_fault(s3_rig *r, const char *json)
{
    rig_http(r->ctl, "POST", "/fault", json, strlen(json), NULL);
}

/* A counter from the front's /stats (bytes, requests, rejected, ...). */
static long long rig_stat(s3_rig *r, const char *name)
{
    json_t *j = NULL;
    long long v = -1;
    rig_http(r->ctl, "GET", "/stats", NULL, 0, &j);
    if (j)
        v = json_integer_value(json_object_get(j, name));
    json_decref(j);
    return v;
}

static void rig_reset(s3_rig *r)
{
    rig_http(r->ctl, "POST", "/reset", "", 0, NULL);
}

#endif
