/* aws_rig: starts and drives the local SageMaker + CloudWatch API
 * (tests/aws/server.py, on Debian's python3-botocore) from a C test.
 * Header-only; binds 127.0.0.1, stopped by PID (and by itself after
 * --max-runtime-s). */
#ifndef SMTOP_TEST_AWS_RIG_H
#define SMTOP_TEST_AWS_RIG_H

#include <curl/curl.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* Starts the server with `jobs` generated jobs; 0 when listening. */
static int aws_rig_start(aws_rig *r, int jobs)
{
    char ready[300], njobs[16];
    snprintf(ready, sizeof ready, "%s/aws-ready.json", r->dir);
    snprintf(njobs, sizeof njobs, "%d", jobs);
    unlink(ready);
    pid_t pid = fork();
    if (pid == 0) {
        execl("/usr/bin/python3", "python3", SMTOP_TEST_SRC "/aws/server.py", "--jobs",
              njobs, "--ready-file", ready, "--max-runtime-s", "240", (char *)NULL);
        _exit(127);
    }
    r->pid = pid;
    for (int i = 0; i < 750; i++) {
        json_t *j = json_load_file(ready, 0, NULL);
        if (j) {
            r->port = (int)json_integer_value(json_object_get(j, "port"));
            json_decref(j);
            snprintf(r->endpoint, sizeof r->endpoint, "http://127.0.0.1:%d", r->port);
            return 0;
        }
        usleep(20000);
    }
    return -1;
}

static void aws_rig_stop(aws_rig *r)
{
    if (r->pid > 0) {
        kill(r->pid, SIGTERM);
        waitpid(r->pid, NULL, 0);
        r->pid = 0;
    }
}

static size_t aws_rig_sink(char *p, size_t s, size_t n, void *ud)
{
    json_t **out = ud;
    if (out) {
        json_decref(*out);
        *out = json_loadb(p, s * n, 0, NULL);
    }
    return s * n;
}

/* A plain (unsigned) control request; returns the HTTP status. */
static long aws_rig_http(int port, const char *method, const char *path,
                         const char *body, json_t **out)
{
    char url[512];
    long st = 0;
    CURL *c = curl_easy_init();
    snprintf(url, sizeof url, "http://127.0.0.1:%d%s", port, path);
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
    if (body)
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, aws_rig_sink);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, out);
    if (curl_easy_perform(c) == CURLE_OK)
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &st);
    curl_easy_cleanup(c);
    return st;
}

/* Environment for "long-term keys from the environment, no IMDS". */
static void aws_rig_env(void)
{
    setenv("AWS_ACCESS_KEY_ID", "AKIDSMTOPTEST", 1);
    setenv("AWS_SECRET_ACCESS_KEY", "smtop+test/secret=key", 1);
    unsetenv("AWS_SESSION_TOKEN");
    unsetenv("AWS_PROFILE");
    setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/smtop-test", 1);
    setenv("AWS_CONFIG_FILE", "/nonexistent/smtop-test", 1);
    setenv("AWS_EC2_METADATA_DISABLED", "true", 1);
    setenv("AWS_REGION", "us-east-1", 1);
}

static void aws_rig_fault(aws_rig *r, const char *json)
{
    aws_rig_http(r->port, "POST", "/__fault", json, NULL);
}

static void aws_rig_reset(aws_rig *r)
{
    aws_rig_http(r->port, "POST", "/__reset", "", NULL);
}

/* Calls of op served so far (signature and model checks passed). */
static long long aws_rig_calls(aws_rig *r, const char *op)
{
    json_t *j = NULL;
    aws_rig_http(r->port, "GET", "/__stats", NULL, &j);
    long long v = json_integer_value(json_object_get(json_object_get(j, "calls"), op));
    json_decref(j);
    return v;
}

/* Requests the server refused (bad signature, off-model input). */
static size_t aws_rig_rejects(aws_rig *r)
{
    json_t *j = NULL;
    aws_rig_http(r->port, "GET", "/__stats", NULL, &j);
    size_t n = json_array_size(json_object_get(j, "rejects"));
    json_decref(j);
    return n;
}

#endif
