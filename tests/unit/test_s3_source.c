/* source_s3 against the real loopback rig: s3rver behind a front that
 * verifies every SigV4 signature. Covers paging + start-after, odd keys,
 * ranged reads of a growing and a replaced object, credential errors,
 * profile files, IMDSv2, 503 storms, stalls, dropped connections, a
 * server restart mid-listing, and the cache. Skips (77) when
 * tests/s3/node_modules is missing (run `npm ci --prefix tests/s3`). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>

#include "tmpdir.h"
#include "io/source/cache.h"
#include "io/source/source_s3.h"
#include "s3_rig.h"

static s3_rig rig;
static int slow_backoff; /* the restart test needs retries spread over ~4 s */

typedef struct got {
    char keys[64][256];
    int64_t sizes[64];
    size_t n;
    char data[700000];
    size_t len;
    char etag[256];
    int calls;
    sm_err err;
    int failed;
} got;

static int on_entry(void *ud, const source_entry *e)
{
    got *g = ud;
    if (g->n < 64) {
        snprintf(g->keys[g->n], sizeof g->keys[0], "%s", e->key);
        g->sizes[g->n++] = e->size;
    }
    return 0;
}

static void on_data(void *ud, const source_req *q, const void *data, size_t len,
                    const char *etag, const sm_err *err)
{
    got *g = ud;
    (void)q;
    g->calls++;
    snprintf(g->etag, sizeof g->etag, "%s", etag);
    if (err) {
        g->failed++;
        g->err = *err;
        return;
    }
    if (g->len + len < sizeof g->data) {
        memcpy(g->data + g->len, data, len);
        g->len += len;
        g->data[g->len] = '\0';
    }
}

static void tuning(s3_tuning *t, const char *cache_dir)
{
    source_s3_tuning_defaults(t);
    t->max_keys = 7;
    t->max_attempts = 6;
    t->backoff_base_ms = 50;
    t->backoff_cap_ms = 400;
    t->stall_timeout_s = 1;
    t->connect_timeout_s = 2;
    t->cache_dir = cache_dir;
    if (slow_backoff) {
        t->max_attempts = 14; /* ~10 s: node may start slowly on a busy host */
        t->backoff_cap_ms = 1000;
    }
}

static source *open_src(const char *prefix, int no_cache, sm_err *err)
{
    source_opts o;
    s3_tuning t;
    char spec[256], cdir[300];
    snprintf(cdir, sizeof cdir, "%s/cache", rig.dir);
    source_opts_init(&o);
    o.endpoint_url = rig.endpoint;
    o.no_cache = no_cache;
    tuning(&t, cdir);
    snprintf(spec, sizeof spec, "s3://bkt/%s", prefix);
    return source_s3_open(spec, &o, &t, err);
}

static got g;

static got *fetch1(source *s, const char *key, int64_t off, int64_t len)
{
    sm_err err;
    source_req q = {.key = key, .offset = off, .len = len, .user = NULL};
    memset(&g, 0, sizeof g);
    assert_int_equal(source_fetch(s, &q, 1, on_data, &g, &err), 0);
    assert_int_equal(g.calls, 1);
    return &g;
}

static int group_setup(void **st)
{
    (void)st;
    if (!rig_node_modules_present()) {
        fprintf(stderr, "SKIPPED: node_modules missing, run npm ci --prefix tests/s3\n");
        exit(77); /* test program's own main-level decision: skip */
    }
    snprintf(rig.dir, sizeof rig.dir, "/tmp/smtop-s3src-XXXXXX");
    if (!mkdtemp(rig.dir) || rig_start(&rig) < 0)
        return -1;
    rig_mkbucket(&rig, "bkt");
    rig_env_keys("AKIDSMTOPTEST", "smtop+test/secret=key", NULL);
    return 0;
}

static int group_teardown(void **st)
{
    (void)st;
    rig_stop(&rig);
    return tmpdir_remove(rig.dir);
}

static void test_list_paging_start_after(void **st)
{
    (void)st;
    char key[128];
    sm_err err;
    for (int i = 0; i < 20; i++) {
        snprintf(key, sizeof key, "job/profiler-output/system/incremental/2020061000/%d.algo-1.json",
                 1591747200 + 60 * i);
        rig_put(&rig, "bkt", key, "{}\n", 3);
    }
    rig_put(&rig, "bkt", "job/other/x.json", "{}\n", 3);
    source *s = open_src("job/profiler-output", 1, &err);
    assert_non_null(s);
    assert_string_equal(source_describe(s), "s3://bkt/job/profiler-output/");
    got g = {0};
    assert_int_equal(source_list(s, "system/", NULL, on_entry, &g, &err), 0);
    assert_int_equal(g.n, 20); /* three pages of 7 */
    assert_string_equal(g.keys[0], "system/incremental/2020061000/1591747200.algo-1.json");
    for (size_t i = 1; i < g.n; i++)
        assert_true(strcmp(g.keys[i - 1], g.keys[i]) < 0);
    memset(&g, 0, sizeof g);
    assert_int_equal(source_list(s, "system/", "system/incremental/2020061000/1591747800",
                                 on_entry, &g, &err), 0);
    assert_int_equal(g.n, 10); /* minutes 10..19 */
    assert_string_equal(g.keys[0], "system/incremental/2020061000/1591747800.algo-1.json");
    source_free(s);
}

static void test_odd_keys(void **st)
{
    (void)st;
    sm_err err;
    rig_put(&rig, "bkt", "odd/a%20b%2Bc%3D%3Ad%20e.json", "hello odd\n", 10);
    source *s = open_src("odd", 1, &err);
    got g = {0};
    assert_int_equal(source_list(s, "", NULL, on_entry, &g, &err), 0);
    assert_int_equal(g.n, 1);
    assert_string_equal(g.keys[0], "a b+c=:d e.json");
    got *d = fetch1(s, "a b+c=:d e.json", 0, -1);
    assert_int_equal(d->failed, 0);
    assert_string_equal(d->data, "hello odd\n");
    d = fetch1(s, "a b+c=:d e.json", 6, 3);
    assert_string_equal(d->data, "odd");
    source_free(s);
}

static void test_growing_then_replaced(void **st)
{
    (void)st;
    sm_err err;
    char etag1[1024];
    source *s = open_src("grow", 1, &err);
    got g = {0};
    rig_put(&rig, "bkt", "grow/f.json", "line1\n", 6);
    assert_int_equal(source_list(s, "", NULL, on_entry, &g, &err), 0);
    got *d = fetch1(s, "f.json", 0, -1);
    assert_string_equal(d->data, "line1\n");
    snprintf(etag1, sizeof etag1, "%s", d->etag);
    assert_true(strlen(etag1) > 2);
    rig_put(&rig, "bkt", "grow/f.json", "line1\nline2\n", 12);
    memset(&g, 0, sizeof g);
    assert_int_equal(source_list(s, "", NULL, on_entry, &g, &err), 0);
    assert_int_equal(g.sizes[0], 12);
    d = fetch1(s, "f.json", 6, -1);
    assert_string_equal(d->data, "line2\n"); /* only the new bytes */
    assert_string_not_equal(d->etag, etag1);
    d = fetch1(s, "f.json", 12, -1);
    assert_int_equal(d->failed, 0);
    assert_int_equal(d->len, 0); /* 416: nothing new */
    /* replaced by a shorter object: the ETag tells the caller */
    rig_put(&rig, "bkt", "grow/f.json", "x\n", 2);
    memset(&g, 0, sizeof g);
    assert_int_equal(source_list(s, "", NULL, on_entry, &g, &err), 0);
    d = fetch1(s, "f.json", 12, -1);
    assert_int_equal(d->len, 0);
    assert_string_not_equal(d->etag, etag1);
    d = fetch1(s, "f.json", 0, -1);
    assert_string_equal(d->data, "x\n");
    source_free(s);
}

static void expect_list_error(const char *needle, int code)
{
    sm_err err = {0};
    got g = {0};
    source *s = open_src("job", 1, &err);
    assert_non_null(s);
    assert_int_equal(source_list(s, "", NULL, on_entry, &g, &err), -1);
    if (!strstr(err.msg, needle))
        fail_msg("expected '%s' in: %s", needle, err.msg);
    assert_int_equal(err.code, code);
    /* no secret in the message */
    assert_null(strstr(err.msg, getenv("AWS_SECRET_ACCESS_KEY") ? getenv("AWS_SECRET_ACCESS_KEY") : "\x01"));
    source_free(s);
}

static void test_credential_errors(void **st)
{
    (void)st;
    rig_env_keys("AKIDSMTOPTEST", "wrong-secret-value", NULL);
    expect_list_error("403 SignatureDoesNotMatch from S3: the secret key for the "
                      "environment variables is wrong", SM_ERR_DENIED);
    rig_env_keys("AKIDNOSUCHKEY", "whatever", NULL);
    expect_list_error("InvalidAccessKeyId", SM_ERR_DENIED);
    rig_env_keys("ASIASMTOPEXPIRED", "old/secret", "expired-token");
    expect_list_error("ExpiredToken from S3: the session token", SM_ERR_DENIED);
    rig_env_keys("ASIASMTOPTEMP", "temp/secret+key", NULL); /* token missing */
    expect_list_error("InvalidToken", SM_ERR_DENIED);
    rig_env_keys("AKIDSMTOPTEST", "smtop+test/secret=key", NULL);
    sm_err err;
    got g = {0};
    source_opts o;
    source_opts_init(&o);
    o.endpoint_url = rig.endpoint;
    o.no_cache = 1;
    source *s = source_s3_open("s3://nosuchbucket/x", &o, NULL, &err);
    assert_int_equal(source_list(s, "", NULL, on_entry, &g, &err), -1);
    assert_non_null(strstr(err.msg, "NoSuchBucket"));
    source_free(s);
}

static void test_profile_file_with_session(void **st)
{
    (void)st;
    char path[300];
    sm_err err;
    snprintf(path, sizeof path, "%s/credentials", rig.dir);
    FILE *f = fopen(path, "w");
    fputs("[default]\naws_access_key_id = AKIDNOSUCHKEY\naws_secret_access_key = x\n"
          "[ci]\naws_access_key_id = ASIASMTOPTEMP\naws_secret_access_key = temp/secret+key\n"
          "aws_session_token = tok/en+1==\n", f);
    fclose(f);
    unsetenv("AWS_ACCESS_KEY_ID");
    unsetenv("AWS_SECRET_ACCESS_KEY");
    setenv("AWS_SHARED_CREDENTIALS_FILE", path, 1);
    setenv("AWS_PROFILE", "ci", 1);
    source *s = open_src("job", 1, &err);
    got g = {0};
    assert_int_equal(source_list(s, "", NULL, on_entry, &g, &err), 0);
    assert_true(g.n > 0);
    source_free(s);
    /* the default profile's key is unknown: the message names the file */
    unsetenv("AWS_PROFILE");
    s = open_src("job", 1, &err);
    assert_int_equal(source_list(s, "", NULL, on_entry, &g, &err), -1);
    assert_non_null(strstr(err.msg, "profile 'default'"));
    assert_non_null(strstr(err.msg, path));
    source_free(s);
    rig_env_keys("AKIDSMTOPTEST", "smtop+test/secret=key", NULL);
}

static void test_imds_v2(void **st)
{
    (void)st;
    char ep[64], path[] = "/latest/meta-data/iam/security-credentials/";
    sm_err err;
    /* the fake refuses a v1 (tokenless) request */
    assert_int_equal(rig_http(rig.imds, "GET", path, NULL, 0, NULL), 401);
    unsetenv("AWS_ACCESS_KEY_ID");
    unsetenv("AWS_SECRET_ACCESS_KEY");
    snprintf(ep, sizeof ep, "http://127.0.0.1:%d", rig.imds);
    setenv("AWS_EC2_METADATA_SERVICE_ENDPOINT", ep, 1);
    unsetenv("AWS_EC2_METADATA_DISABLED");
    rig_reset(&rig);
    source *s = open_src("job", 1, &err);
    assert_non_null(s);
    got g = {0};
    assert_int_equal(source_list(s, "", NULL, on_entry, &g, &err), 0);
    assert_true(g.n > 0);
    /* the rig's role credentials expire in 120 s, inside the 5-minute
     * refresh window: every batch fetches fresh ones */
    assert_int_equal(source_list(s, "", NULL, on_entry, &g, &err), 0);
    assert_true(rig_stat(&rig, "imds_token") >= 2);
    assert_true(rig_stat(&rig, "imds_creds") >= 2);
    source_free(s);
    unsetenv("AWS_EC2_METADATA_SERVICE_ENDPOINT");
    rig_env_keys("AKIDSMTOPTEST", "smtop+test/secret=key", NULL);
}

/* Polls the source's status line on a thread: keeps the first and the
 * latest text containing `want` (default "retrying in"). */
typedef struct watcher {
    source *s;
    atomic_int stop;          /* set by the test thread */
    char seen[256];           /* the latest match */
    const char *want;
    char first[256];
} watcher;

static void *watch_status(void *ud)
{
    watcher *w = ud;
    char buf[256];
    while (!atomic_load(&w->stop)) {
        source_status(w->s, buf, sizeof buf);
        if (strstr(buf, w->want ? w->want : "retrying in")) {
            if (!w->first[0])
                snprintf(w->first, sizeof w->first, "%s", buf);
            snprintf(w->seen, sizeof w->seen, "%s", buf);
        }
        usleep(2000);
    }
    return NULL;
}

static void test_503_storm_backoff(void **st)
{
    (void)st;
    sm_err err;
    source_s3_stats ss;
    pthread_t th;
    source *s = open_src("odd", 1, &err);
    watcher w = {.s = s};
    rig_fault(&rig, "{\"kind\":\"503\",\"count\":2}");
    rig_fault(&rig, "{\"kind\":\"slowdown\",\"count\":2}");
    pthread_create(&th, NULL, watch_status, &w);
    got *d = fetch1(s, "a b+c=:d e.json", 0, -1);
    atomic_store(&w.stop, 1);
    pthread_join(th, NULL);
    assert_int_equal(d->failed, 0);
    assert_string_equal(d->data, "hello odd\n");
    source_s3_get_stats(s, &ss);
    assert_int_equal(ss.retries, 4);
    assert_non_null(strstr(w.seen, "retrying in"));
    char buf[256];
    source_status(s, buf, sizeof buf);
    assert_string_equal(buf, ""); /* cleared after success */
    source_free(s);
}

/* 80-byte lines of letters. */
static void fill_lines(char *body, size_t n)
{
    for (size_t i = 0; i < n; i++)
        body[i] = (i % 80 == 79) ? '\n' : (char)('a' + i % 26);
}

static void test_stall_and_drop_retry_whole(void **st)
{
    (void)st;
    sm_err err;
    char body[4000];
    fill_lines(body, sizeof body);
    rig_put(&rig, "bkt", "stall/big.json", body, sizeof body);
    source *s = open_src("stall", 1, &err);
    /* curl judges speed over a ~5 s window: a stall after a few bytes is
     * detected after stall_timeout_s, after many bytes ~5 s later */
    rig_fault(&rig, "{\"kind\":\"stall\",\"count\":1,\"after\":3}");
    got *d = fetch1(s, "big.json", 0, -1);
    assert_int_equal(d->failed, 0);
    assert_int_equal(d->len, sizeof body); /* delivered once, whole */
    assert_memory_equal(d->data, body, sizeof body);
    rig_fault(&rig, "{\"kind\":\"close\",\"count\":2,\"after\":500}");
    d = fetch1(s, "big.json", 100, -1);
    source_s3_stats ss;
    source_s3_get_stats(s, &ss);
    assert_int_equal(ss.retries, 3); /* one stall, two drops */
    assert_int_equal(d->len, sizeof body - 100);
    assert_memory_equal(d->data, body + 100, sizeof body - 100);
    source_free(s);
}

/* Issue 12, finding 10: a body shorter than the listed object, with a
 * Content-Length that agrees with it, was taken as the whole file (and
 * cached). It is fetched again; if it stays short, the read fails with
 * the key named, so the scanner keeps its offset and retries. */
static void test_short_body_retried_then_refused(void **st)
{
    (void)st;
    sm_err err;
    char body[4000];
    fill_lines(body, sizeof body);
    rig_put(&rig, "bkt", "short/m.json", body, sizeof body);
    rig_put(&rig, "bkt", "short/p.json", body, sizeof body);
    source *s = open_src("short", 0, &err);
    got l = {0};
    assert_int_equal(source_list(s, "", NULL, on_entry, &l, &err), 0);
    assert_int_equal(l.n, 2);
    rig_fault(&rig, "{\"kind\":\"short\",\"count\":1,\"after\":1000}");
    got *d = fetch1(s, "m.json", 0, -1);
    assert_int_equal(d->failed, 0);
    assert_int_equal(d->len, sizeof body);
    assert_memory_equal(d->data, body, sizeof body);
    rig_fault(&rig, "{\"kind\":\"short\",\"count\":1,\"after\":700}");
    d = fetch1(s, "m.json", 1200, -1);   /* a ranged read of the rest */
    assert_int_equal(d->failed, 0);
    assert_int_equal(d->len, sizeof body - 1200);
    /* several reads in one batch, some cut short: each is delivered whole */
    source *nc = open_src("short", 1, &err);
    memset(&l, 0, sizeof l);
    assert_int_equal(source_list(nc, "", NULL, on_entry, &l, &err), 0);
    rig_fault(&rig, "{\"kind\":\"short\",\"count\":4,\"after\":10}");
    source_req q[3] = {{.key = "m.json", .offset = 0, .len = -1},
                       {.key = "p.json", .offset = 10, .len = -1},
                       {.key = "m.json", .offset = 3000, .len = -1}};
    memset(&g, 0, sizeof g);
    assert_int_equal(source_fetch(nc, q, 3, on_data, &g, &err), 0);
    assert_int_equal(g.calls, 3);
    assert_int_equal(g.failed, 0);
    assert_int_equal(g.len, sizeof body + sizeof body - 10 + sizeof body - 3000);
    source_free(nc);
    rig_fault(&rig, "{\"kind\":\"short\",\"count\":50,\"after\":1000}");
    d = fetch1(s, "p.json", 0, -1);
    print_message("persisting: %s\n", d->err.msg);
    assert_int_equal(d->failed, 1);
    assert_non_null(strstr(d->err.msg, "p.json"));
    assert_non_null(strstr(d->err.msg, "1000 of 4000"));
    rig_reset(&rig);
    source_free(s);
    s = open_src("short", 0, &err);   /* nothing short was cached */
    memset(&l, 0, sizeof l);
    assert_int_equal(source_list(s, "", NULL, on_entry, &l, &err), 0);
    d = fetch1(s, "p.json", 0, -1);
    assert_int_equal(d->len, sizeof body);
    assert_int_equal(rig_stat(&rig, "get_object"), 1);
    source_free(s);
}

static void *restart_later(void *ud)
{
    (void)ud;
    usleep(700000);
    rig_start(&rig);
    return NULL;
}

static void test_server_restart_mid_listing(void **st)
{
    (void)st;
    sm_err err;
    pthread_t th;
    slow_backoff = 1;
    source *s = open_src("job/profiler-output", 1, &err);
    slow_backoff = 0;
    got g = {0};
    watcher w = {.s = s};
    /* the server answered once before it went away */
    assert_int_equal(source_list(s, "system/", NULL, on_entry, &g, &err), 0);
    g.n = 0;
    rig_stop(&rig);
    pthread_create(&th, NULL, restart_later, NULL);
    pthread_t wt;
    pthread_create(&wt, NULL, watch_status, &w);
    assert_int_equal(source_list(s, "system/", NULL, on_entry, &g, &err), 0);
    atomic_store(&w.stop, 1);
    pthread_join(wt, NULL);
    pthread_join(th, NULL);
    assert_int_equal(g.n, 20); /* same answer as with a healthy server */
    assert_non_null(strstr(w.seen, "S3 unreachable, retrying in"));
    source_free(s);
}

/* A port on 127.0.0.1 that nothing listens on. */
static int closed_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t al = sizeof a;
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &al), 0);
    close(fd);
    return ntohs(a.sin_port);
}

static source *open_closed(int port, int budget_ms, sm_err *err)
{
    source_opts o;
    s3_tuning t;
    char ep[64];
    source_opts_init(&o);
    snprintf(ep, sizeof ep, "http://127.0.0.1:%d", port);
    o.endpoint_url = ep;
    o.no_cache = 1;
    tuning(&t, NULL);
    t.max_attempts = 8;
    t.backoff_base_ms = 100;
    if (budget_ms)
        t.connect_budget_ms = budget_ms;
    return source_s3_open("s3://bkt/job", &o, &t, err);
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* An endpoint that never answered is given five tries, not max_attempts,
 * and the status line says which one runs. */
static void test_first_contact_gives_up(void **st)
{
    (void)st;
    sm_err err = {0};
    int port = closed_port();
    source *s = open_closed(port, 0, &err);
    assert_non_null(s);
    watcher w = {.s = s, .want = "connecting to"};
    pthread_t th;
    pthread_create(&th, NULL, watch_status, &w);
    got g = {0};
    double t0 = mono_s();
    assert_int_equal(source_list(s, "system/", NULL, on_entry, &g, &err), -1);
    double took = mono_s() - t0;
    atomic_store(&w.stop, 1);
    pthread_join(th, NULL);
    source_s3_stats ss;
    source_s3_get_stats(s, &ss);
    print_message("gave up after %.2f s, %lld requests: %s\n", took,
                  (long long)ss.requests, err.msg);
    assert_int_equal(ss.requests, 5);
    assert_true(took < 8.0);
    assert_non_null(strstr(err.msg, "S3 unreachable"));
    char want[64];
    snprintf(want, sizeof want, "connecting to 127.0.0.1:%d (attempt ", port);
    assert_non_null(strstr(w.first, want));
    assert_non_null(strstr(w.seen, "/5"));
    char buf[256];
    source_status(s, buf, sizeof buf);
    assert_string_equal(buf, "");   /* the error says the rest */
    source_free(s);
}

/* The tries end with the budget, even before the fifth. */
static void test_first_contact_budget(void **st)
{
    (void)st;
    sm_err err = {0};
    source *s = open_closed(closed_port(), 300, &err);
    assert_non_null(s);
    got g = {0};
    assert_int_equal(source_list(s, "system/", NULL, on_entry, &g, &err), -1);
    source_s3_stats ss;
    source_s3_get_stats(s, &ss);
    /* backoff 100 ms doubling, with jitter: tries start at 0, 50-100 and
     * 150-300 ms; a fourth would start at 350 ms or later, past the budget */
    print_message("%lld tries within a 300 ms budget\n", (long long)ss.requests);
    assert_true(ss.requests >= 1 && ss.requests <= 3);
    source_free(s);
}

/* An endpoint that accepts the connection and never answers (the kernel
 * completes the handshake on a listening socket nobody accepts from) is
 * given up within the first-contact budget, not after the stall timeout. */
static void test_first_contact_silent(void **st)
{
    (void)st;
    sm_err err = {0};
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t al = sizeof a;
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(listen(fd, 16), 0);
    assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &al), 0);
    source_opts o;
    s3_tuning t;
    char ep[64];
    source_opts_init(&o);
    snprintf(ep, sizeof ep, "http://127.0.0.1:%d", ntohs(a.sin_port));
    o.endpoint_url = ep;
    o.no_cache = 1;
    tuning(&t, NULL);
    t.stall_timeout_s = 20;
    t.connect_budget_ms = 2000;
    source *s = source_s3_open("s3://bkt/job", &o, &t, &err);
    assert_non_null(s);
    got g = {0};
    double t0 = mono_s();
    assert_int_equal(source_list(s, "system/", NULL, on_entry, &g, &err), -1);
    double took = mono_s() - t0;
    print_message("silent endpoint given up after %.2f s: %s\n", took, err.msg);
    assert_true(took < 6.0);   /* the budget and a second of stall check, not 20 s */
    assert_non_null(strstr(err.msg, "S3 unreachable"));
    source_free(s);
    close(fd);
}

/* A live endpoint that answers late is waited for: no retry, no error. */
static void test_slow_answers(void **st)
{
    (void)st;
    sm_err err = {0};
    source_opts o;
    s3_tuning t;
    source_opts_init(&o);
    o.endpoint_url = rig.endpoint;
    o.no_cache = 1;
    tuning(&t, NULL);
    t.stall_timeout_s = 10;   /* slow, not stalled */
    source *s = source_s3_open("s3://bkt/job/profiler-output", &o, &t, &err);
    assert_non_null(s);
    rig_reset(&rig);
    rig_fault(&rig, "{\"kind\":\"delay\",\"count\":2,\"ms\":1500}");
    got g = {0};
    double t0 = mono_s();
    assert_int_equal(source_list(s, "system/", NULL, on_entry, &g, &err), 0);
    assert_int_equal(g.n, 20);
    assert_true(mono_s() - t0 >= 1.4);   /* the delay did happen */
    source_s3_stats ss;
    source_s3_get_stats(s, &ss);
    assert_int_equal(ss.retries, 0);
    source_free(s);
}

static void fetch_all(source *s, got *g)
{
    source_req q[20];
    sm_err err;
    got l = {0};
    assert_int_equal(source_list(s, "system/", NULL, on_entry, &l, &err), 0);
    for (size_t i = 0; i < l.n; i++)
        q[i] = (source_req){.key = l.keys[i], .offset = 0, .len = -1, .user = NULL};
    assert_int_equal(source_fetch(s, q, l.n, on_data, g, &err), 0);
    assert_int_equal(g->calls, (int)l.n);
    assert_int_equal(g->failed, 0);
}

static void test_cache_second_open(void **st)
{
    (void)st;
    sm_err err;
    char key[128], path[512];
    static char body[30000]; /* about one minute of one node's metrics */
    source_s3_stats ss;
    for (size_t i = 0; i < sizeof body; i++)
        body[i] = (char)(' ' + (i * 31 + i / 7) % 90);
    for (int i = 0; i < 20; i++) {
        snprintf(key, sizeof key, "job/profiler-output/system/incremental/2020061000/%d.algo-1.json",
                 1591747200 + 60 * i);
        rig_put(&rig, "bkt", key, body, sizeof body);
    }
    rig_reset(&rig);
    got *g1 = calloc(3, sizeof *g1), *g2 = g1 + 1, *g3 = g1 + 2;
    source *s = open_src("job/profiler-output", 0, &err);
    fetch_all(s, g1);
    source_free(s);
    long long first = rig_stat(&rig, "bytes");
    rig_reset(&rig);
    s = open_src("job/profiler-output", 0, &err);
    fetch_all(s, g2);
    source_s3_get_stats(s, &ss);
    long long second = rig_stat(&rig, "bytes");
    assert_int_equal(ss.cache_hits, 20);
    assert_int_equal(g2->len, g1->len);
    assert_int_equal(g1->len, 20 * sizeof body);
    assert_memory_equal(g2->data, g1->data, g1->len);
    print_message("cache: first open %lld bytes from the server, second %lld\n", first, second);
    assert_true(second * 20 <= first); /* <= 5 % of the first open */
    assert_int_equal(rig_stat(&rig, "get_object"), 0);
    /* corrupt one entry: it is dropped and that object alone refetched */
    snprintf(key, sizeof key, "job/profiler-output/system/incremental/2020061000/%d.algo-1.json",
             1591747200);
    snprintf(path, sizeof path, "%s/cache", rig.dir);
    cache *c = cache_open(path, 0, &err);
    cache_entry_path(c, "bkt", key, path, sizeof path);
    cache_free(c);
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, -8, SEEK_END);
    fputc('!', f);
    fclose(f);
    source_free(s);
    rig_reset(&rig);
    s = open_src("job/profiler-output", 0, &err);
    fetch_all(s, g3);
    assert_int_equal(rig_stat(&rig, "get_object"), 1);
    assert_memory_equal(g3->data, g1->data, g1->len);
    source_free(s);
    free(g1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list_paging_start_after),
        cmocka_unit_test(test_odd_keys),
        cmocka_unit_test(test_growing_then_replaced),
        cmocka_unit_test(test_credential_errors),
        cmocka_unit_test(test_profile_file_with_session),
        cmocka_unit_test(test_imds_v2),
        cmocka_unit_test(test_503_storm_backoff),
        cmocka_unit_test(test_stall_and_drop_retry_whole),
        cmocka_unit_test(test_short_body_retried_then_refused),
        cmocka_unit_test(test_server_restart_mid_listing),
        cmocka_unit_test(test_first_contact_gives_up),
        cmocka_unit_test(test_first_contact_budget),
        cmocka_unit_test(test_first_contact_silent),
        cmocka_unit_test(test_slow_answers),
        cmocka_unit_test(test_cache_second_open),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
