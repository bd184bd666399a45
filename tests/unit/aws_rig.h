/* aws_rig: starts and drives the local SageMaker + CloudWatch API
 * (tests/aws/server.py, on Debian's python3-botocore) from a C test.
 * Header-only; the process, control requests and keys are rig_proc's. */
#ifndef SMTOP_TEST_AWS_RIG_H
#define SMTOP_TEST_AWS_RIG_H

#include "rig_proc.h"

typedef struct aws_rig {
    char dir[256];
    pid_t pid;
    int port;
    char endpoint[64];
} aws_rig;

/* Whether /usr/bin/python3 has botocore (python3-botocore). */
static int aws_rig_available(void)
{
    return system("/usr/bin/python3 -c 'import botocore' >/dev/null 2>&1") == 0;
}

static int aws_rig_ready(void *ud, json_t *j)
{
    aws_rig *r = ud;
    r->port = (int)json_integer_value(json_object_get(j, "port"));
    snprintf(r->endpoint, sizeof r->endpoint, "http://127.0.0.1:%d", r->port);
    return r->port > 0 ? 0 : -1;
}

/* Starts the server with `jobs` generated jobs; 0 when listening. */
static int aws_rig_start(aws_rig *r, int jobs)
{
    char ready[300], njobs[16];
    snprintf(ready, sizeof ready, "%s/aws-ready.json", r->dir);
    snprintf(njobs, sizeof njobs, "%d", jobs);
    char *const argv[] = {"/usr/bin/python3", SMTOP_TEST_SRC "/aws/server.py", "--jobs", njobs,
                          "--ready-file", ready, "--max-runtime-s", "240", NULL};
    return rig_proc_start(argv, ready, &r->pid, aws_rig_ready, r);
}

static void aws_rig_stop(aws_rig *r)
{
    rig_proc_stop(&r->pid);
}

static void aws_rig_env(void)
{
    rig_env_keys("AKIDSMTOPTEST", "smtop+test/secret=key", NULL);
}

static void aws_rig_fault(aws_rig *r, const char *json)
{
    rig_http(r->port, "POST", "/__fault", json, strlen(json), NULL);
}

static void aws_rig_reset(aws_rig *r)
{
    rig_http(r->port, "POST", "/__reset", "", 0, NULL);
}

/* The server's /__stats. Caller frees. */
static json_t *aws_rig_stats(aws_rig *r)
{
    json_t *j = NULL;
    rig_http(r->port, "GET", "/__stats", NULL, 0, &j);
    return j;
}

/* Calls of op served so far (signature and model checks passed). */
static long long aws_rig_calls(aws_rig *r, const char *op)
{
    json_t *j = aws_rig_stats(r);
    long long v = json_integer_value(json_object_get(json_object_get(j, "calls"), op));
    json_decref(j);
    return v;
}

/* Requests the server refused (bad signature, off-model input). */
static size_t aws_rig_rejects(aws_rig *r)
{
    json_t *j = aws_rig_stats(r);
    size_t n = json_array_size(json_object_get(j, "rejects"));
    json_decref(j);
    return n;
}

#endif
