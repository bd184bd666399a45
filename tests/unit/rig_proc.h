/* rig_proc: what the C drivers of the loopback test servers share
 * (s3_rig.h: tests/s3/server.js; aws_rig.h: tests/aws/server.py): start
 * a server and wait for the ready file it writes, stop it by PID, plain
 * control requests, and the test keys in the environment. Header-only;
 * everything binds 127.0.0.1. */
#ifndef SMTOP_TEST_RIG_PROC_H
#define SMTOP_TEST_RIG_PROC_H

#include <curl/curl.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs argv (argv[0] looked up in PATH) and waits up to 15 s (a loaded
 * machine) for it to write the JSON file `ready`, handed to got(ud, j),
 * which returns 0 once it has read what it needs. The old file is
 * removed first. 0 when ready (*pid set either way), -1 otherwise. */
static int rig_proc_start(char *const argv[], const char *ready, pid_t *pid,
                          int (*got)(void *ud, json_t *j), void *ud)
{
    unlink(ready);
    *pid = fork();
    if (*pid == 0) {
        execvp(argv[0], argv);
        _exit(127);
    }
    for (int i = 0; i < 750; i++) {
        json_t *j = json_load_file(ready, 0, NULL);
        int rc = j ? got(ud, j) : -1;
        json_decref(j);
        if (rc == 0)
            return 0;
        usleep(20000);
    }
    return -1;
}

/* Stops the server started as *pid (0: none) and reaps it. */
static void rig_proc_stop(pid_t *pid)
{
    if (*pid > 0) {
        kill(*pid, SIGTERM);
        waitpid(*pid, NULL, 0);
        *pid = 0;
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

/* Plain (unsigned) request to a rig port, the JSON answer into *out when
 * out is not NULL; returns the HTTP status. */
static long rig_http(int port, const char *method, const char *path, const void *body,
                     size_t len, json_t **out)
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
