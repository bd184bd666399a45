/* A job's data places (issue 36): jobplace's list from a description,
 * sm_parse's configured paths, source_place (one walk a pass, the
 * TensorBoard fallback, other jobs' syncs left out), source_union
 * (mounts, ranges, a denied place named and the rest read, a place that
 * may pass failing only when nothing could be listed, the description),
 * source_tar over a real archive and url_tail. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/jobs/sm_parse.h"
#include "io/source/source_job.h"
#include "io/source/source_place.h"
#include "io/source/source_tar.h"
#include "io/source/source_union.h"
#include "model/jobs/jobplace.h"
#include "tui/text/url_tail.h"

/* ---- a tiny source: sorted keys, listings counted, a failure to give -- */

typedef struct kv {
    source base;
    const char **keys;     /* sorted */
    size_t n;
    int lists;
    int fail;              /* sm_err code every listing fails with; 0 none */
    char desc[64];
} kv;

static int kv_list(source *s, const char *prefix, const char *after, source_list_cb cb, void *ud,
                   sm_err *err)
{
    kv *k = (kv *)s;
    k->lists++;
    if (k->fail)
        return sm_err_set(err, k->fail, "listing refused (%d)", k->fail);
    for (size_t i = 0; i < k->n; i++) {
        if (strncmp(k->keys[i], prefix, strlen(prefix)) || (after && strcmp(k->keys[i], after) <= 0))
            continue;
        source_entry e = {.key = k->keys[i], .size = (int64_t)strlen(k->keys[i]), .etag = "e"};
        if (cb(ud, &e))
            break;
    }
    return 0;
}

static int kv_fetch(source *s, const source_req *reqs, size_t n, source_fetch_cb cb, void *ud,
                    sm_err *err)
{
    (void)s, (void)err;
    for (size_t i = 0; i < n; i++)   /* a key's bytes are its own name */
        cb(ud, &reqs[i], reqs[i].key, strlen(reqs[i].key), "e", NULL);
    return 0;
}

static const char *kv_describe(const source *s)
{
    return ((const kv *)s)->desc;
}

static void kv_free(source *s)
{
    (void)s;   /* on the test's stack */
}

static const source_vtbl kv_vtbl = {.kind = "kv", .list = kv_list, .fetch = kv_fetch,
                                    .describe = kv_describe, .free = kv_free};

static kv kv_make(const char **keys, size_t n, const char *desc)
{
    kv k = {.base = {&kv_vtbl}, .keys = keys, .n = n};
    snprintf(k.desc, sizeof k.desc, "%s", desc);
    return k;
}

typedef struct got {
    char keys[32][256];
    char errors[8][1600];
    size_t n, nerr;
} got;

static int got_cb(void *ud, const source_entry *e)
{
    got *g = ud;
    if (e->error) {
        if (g->nerr < 8)
            snprintf(g->errors[g->nerr++], sizeof g->errors[0], "%s|%s", e->key, e->error);
    } else if (g->n < 32) {
        snprintf(g->keys[g->n++], sizeof g->keys[0], "%s", e->key);
    }
    return 0;
}

/* ---- jobplace and sm_parse ----------------------------------------- */

static void test_jobplace_list(void **state)
{
    (void)state;
    jobplaces p = {0};
    snprintf(p.tensorboard, sizeof p.tensorboard, "s3://tb/runs");
    snprintf(p.checkpoint, sizeof p.checkpoint, "s3://ck/j1/");
    snprintf(p.output, sizeof p.output, "s3://out/o/");
    jobplace pl[JOBPLACE_KINDS];
    size_t n = jobplace_list(&p, "j1", "s3://b/p/j1/profiler-output/", 0, pl, JOBPLACE_KINDS);
    assert_int_equal(n, 3);   /* running: no output.tar.gz yet */
    assert_int_equal(pl[0].kind, JOBPLACE_PROFILER);
    assert_string_equal(pl[1].url, "s3://tb/runs/j1/tensorboard-output/");
    assert_string_equal(pl[1].alt, "s3://tb/runs/");
    assert_string_equal(pl[2].url, "s3://ck/j1/");
    n = jobplace_list(&p, "j1", "", 1, pl, JOBPLACE_KINDS);
    assert_int_equal(n, 3);
    assert_int_equal(pl[2].kind, JOBPLACE_OUTPUT);
    assert_string_equal(pl[2].url, "s3://out/o/j1/output/output.tar.gz");
    snprintf(p.checkpoint, sizeof p.checkpoint, "/opt/ml/checkpoints");   /* not a place here */
    snprintf(p.tensorboard, sizeof p.tensorboard, "s3:///nobucket");
    assert_int_equal(jobplace_list(&p, "j1", "", 0, pl, JOBPLACE_KINDS), 0);
    assert_string_equal(jobplace_mount(JOBPLACE_CHECKPOINT), "checkpoints/");
    assert_string_equal(jobplace_label(JOBPLACE_TENSORBOARD), "TensorBoard sync");
}

static void test_parse_places(void **state)
{
    (void)state;
    json_t *a = json_loads(
        "{\"TrainingJobStatus\":\"Completed\",\"TensorBoardOutputConfig\":{\"S3OutputPath\":"
        "\"s3://tb/x\",\"LocalPath\":\"/opt/ml/output/tensorboard\"},\"CheckpointConfig\":"
        "{\"S3Uri\":\"s3://ck/y/\"},\"OutputDataConfig\":{\"S3OutputPath\":\"s3://o/z\"}}", 0, NULL);
    jobrow r;
    jobrow_init(&r, "job-9");
    sm_parse_describe(a, &r);
    assert_string_equal(r.places.tensorboard, "s3://tb/x");
    assert_string_equal(r.places.checkpoint, "s3://ck/y/");
    assert_string_equal(r.places.output, "s3://o/z");
    assert_true(source_job_has_traces(&r));
    json_decref(a);
    jobrow_init(&r, "job-9");
    snprintf(r.profiler_url, sizeof r.profiler_url, "s3://b/p/job-9/profiler-output/");
    assert_false(source_job_has_traces(&r));   /* its profiler output alone */
}

/* ---- source_place --------------------------------------------------- */

static void test_place_one_walk(void **state)
{
    (void)state;
    const char *keys[] = {"j1/tensorboard-output/a.pt.trace.json", "j1/tensorboard-output/b.json",
                          "j2/tensorboard-output/c.pt.trace.json"};
    kv in = kv_make(keys, 3, "s3://tb/runs/");
    source *s = source_place_wrap(&in.base, "j1/tensorboard-output/", 1, "s3://tb/runs/j1/tensorboard-output/");
    got g = {0};
    sm_err e = {0};
    assert_int_equal(source_list(s, "", NULL, got_cb, &g, &e), 0);
    assert_int_equal(source_list(s, "", "a.pt.trace.json", got_cb, &g, &e), 0);
    assert_int_equal(source_list(s, "b", NULL, got_cb, &g, &e), 0);
    assert_int_equal(in.lists, 1);   /* three listings of a pass, one walk */
    assert_int_equal(g.n, 4);
    assert_string_equal(g.keys[0], "a.pt.trace.json");
    assert_string_equal(g.keys[2], "b.json");
    assert_string_equal(g.keys[3], "b.json");
    source_pass_end(s);
    g.n = 0;
    assert_int_equal(source_list(s, "", NULL, got_cb, &g, &e), 0);
    assert_int_equal(in.lists, 2);   /* the next pass walks again */
    source_free(s);
}

static void test_place_fallback(void **state)
{
    (void)state;
    const char *keys[] = {"j2/tensorboard-output/c.pt.trace.json", "plugins/profile/r/x.pt.trace.json",
                          "w.pt.trace.json"};
    kv in = kv_make(keys, 3, "s3://tb/runs/");
    source *s = source_place_wrap(&in.base, "j1/tensorboard-output/", 1, "s3://tb/runs/j1/tensorboard-output/");
    got g = {0};
    sm_err e = {0};
    assert_int_equal(source_list(s, "", NULL, got_cb, &g, &e), 0);
    assert_int_equal(in.lists, 2);   /* its own folder empty: the path itself */
    assert_int_equal(g.n, 2);        /* another job's sync left out */
    assert_string_equal(g.keys[0], "plugins/profile/r/x.pt.trace.json");
    assert_string_equal(source_place_url(s), "s3://tb/runs/");
    place_state st;
    assert_int_equal(source_place_state(s, &st), 0);
    assert_int_equal(st.on_alt, 1);
    source_pass_end(s);
    assert_int_equal(source_list(s, "", NULL, got_cb, &g, &e), 0);
    assert_int_equal(in.lists, 3);   /* decided: one walk a pass */
    source_free(s);
}

/* ---- source_union --------------------------------------------------- */

static void test_union(void **state)
{
    (void)state;
    const char *pk[] = {"system/a.json"}, *tk[] = {"t.pt.trace.json"};
    kv prof = kv_make(pk, 1, "s3://b/p/j/profiler-output/");
    kv tb = kv_make(tk, 1, "s3://tb/j/tensorboard-output/");
    kv ck = kv_make(NULL, 0, "s3://locked/ck/");
    ck.fail = SM_ERR_DENIED;
    source *u = source_union_new("j");
    assert_int_equal(source_union_mount(u, "tensorboard-output/", &tb.base, JOBPLACE_TENSORBOARD,
                                        "s3://tb/j/tensorboard-output/"), 0);
    assert_int_equal(source_union_mount(u, "profiler-output/", &prof.base, JOBPLACE_PROFILER,
                                        "s3://b/p/j/profiler-output/"), 0);
    assert_int_equal(source_union_mount(u, "checkpoints/", &ck.base, JOBPLACE_CHECKPOINT,
                                        "s3://locked/ck/"), 0);
    assert_non_null(strstr(source_describe(u), "s3://b/p/j/profiler-output \xc2\xb7 traces: "));
    got g = {0};
    sm_err e = {0};
    assert_int_equal(source_list(u, "", NULL, got_cb, &g, &e), 0);
    assert_int_equal(g.n, 2);
    assert_string_equal(g.keys[0], "profiler-output/system/a.json");
    assert_string_equal(g.keys[1], "tensorboard-output/t.pt.trace.json");
    assert_int_equal(g.nerr, 1);   /* denied: named, with its place */
    assert_non_null(strstr(g.errors[0], "checkpoints/|s3://locked/ck/ (checkpoint sync) cannot be read"));
    /* a range: only the mounts it overlaps are asked */
    int before = tb.lists;
    g.n = 0;
    assert_int_equal(source_list(u, "profiler-output/system/", NULL, got_cb, &g, &e), 0);
    assert_int_equal(tb.lists, before);
    assert_int_equal(g.n, 1);
    g.n = 0;
    assert_int_equal(source_list(u, "", "rule-output0", got_cb, &g, &e), 0);
    assert_int_equal(g.n, 1);
    assert_string_equal(g.keys[0], "tensorboard-output/t.pt.trace.json");
    source_pass_end(u);
    const char *d = source_describe(u);
    assert_non_null(strstr(d, "s3://locked/ck/ (checkpoint sync, cannot be read)"));
    union_place pl[4];
    assert_int_equal(source_union_places(u, pl, 4), 3);
    assert_int_equal(pl[0].kind, JOBPLACE_CHECKPOINT);   /* in folder order */
    assert_true(pl[0].error[0] != '\0');
    /* what report's and the job list's trace_sources[] say of each */
    assert_int_equal(source_union_place_status(&pl[0]), JOBPLACE_UNREADABLE);
    assert_int_equal(pl[1].kind, JOBPLACE_PROFILER);
    assert_int_equal(source_union_place_status(&pl[1]), JOBPLACE_READ);
    assert_string_equal(jobplace_status_name(source_union_place_status(&pl[0])), "unreadable");
    assert_string_equal(jobplace_status_name(source_union_place_status(&pl[1])), "read");
    assert_string_equal(jobplace_status_name(-1), "");
    /* a network failure of one place: the rest is read, the listing works */
    ck.fail = SM_ERR_NET;
    g.n = 0;
    assert_int_equal(source_list(u, "", NULL, got_cb, &g, &e), 0);
    assert_int_equal(g.n, 2);
    /* ... of every place: the listing fails, to be tried again */
    prof.fail = tb.fail = SM_ERR_NET;
    assert_int_equal(source_list(u, "", NULL, got_cb, &g, &e), -1);
    source_free(u);
}

static void test_union_nothing(void **state)
{
    (void)state;
    kv tb = kv_make(NULL, 0, "s3://tb/j/tensorboard-output/");
    source *u = source_union_new("job-7");
    assert_int_equal(source_union_mount(u, "tensorboard-output/", &tb.base, JOBPLACE_TENSORBOARD,
                                        "s3://tb/j/tensorboard-output/"), 0);
    assert_string_equal(source_describe(u),
                        "job-7 (no profiler output) \xc2\xb7 traces: s3://tb/j/tensorboard-output/ "
                        "(TensorBoard sync)");
    union_place pl[1];
    assert_int_equal(source_union_places(u, pl, 1), 1);
    assert_string_equal(jobplace_status_name(source_union_place_status(&pl[0])), "not_listed");
    got g = {0};
    sm_err e = {0};
    assert_int_equal(source_list(u, "", NULL, got_cb, &g, &e), 0);
    source_pass_end(u);
    assert_string_equal(source_describe(u), "job-7 (no profiler output; nothing in: TensorBoard sync)");
    assert_int_equal(source_union_places(u, pl, 1), 1);
    assert_string_equal(jobplace_status_name(source_union_place_status(&pl[0])), "empty");
    source_free(u);
}

/* ---- source_tar over a real archive ---------------------------------- */

typedef struct bytes {
    char buf[4096];
    size_t n;
    int failed;
} bytes;

static void into(void *ud, const source_req *req, const void *data, size_t len, const char *etag,
                 const sm_err *err)
{
    bytes *b = ud;
    (void)req, (void)etag, (void)err;
    if (!data || len > sizeof b->buf) {
        b->failed = 1;
        return;
    }
    memcpy(b->buf, data, len);
    b->n = len;
}

static void test_tar(void **state)
{
    (void)state;
    /* the fuzz seed's archive (its first byte picks the fuzzer's pieces) */
    FILE *f = fopen(SMTOP_TEST_SRC "/fuzz/corpus/targz/small.bin", "rb");
    assert_non_null(f);
    static unsigned char raw[1 << 16];
    size_t n = fread(raw, 1, sizeof raw, f);
    fclose(f);
    char dir[] = "/tmp/smtop-tar-XXXXXX", path[256];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/output.tar.gz", dir);
    f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(raw + 1, 1, n - 1, f);
    fclose(f);
    sm_err e = {0};
    source *t = source_tar_open(path, NULL, &e);
    assert_non_null(t);
    got g = {0};
    assert_int_equal(source_list(t, "", NULL, got_cb, &g, &e), 0);
    assert_int_equal(g.n, 2);   /* sorted, "./" dropped */
    assert_string_equal(g.keys[0], "data/x.txt");
    assert_string_equal(g.keys[1], "tensorboard/algo-1_1.1700000000000.pt.trace.json");
    g.n = 0;
    assert_int_equal(source_list(t, "tensorboard/", NULL, got_cb, &g, &e), 0);
    assert_int_equal(g.n, 1);
    bytes b = {0};
    source_req q[2] = {{.key = "data/x.txt", .len = -1}, {.key = "data/x.txt", .offset = 2, .len = 2}};
    assert_int_equal(source_fetch(t, q, 1, into, &b, &e), 0);
    assert_int_equal(b.n, 6);
    assert_memory_equal(b.buf, "hello\n", 6);
    assert_int_equal(source_fetch(t, q + 1, 1, into, &b, &e), 0);
    assert_int_equal(b.n, 2);
    assert_memory_equal(b.buf, "ll", 2);
    source_req miss = {.key = "nope", .len = -1};
    assert_int_equal(source_fetch(t, &miss, 1, into, &b, &e), 0);
    assert_int_equal(b.failed, 1);
    source_free(t);
    /* a bound below its size: named, not read */
    t = source_tar_open(path, NULL, &e);
    source_tar_limit(t, 10);
    g.n = g.nerr = 0;
    assert_int_equal(source_list(t, "", NULL, got_cb, &g, &e), 0);
    assert_int_equal(g.n, 0);
    assert_int_equal(g.nerr, 1);
    assert_non_null(strstr(g.errors[0], "not read: "));
    source_free(t);
    unlink(path);
    rmdir(dir);
}

static void test_url_tail(void **state)
{
    (void)state;
    char out[256];
    url_tail("j (no profiler output) \xc2\xb7 traces: s3://tb/a/b/j/tensorboard-output/ (TensorBoard sync)",
             2, out, sizeof out);
    assert_string_equal(out, "j (no profiler output) \xc2\xb7 traces: s3://.../j/tensorboard-output/ "
                             "(TensorBoard sync)");
    url_tail("s3://b/p/j/profiler-output", 1, out, sizeof out);
    assert_string_equal(out, "s3://.../profiler-output");
    url_tail("s3://b/x", 2, out, sizeof out);   /* nothing to cut */
    assert_string_equal(out, "s3://b/x");
    url_tail("s3://b/p/j/profiler-output", 2, out, 12);
    assert_int_equal(strlen(out), 11);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jobplace_list), cmocka_unit_test(test_parse_places),
        cmocka_unit_test(test_place_one_walk), cmocka_unit_test(test_place_fallback),
        cmocka_unit_test(test_union), cmocka_unit_test(test_union_nothing),
        cmocka_unit_test(test_tar), cmocka_unit_test(test_url_tail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
