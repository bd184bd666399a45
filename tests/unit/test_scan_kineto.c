/* PyTorch profiler (Kineto) traces found and read as streams: their names
 * (keyname), and the scanner finding them at any depth
 * under profiler-output/, beside it in tensorboard-output/ and in the job
 * prefix, reading a half-written .gz again once complete and never
 * twice, naming what it does not read, and reading a trace larger than
 * a piece in pieces of at most 1 MiB (a file that is not a trace: its
 * first piece only). (The decoder's own verdicts
 * on cut, corrupt and non-Kineto files: unit_kineto_decode.) */
#include "scan_fixture.h"

#include <zlib.h>

#include "io/decode/keyname.h"
#include "io/run/kineto_ingest.h"

/* ---- names ---------------------------------------------------------------- */

static void test_keyname_kineto(void **state)
{
    (void)state;
    key_info ki;
    keyname_parse("tensorboard-output/algo-2_1234.1795802781336108651.pt.trace.json.gz", &ki);
    assert_int_equal(ki.kind, KEY_KINETO);
    assert_string_equal(ki.node, "algo-2");
    assert_string_equal(ki.process, "algo-2_1234");
    assert_int_equal(ki.time_us, 1795802781336108LL);
    /* older PyTorch: milliseconds */
    keyname_parse("algo-1_77.1795802781336.pt.trace.json", &ki);
    assert_int_equal(ki.kind, KEY_KINETO);
    assert_int_equal(ki.time_us, 1795802781336000LL);
    /* a custom worker name keeps its digits */
    keyname_parse("x/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz", &ki);
    assert_int_equal(ki.kind, KEY_KINETO);
    assert_string_equal(ki.process, "rank-34.Jul_15_10_52_41.1074");
    assert_int_equal(ki.time_us, 0);
    /* under framework/: a trace, not an unknown file name */
    keyname_parse("framework/algo-1_5.1795802781336108651.pt.trace.json", &ki);
    assert_int_equal(ki.kind, KEY_KINETO);
    /* what may be a trace by its head alone */
    assert_true(keyname_kineto_candidate("tensorboard-output/run1/trace.json.gz"));
    assert_true(keyname_kineto_candidate("mytraces/a.json"));
    assert_false(keyname_kineto_candidate("framework/x_unknown_timeline.json"));
    assert_false(keyname_kineto_candidate("system/incremental/x.json"));
    assert_false(keyname_kineto_candidate("tensorboard-output/events.out.tfevents.1.algo-1"));
    assert_false(keyname_kineto_candidate("a/b.pt.trace.json"));   /* already a trace */
    /* smdebug's TF traces keep their kind */
    keyname_parse("framework/tensorflow/detailed_profiling/2020060923/000000001/plugins/profile/"
                  "2020_06_09_23_01_01/ip-10-0-1-2.trace.json.gz", &ki);
    assert_int_equal(ki.kind, KEY_TF_TRACE);
}

/* ---- a trace ------------------------------------------------------------- */

static const char TRACE[] =
    "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [],\n  \"traceEvents\": [\n"
    "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, "
    "\"ts\": 5.000, \"dur\": 2.000}\n  ]\n}\n";

/* gzip of text into buf (cap bytes); returns its length. */
static size_t gz_of(const char *text, size_t n, unsigned char *buf, size_t cap)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    assert_int_equal(deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY),
                     Z_OK);
    zs.next_in = (Bytef *)text;
    zs.avail_in = (uInt)n;
    zs.next_out = buf;
    zs.avail_out = (uInt)cap;
    assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
    size_t len = zs.total_out;
    deflateEnd(&zs);
    return len;
}

/* ---- the scanner ------------------------------------------------------------ */

typedef struct kin_cb {
    kineto_ingest *ki;
    rec_sink sink;
} kin_cb;

/* The scanner's sink for what it does not put in the model: finished
 * traces into the Kineto ingest, as the job's does. */
static kin_cb kin_new(model *m)
{
    kin_cb k = {kineto_ingest_new(m), {0}};
    k.sink = (rec_sink){.ud = k.ki, .trace = kineto_ingest_take};
    return k;
}

static void put_bytes(fixture *f, const char *rel, const void *p, size_t n)
{
    char path[768];
    fixture_mkdirs(f->dir, rel);
    snprintf(path, sizeof path, "%s/%s", f->dir, rel);
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(p, 1, n, fp), n);
    fclose(fp);
}

typedef struct unread_got {
    int n;
    char key[8][256], why[8][256];
} unread_got;

static void collect_unread(void *ud, const char *key, const char *why)
{
    unread_got *u = ud;
    if (u->n < 8) {
        snprintf(u->key[u->n], sizeof u->key[0], "%s", key);
        snprintf(u->why[u->n], sizeof u->why[0], "%s", why);
    }
    u->n++;
}

static const char *why_of(const unread_got *u, const char *key)
{
    for (int i = 0; i < u->n && i < 8; i++)
        if (!strcmp(u->key[i], key))
            return u->why[i];
    return NULL;
}

#define TB_HALF "tensorboard-output/algo-1_42.1795802781336108651.pt.trace.json.gz"

static void test_found_everywhere_read_once(void **state)
{
    fixture *f = *state;
    unsigned char gz[4096];
    size_t glen = gz_of(TRACE, strlen(TRACE), gz, sizeof gz);
    fixture_put(f, "profiler-output/system/incremental/2020060923/1591748100.algo-1.json",
                "{\"Type\":\"cpu\",\"Name\":\"cpu0\",\"Dimension\":\"CPUUtilization\","
                "\"Value\":1.0,\"NodeId\":\"algo-1\",\"Timestamp\":1591748101.5}\n", "w");
    put_bytes(f, TB_HALF, gz, glen / 2);   /* still being written */
    fixture_put(f, "profiler-output/framework/algo-1_42.1795802700000000000.pt.trace.json", TRACE,
                "w");
    fixture_put(f, "profiler-output/tensorboard/deep/algo-1_42.1795802600000000000.pt.trace.json",
                TRACE, "w");
    put_bytes(f, "tensorboard-output/run/mine.json.gz", gz, glen);
    fixture_put(f, "tensorboard-output/notes.json", "{\"a\": 1}", "w");
    fixture_put(f, "tensorboard-output/events.out.tfevents.1.algo-1", "x", "w");
    fixture_put(f, "algo-2_7.1795802500000000000.pt.trace.json", TRACE, "w");   /* job prefix */
    fixture_put(f, "output/model.json", "{}", "w");                             /* not a trace */
    fixture_put(f, "debug-output/index/algo-2_7.1795802500000000000.pt.trace.json", TRACE, "w");
    sm_err err = {0};
    assert_non_null(f->src = source_local_open(f->dir, &err));
    assert_non_null(f->m = model_new(NULL));
    kin_cb k = kin_new(f->m);
    assert_non_null(k.ki);
    scanner_opts o = {.sink = &k.sink};
    assert_non_null(f->sc = scanner_new(f->src, NULL, f->m, &o, &err));
    fixture_scan(f);
    /* four traces read; the half .gz and the other JSON named */
    assert_int_equal(kineto_ingest_traces(k.ki), 4);
    unread_got u = {0};
    assert_int_equal(scanner_unread(f->sc, collect_unread, &u), 2);
    assert_non_null(why_of(&u, TB_HALF));
    assert_non_null(strstr(why_of(&u, TB_HALF), "ends early"));
    /* while the job runs it may still be written; once it ended, truncated */
    assert_non_null(strstr(why_of(&u, TB_HALF), "still being written?"));
    unread_got ended = {0};
    assert_int_equal(scanner_unread_at(f->sc, 1, collect_unread, &ended), 2);
    assert_non_null(strstr(why_of(&ended, TB_HALF), "truncated"));
    assert_null(strstr(why_of(&ended, TB_HALF), "still being written"));
    assert_null(strstr(why_of(&ended, "tensorboard-output/notes.json"), "truncated"));
    assert_non_null(why_of(&u, "tensorboard-output/notes.json"));
    assert_non_null(strstr(why_of(&u, "tensorboard-output/notes.json"), "not a PyTorch"));
    /* unchanged: not read again */
    fixture_scan(f);
    assert_int_equal(kineto_ingest_traces(k.ki), 4);
    /* the writer finishes it: read once, and never again */
    put_bytes(f, TB_HALF, gz, glen);
    fixture_scan(f);
    fixture_scan(f);
    assert_int_equal(kineto_ingest_traces(k.ki), 5);
    memset(&u, 0, sizeof u);
    assert_int_equal(scanner_unread(f->sc, collect_unread, &u), 1);
    assert_null(why_of(&u, TB_HALF));
    kineto_ingest_free(k.ki);
}

/* The writer finishes a .gz between the listing and the read: read whole
 * then, and not again when the next listing sees its final size. */
typedef struct finish_ctx {
    fixture *f;
    const unsigned char *gz;
    size_t len;
    int done;
} finish_ctx;

static void finish_before_fetch(void *ud, const source_req *reqs, size_t n)
{
    (void)reqs;
    (void)n;
    finish_ctx *c = ud;
    if (!c->done)
        put_bytes(c->f, TB_HALF, c->gz, c->len);
    c->done = 1;
}

static void test_finished_between_list_and_read(void **state)
{
    fixture *f = *state;
    unsigned char gz[4096];
    size_t glen = gz_of(TRACE, strlen(TRACE), gz, sizeof gz);
    put_bytes(f, TB_HALF, gz, glen / 2);
    sm_err err = {0};
    assert_non_null(f->src = source_local_open(f->dir, &err));
    assert_non_null(f->m = model_new(NULL));
    finish_ctx c = {f, gz, glen, 0};
    hook_source h = hook_source_wrap(f->src, finish_before_fetch, &c);
    kin_cb k = kin_new(f->m);
    scanner_opts o = {.sink = &k.sink, .sequential = 1};
    assert_non_null(f->sc = scanner_new(&h.base, "", f->m, &o, &err));
    fixture_scan(f);
    assert_int_equal(kineto_ingest_traces(k.ki), 1);
    fixture_scan(f);
    fixture_scan(f);
    assert_int_equal(kineto_ingest_traces(k.ki), 1);
    kineto_ingest_free(k.ki);
}

/* ---- a trace larger than a piece -------------------------------------------- */

#define BIG_TRACE "tensorboard-output/algo-1_9.1795802800000000000.pt.trace.json"
#define BIG_GZ "tensorboard-output/algo-1_8.1795802900000000000.pt.trace.json.gz"
#define BIG_OTHER "tensorboard-output/data.json"
#define PIECE ((int64_t)1 << 20)

/* A trace of n events, about 100 bytes each; malloc'd, its length in *len. */
static char *big_trace(size_t n, size_t *len)
{
    size_t cap = 256 + n * 160;
    char *t = malloc(cap);
    assert_non_null(t);
    size_t k = (size_t)snprintf(t, cap, "{\"schemaVersion\": 1, \"deviceProperties\": [], "
                                "\"traceEvents\": [\n");
    for (size_t i = 0; i < n; i++)
        k += (size_t)snprintf(t + k, cap - k, "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": "
                              "\"aten::mm_%zu\", \"pid\": 1, \"tid\": 1, \"ts\": %zu.000, "
                              "\"dur\": 2.000}\n", i ? "," : "", i % 97, 10 + i * 3);
    k += (size_t)snprintf(t + k, cap - k, "]}\n");
    *len = k;
    return t;
}

/* gzip at level 0 (stored: as long as the text) into a malloc'd buffer. */
static unsigned char *gz_stored(const char *text, size_t n, size_t *len)
{
    size_t cap = n + n / 8 + 1024;
    unsigned char *buf = malloc(cap);
    assert_non_null(buf);
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    assert_int_equal(deflateInit2(&zs, 0, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY),
                     Z_OK);
    zs.next_in = (Bytef *)text;
    zs.avail_in = (uInt)n;
    zs.next_out = buf;
    zs.avail_out = (uInt)cap;
    assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
    *len = zs.total_out;
    deflateEnd(&zs);
    return buf;
}

/* The reads asked of each big file, and the longest one. */
typedef struct read_log {
    int n[3];
    int64_t longest[3];
} read_log;

static void log_reads(void *ud, const source_req *reqs, size_t n)
{
    static const char *const keys[3] = {BIG_TRACE, BIG_GZ, BIG_OTHER};
    read_log *l = ud;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            if (!strcmp(reqs[i].key, keys[k])) {
                l->n[k]++;
                int64_t len = reqs[i].len < 0 ? INT64_MAX : reqs[i].len;
                l->longest[k] = len > l->longest[k] ? len : l->longest[k];
            }
}

/* ahead: with system files beside, over a source whose reads must not
 * overlap, a fetch thread reads the pieces while this one decodes. */
static void big_in_pieces(fixture *f, int ahead)
{
    size_t tlen, glen;
    char *text = big_trace(40000, &tlen);   /* about 4 MB */
    unsigned char *gz = gz_stored(text, tlen, &glen);
    assert_true(tlen > 3 * (size_t)PIECE);
    put_bytes(f, BIG_TRACE, text, tlen);
    put_bytes(f, BIG_GZ, gz, glen * 6 / 10);   /* still being written */
    text[0] = '[';                              /* JSON, not a trace */
    put_bytes(f, BIG_OTHER, text, tlen);
    for (int i = 0; ahead && i < 2; i++)
        fixture_put(f, i ? "profiler-output/system/incremental/2020060923/1591748160.algo-1.json"
                         : "profiler-output/system/incremental/2020060923/1591748100.algo-1.json",
                    "{\"Type\":\"cpu\",\"Name\":\"cpu0\",\"Dimension\":\"CPUUtilization\","
                    "\"Value\":1.0,\"NodeId\":\"algo-1\",\"Timestamp\":1591748101.5}\n", "w");
    sm_err err = {0};
    assert_non_null(f->src = source_local_open(f->dir, &err));
    assert_non_null(f->m = model_new(NULL));
    read_log l = {0};
    hook_source h = hook_source_wrap(f->src, log_reads, &l);
    kin_cb k = kin_new(f->m);
    scanner_opts o = {.sink = &k.sink};
    assert_non_null(f->sc = scanner_new(&h.base, NULL, f->m, &o, &err));
    fixture_scan(f);
    assert_int_equal(kineto_ingest_traces(k.ki), 1);
    assert_int_equal(kineto_ingest_bytes(k.ki), (int64_t)tlen);
    /* in pieces of 1 MiB, to the end (a last, short one) */
    assert_int_equal(l.n[0], (int)(tlen / PIECE) + 1);
    assert_int_equal(l.longest[0], PIECE);
    assert_int_equal(l.n[1], (int)(glen * 6 / 10 / PIECE) + 1);
    assert_int_equal(l.longest[1], PIECE);
    if (!ahead)
        assert_int_equal(l.n[2], 1);   /* its head said enough */
    unread_got u = {0};
    assert_int_equal(scanner_unread(f->sc, collect_unread, &u), 2);
    assert_non_null(strstr(why_of(&u, BIG_GZ), "read again once it changes"));
    assert_non_null(strstr(why_of(&u, BIG_OTHER), "not a PyTorch"));
    /* unchanged: nothing read again; finished: read once, never again */
    fixture_scan(f);
    assert_int_equal(l.n[1], (int)(glen * 6 / 10 / PIECE) + 1);
    put_bytes(f, BIG_GZ, gz, glen);
    fixture_scan(f);
    fixture_scan(f);
    assert_int_equal(kineto_ingest_traces(k.ki), 2);
    assert_int_equal(kineto_ingest_bytes(k.ki), (int64_t)(tlen + glen));
    memset(&u, 0, sizeof u);
    assert_int_equal(scanner_unread(f->sc, collect_unread, &u), 1);
    assert_null(why_of(&u, BIG_GZ));
    kineto_ingest_free(k.ki);
    free(text);
    free(gz);
}

static void test_big_in_pieces(void **state)
{
    big_in_pieces(*state, 0);
}

static void test_big_in_pieces_ahead(void **state)
{
    big_in_pieces(*state, 1);
}

/* A job with traces and nothing else is a job; so is a folder of traces;
 * a folder of jobs is none, and the probe says how many it holds. */
static void test_root_from_traces(void **state)
{
    fixture *f = *state;
    fixture_put(f, "job/tensorboard-output/algo-1_1.1795802781336108651.pt.trace.json", TRACE,
                "w");
    fixture_put(f, "traces/sub/rank0.pt.trace.json", TRACE, "w");
    fixture_put(f, "empty/readme.txt", "x", "w");
    fixture_put(f, "jobs/a/profiler-output/system/incremental/1.algo-1.json", "{}\n", "w");
    fixture_put(f, "jobs/b/profiler-output/framework/pevents/1_1-algo-1_pythontimeline.json",
                "[]\n", "w");
    char dir[512], root[64];
    sm_err err = {0};
    /* jobs: the job folders the probe counted, for a folder of jobs only */
    static const struct {
        const char *sub, *root;
        int found;
        size_t jobs;
    } cases[] = {{"job", "profiler-output/", 1, 0}, {"traces", "", 1, 0}, {"empty", "", 0, 0},
                 {"jobs", "", 0, 2}};
    for (size_t i = 0; i < 4; i++) {
        snprintf(dir, sizeof dir, "%s/%s", f->dir, cases[i].sub);
        source *s = source_local_open(dir, &err);
        assert_non_null(s);
        root[0] = 'x';
        root[1] = '\0';
        size_t jobs = 7;
        assert_int_equal(scanner_probe_root(s, root, sizeof root, &jobs, &err), cases[i].found);
        assert_int_equal(jobs, cases[i].jobs);
        if (cases[i].found)
            assert_string_equal(root, cases[i].root);
        source_free(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keyname_kineto),
        FIXTURE_TEST(test_found_everywhere_read_once),
        FIXTURE_TEST(test_finished_between_list_and_read),
        FIXTURE_TEST(test_root_from_traces),
        FIXTURE_TEST(test_big_in_pieces),
        FIXTURE_TEST(test_big_in_pieces_ahead),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
