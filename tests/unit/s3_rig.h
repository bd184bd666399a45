/* s3_rig: starts and drives the loopback S3 test rig (tests/s3/server.js:
 * s3rver behind the strict SigV4 front, control port, fake IMDSv2) from a
 * C test. Header-only so any test_*.c can include it; everything binds
 * 127.0.0.1 and the server is stopped by PID (it also exits by itself
 * after --max-runtime-s). */
#ifndef SMTOP_TEST_S3_RIG_H
#define SMTOP_TEST_S3_RIG_H

#include <curl/curl.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

static int rig_read_ready(s3_rig *r, const char *path)
{
    json_t *j = json_load_file(path, 0, NULL);
    if (!j)
        return -1;
    r->s3 = (int)json_integer_value(json_object_get(j, "s3"));
    r->s3rver = (int)json_integer_value(json_object_get(j, "s3rver"));
    r->ctl = (int)json_integer_value(json_object_get(j, "ctl"));
    r->imds = (int)json_integer_value(json_object_get(j, "imds"));
    json_decref(j);
    snprintf(r->endpoint, sizeof r->endpoint, "http://127.0.0.1:%d", r->s3);
    return 0;
}

/* Starts the rig (fixed ports when r->s3 != 0, i.e. on a restart).
 * Returns 0 when it is listening, -1 otherwise. */
static int rig_start(s3_rig *r)
{
    char ready[300], ports[4][16], imds_exp[] = "120";
    snprintf(ready, sizeof ready, "%s/ready.json", r->dir);
    unlink(ready);
    snprintf(ports[0], 16, "%d", r->s3);
    snprintf(ports[1], 16, "%d", r->s3rver);
    snprintf(ports[2], 16, "%d", r->ctl);
    snprintf(ports[3], 16, "%d", r->imds);
    char data[300];
    snprintf(data, sizeof data, "%s/data", r->dir);
    pid_t pid = fork();
    if (pid == 0) {
        execlp("node", "node", "--openssl-legacy-provider",
               SMTOP_TEST_SRC "/s3/server.js", "--dir", data, "--ready-file",
               ready, "--port", ports[0], "--s3rver-port", ports[1],
               "--ctl-port", ports[2], "--imds-port", ports[3],
               "--imds-expiry-s", imds_exp, "--max-runtime-s", "240", (char *)NULL);
        _exit(127);
    }
    r->pid = pid;
    for (int i = 0; i < 750; i++) { /* up to 15 s on a loaded machine */
        if (rig_read_ready(r, ready) == 0)
            return 0;
        usleep(20000);
    }
    return -1;
}

static void rig_stop(s3_rig *r)
{
    if (r->pid > 0) {
        kill(r->pid, SIGTERM);
        waitpid(r->pid, NULL, 0);
        r->pid = 0;
    }
}

static size_t rig_sink(char *p, size_t s, size_t n, void *ud)
{
    json_t **out = ud;
    if (out) {
        json_decref(*out);
        *out = json_loadb(p, s * n, 0, NULL);
    }
    return s * n;
}

/* Plain (unsigned) request to a rig port; returns the HTTP status. */
static long rig_http(int port, const char *method, const char *path,
                     const void *body, size_t len, json_t **out)
{
    char url[2048];
    long st = 0;
    CURL *c = curl_easy_init();
    snprintf(url, sizeof url, "http://127.0.0.1:%d%s", port, path);
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
    if (body) {
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)len);
    }
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, rig_sink);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, out);
    if (curl_easy_perform(c) == CURLE_OK)
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &st);
    curl_easy_cleanup(c);
    return st;
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

/* Environment for "long-term keys from the environment, no IMDS". */
static void rig_env_keys(const char *akid, const char *secret, const char *token)
{
    setenv("AWS_ACCESS_KEY_ID", akid, 1);
    setenv("AWS_SECRET_ACCESS_KEY", secret, 1);
    if (token)
        setenv("AWS_SESSION_TOKEN", token, 1);
    else
        unsetenv("AWS_SESSION_TOKEN");
    unsetenv("AWS_PROFILE");
    setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/smtop-test", 1);
    setenv("AWS_CONFIG_FILE", "/nonexistent/smtop-test", 1);
    setenv("AWS_EC2_METADATA_DISABLED", "true", 1);
    setenv("AWS_REGION", "us-east-1", 1);
}

#endif
