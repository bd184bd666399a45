/* kineto_decode: the real Kineto samples read whole (metadata and events
 * by category, as python3's json module counts them in each file), and
 * what a reader of files still being written or damaged needs: a cut
 * .gz is "incomplete", not corrupt; the events before any damage are kept
 * and given once; the error says where; an event past the bound is
 * dropped, not held; names are sanitized; the sniff's three verdicts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <cmocka.h>

#include "io/decode/kineto_decode.h"

#define KDIR SMTOP_SAMPLES "/kineto"
#define CORPUS SMTOP_TEST_SRC "/fuzz/corpus/kineto_decode"

typedef struct tally {
    int64_t n, by_cat[KCAT_COUNT];
    int64_t step_min, step_max, collectives;
    uint64_t hash;            /* of the sequence of (ts, name) */
    uint64_t run[64];         /* hash after each of the first 64 events */
    char backend[64], host[256];  /* the metadata's strings (they die with
                                     the decoder) */
} tally;

static void on_event(void *ud, const sm_kevent *e)
{
    tally *t = ud;
    t->n++;
    t->by_cat[e->cat]++;
    if (e->cat == KCAT_USER_ANNOTATION && e->step >= 0) {
        if (t->step_min < 0 || e->step < t->step_min)
            t->step_min = e->step;
        if (e->step > t->step_max)
            t->step_max = e->step;
    }
    t->collectives += e->collective.len > 0;
    t->hash = (t->hash ^ (uint64_t)e->ts_ns) * 1099511628211ull;
    for (size_t i = 0; i < e->name.len; i++)
        t->hash = (t->hash ^ (unsigned char)e->name.ptr[i]) * 1099511628211ull;
    if (t->n <= 64)
        t->run[t->n - 1] = t->hash;
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)len + 1);
    assert_non_null(b);
    *n = fread(b, 1, (size_t)len, f);
    b[*n] = '\0';
    fclose(f);
    return b;
}

/* Decodes p[0..n) in pieces of `piece`; kineto_dec_finish's result. */
static int decode(const char *p, size_t n, size_t piece, int keep_python, tally *t,
                  sm_kmeta *m, sm_err *err)
{
    kineto_dec_opts o = {.keep_python = keep_python};
    kineto_dec *d = kineto_dec_new(&o);
    assert_non_null(d);
    memset(t, 0, sizeof *t);
    t->step_min = t->step_max = -1;
    for (size_t i = 0; i < n; i += piece)
        if (kineto_dec_feed(d, p + i, n - i < piece ? n - i : piece, on_event, t) != 0)
            break;
    sm_err_clear(err);
    int rc = kineto_dec_finish(d, m, err);
    snprintf(t->backend, sizeof t->backend, "%.*s", (int)m->backend.len, m->backend.ptr);
    snprintf(t->host, sizeof t->host, "%.*s", (int)m->host_name.len, m->host_name.ptr);
    m->backend.ptr = m->host_name.ptr = NULL;
    kineto_dec_free(d);
    return rc;
}

/* What python3's json module finds in each sample file (tests/tools/
 * kineto_dump.py and a count by cat/ph), the decoder must find too. */
typedef struct want {
    const char *file;
    int64_t rank, world, base, devices, events;
    int64_t kernel, cpu_op, runtime, memcpy, memset, flow, memory, annot;
    int64_t step_min, step_max, collectives;
} want;

static const want wants[] = {
    {"amd_mi250/mi250_minitoy_train_ROCm6_2_kineto.json.gz", -1, -1, 1735632360000000000,
     4, 220, 14, 70, 21, 2, 0, 45, 0, 3, 1, 2, 0},
    {"cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz", 34, 300, 1719853884000000000,
     0, 30, 0, 4, 0, 0, 0, 0, 0, 11, 551, 551, 0},
    {"df_index_resolver/df_index_resolver.json.gz", 1, 2, -1,
     2, 216092, 19370, 56680, 42373, 2040, 880, 64663, 28010, 2035, 2, 6, 0},
    {"nccl_data/nccl_data.json.gz", 0, 2, 1711964646000000000,
     8, 40573, 2700, 14346, 8740, 960, 114, 13600, 0, 42, 4, 6, 48},
    {"ns_resolution/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz", 0, 1, -1,
     8, 68692, 4350, 23910, 15329, 1600, 145, 23234, 0, 70, 101, 105, 45},
    {"rank_unavailable/rank_not_found.json.gz", -1, -1, -1,
     0, 2467, 0, 2424, 0, 0, 0, 0, 0, 43, 1009, 1009, 0},
    {"sampled_ranks/sampled_rank-0.json.gz", 0, 128, -1,
     0, 4855, 1154, 2329, 1204, 40, 10, 0, 0, 73, 551, 552, 0},
    {"sampled_ranks/sampled_rank-1.json.gz", 1, 128, -1,
     0, 4720, 1104, 2302, 1154, 40, 10, 0, 0, 65, 551, 552, 0},
    {"trace_diff_control/control.json.gz", 3, 8, -1,
     8, 109123, 8568, 40506, 24692, 228, 654, 34142, 0, 288, 1009, 1014, 0},
    {"trace_diff_test/test.json.gz", 1, 2, -1,
     2, 105167, 9876, 31236, 21167, 4856, 900, 36799, 0, 288, 1009, 1014, 0},
    {"triton/triton_example.json.gz", -1, -1, 1727743122000000000,
     8, 71, 1, 3, 1, 0, 0, 3, 0, 1, 1, 1, 0},
};

static void test_samples(void **state)
{
    (void)state;
    int seen = 0;
    for (size_t i = 0; i < sizeof wants / sizeof wants[0]; i++) {
        const want *w = &wants[i];
        char path[512];
        size_t n;
        snprintf(path, sizeof path, "%s/%s", KDIR, w->file);
        char *b = slurp(path, &n);
        if (!b)
            continue;
        seen++;
        tally t;
        sm_kmeta m;
        sm_err err;
        assert_int_equal(decode(b, n, 1 << 16, 1, &t, &m, &err), 0);
        print_message("%s: %lld events\n", w->file, (long long)m.events);
        assert_true(kineto_meta_is_kineto(&m));
        assert_int_equal(m.rank, w->rank);
        assert_int_equal(m.world_size, w->world);
        assert_int_equal(m.has_base, w->base >= 0);
        if (w->base >= 0)
            assert_int_equal(m.base_ns, w->base);
        /* without a base, every sample's ts is already epoch µs */
        assert_int_equal(m.ts_epoch, w->base < 0);
        assert_int_equal(m.n_devices, w->devices);
        for (size_t k = 0; k < m.n_devices; k++)
            assert_true(m.total_global_mem[k] > ((int64_t)8 << 30));
        /* rank_not_found is the one without schemaVersion */
        assert_int_equal(m.has_schema, strstr(w->file, "rank_not_found") == NULL);
        assert_int_equal(m.events, w->events);
        assert_int_equal(m.bad_events, 0);
        assert_int_equal(t.n, w->events);
        assert_int_equal(t.by_cat[KCAT_KERNEL], w->kernel);
        assert_int_equal(t.by_cat[KCAT_CPU_OP], w->cpu_op);
        assert_int_equal(t.by_cat[KCAT_CUDA_RUNTIME], w->runtime);
        assert_int_equal(t.by_cat[KCAT_GPU_MEMCPY], w->memcpy);
        assert_int_equal(t.by_cat[KCAT_GPU_MEMSET], w->memset);
        assert_int_equal(t.by_cat[KCAT_FLOW], w->flow);
        assert_int_equal(t.by_cat[KCAT_MEMORY], w->memory);
        assert_int_equal(t.by_cat[KCAT_USER_ANNOTATION], w->annot);
        assert_int_equal(t.step_min, w->step_min);
        assert_int_equal(t.step_max, w->step_max);
        assert_int_equal(t.collectives, w->collectives);
        free(b);
    }
    if (!seen)
        skip();
}

static void test_sample_meta_strings(void **state)
{
    (void)state;
    size_t n;
    char *b = slurp(KDIR "/ns_resolution/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz", &n);
    if (!b)
        skip();
    tally t;
    sm_kmeta m;
    sm_err err;
    assert_int_equal(decode(b, n, 4096, 1, &t, &m, &err), 0);
    assert_string_equal(t.backend, "nccl");
    assert_string_equal(t.host, "twshared39868.02.pnb3.facebook.com");
    free(b);
}

/* Inflated (or plain) bytes of a corpus file, gzip'd in memory. */
static char *gzip_of(const char *p, size_t n, size_t *out)
{
    z_stream zs = {0};
    assert_int_equal(deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
    size_t cap = deflateBound(&zs, (uLong)n);
    char *g = malloc(cap);
    assert_non_null(g);
    zs.next_in = (Bytef *)p;
    zs.avail_in = (uInt)n;
    zs.next_out = (Bytef *)g;
    zs.avail_out = (uInt)cap;
    assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
    *out = cap - zs.avail_out;
    deflateEnd(&zs);
    return g;
}

/* A .gz cut anywhere is incomplete (retry later), never corrupt, and the
 * events it gave are a prefix of the whole file's: a caller that drops
 * them until the file completes counts each once. */
static void test_cut_gz_is_incomplete(void **state)
{
    (void)state;
    size_t n, gn;
    char *p = slurp(CORPUS "/numbers.json", &n);
    assert_non_null(p);
    char *g = gzip_of(p, n, &gn);
    tally whole, part;
    sm_kmeta m;
    sm_err err;
    assert_int_equal(decode(g, gn, gn, 1, &whole, &m, &err), 0);
    assert_int_equal(whole.n, 11);
    for (size_t cut = 0; cut < gn; cut += 13) {
        int rc = decode(g, cut, 7, 1, &part, &m, &err);
        assert_int_equal(rc, KINETO_INCOMPLETE);
        assert_int_equal(err.code, SM_ERR_PARTIAL);   /* the job says: written, or cut */
        assert_null(strstr(err.msg, "still being written"));
        assert_true(cut == 0 ? strstr(err.msg, "empty") != NULL
                             : strstr(err.msg, "gzip") != NULL);
        assert_true(part.n <= whole.n);
        assert_true(part.n == 0 || part.hash == whole.run[part.n - 1]);
    }
    /* a flipped byte in the deflate data: corrupt, said so */
    g[gn / 2] ^= 0x55;
    int rc = decode(g, gn, 4096, 1, &part, &m, &err);
    if (rc != 0) {   /* a flip can, rarely, still inflate */
        assert_int_equal(rc, -1);   /* bad deflate data, CRC, or the JSON it made */
        assert_true(strstr(err.msg, "gzip") || strstr(err.msg, "JSON"));
    }
    free(g);
    free(p);
}

/* A trace of n events whose numbers and names vary (so that it
 * compresses to several of the inflater's 64 KiB cuts); malloc'd. */
static char *varied_trace(size_t n, size_t *len)
{
    size_t cap = 256 + n * 200;
    char *t = malloc(cap);
    assert_non_null(t);
    size_t k = (size_t)snprintf(t, cap, "{\"schemaVersion\": 1, \"traceEvents\": [\n");
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        k += (size_t)snprintf(t + k, cap - k,
                              "%s{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k_%llx\", "
                              "\"pid\": 0, \"tid\": 7, \"ts\": %zu.%03u, \"dur\": %u.%03u, "
                              "\"args\": {\"correlation\": %u}}\n", i ? "," : "",
                              (unsigned long long)(x >> 20), 1000 + i * 9, (unsigned)(x % 1000),
                              (unsigned)(x >> 40) % 500, (unsigned)(x >> 8) % 1000,
                              (unsigned)(x >> 24));
    }
    k += (size_t)snprintf(t + k, cap - k, "]}\n");
    *len = k;
    return t;
}

/* Whether two tallies saw the same events in the same order. */
static int same_events(const tally *a, const tally *b)
{
    return a->n == b->n && a->hash == b->hash;
}

/* The inflater takes the file in fixed 64 KiB cuts whatever the read
 * sizes: every piece size gives the same events, a cut anywhere (on a
 * cut's edge too) is incomplete with a prefix of them, concatenated gzip
 * members read as one stream, and a corrupt .gz gives the same events and
 * the same message at every piece size. */
static void test_gz_pieces_agree(void **state)
{
    (void)state;
    size_t n, gn;
    char *p = varied_trace(30000, &n);
    char *g = gzip_of(p, n, &gn);
    assert_true(gn > 4 * 65536);
    tally plain, whole, part;
    sm_kmeta m;
    sm_err err;
    assert_int_equal(decode(p, n, n, 1, &plain, &m, &err), 0);
    assert_int_equal(plain.n, 30000);
    assert_int_equal(decode(g, gn, gn, 1, &whole, &m, &err), 0);
    assert_true(same_events(&plain, &whole));
    static const size_t pieces[] = {1, 7, 4093, 65535, 65536, 65537, 1 << 20};
    for (size_t i = 0; i < sizeof pieces / sizeof *pieces; i++) {
        assert_int_equal(decode(g, gn, pieces[i], 1, &part, &m, &err), 0);
        assert_true(same_events(&whole, &part));
    }
    static const size_t cuts[] = {2, 65535, 65536, 65537, 3 * 65536, 3 * 65536 + 1};
    for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
        assert_int_equal(decode(g, cuts[i], 4096, 1, &part, &m, &err), KINETO_INCOMPLETE);
        assert_non_null(strstr(err.msg, "gzip"));
        assert_true(part.n < whole.n);
        assert_true(part.n == 0 || part.n > 64 || part.hash == whole.run[part.n - 1]);
    }
    /* two members: the JSON split in the middle of an event */
    size_t g1n, g2n;
    char *g1 = gzip_of(p, n / 2, &g1n), *g2 = gzip_of(p + n / 2, n - n / 2, &g2n);
    char *cat = malloc(g1n + g2n);
    assert_non_null(cat);
    memcpy(cat, g1, g1n);
    memcpy(cat + g1n, g2, g2n);
    assert_int_equal(decode(cat, g1n + g2n, 65536, 1, &part, &m, &err), 0);
    assert_true(same_events(&whole, &part));
    /* the first member alone is a complete stream whose JSON stops: bad */
    assert_int_equal(decode(cat, g1n, 65536, 1, &part, &m, &err), -1);
    assert_non_null(strstr(err.msg, "inside a complete gzip stream ends early"));
    /* damage (a flipped bit, in several places: some make the inflater
     * fail, some make bad JSON): the same verdict at every piece size */
    int inflater_failed = 0;
    for (size_t at = 65536 + 4321; at < gn - 8; at += 49999) {
        g[at] ^= 0x10;
        tally bad;
        sm_err first;
        assert_int_equal(decode(g, gn, gn, 1, &bad, &m, &first), -1);
        inflater_failed += strstr(first.msg, "corrupt gzip data") != NULL;
        assert_true(bad.n <= whole.n);
        for (size_t i = 0; i < sizeof pieces / sizeof *pieces; i++) {
            assert_int_equal(decode(g, gn, pieces[i], 1, &part, &m, &err), -1);
            assert_true(same_events(&bad, &part));
            assert_string_equal(err.msg, first.msg);
        }
        g[at] ^= 0x10;
    }
    assert_true(inflater_failed > 0);
    /* and every bit of a small one's deflate data, in pieces that end
     * anywhere near the damage */
    size_t sn;
    char *small = gzip_of(p, 2000, &sn);
    for (size_t at = 10; at < sn - 8; at++) {
        for (int bit = 0; bit < 8; bit += 3) {
            small[at] ^= (char)(1 << bit);
            tally bad;
            sm_err first;
            int rc = decode(small, sn, sn, 1, &bad, &m, &first);
            for (size_t piece = 1; piece < 64; piece += 5) {
                assert_int_equal(decode(small, sn, piece, 1, &part, &m, &err), rc);
                assert_true(same_events(&bad, &part));
                assert_string_equal(err.msg, first.msg);
            }
            small[at] ^= (char)(1 << bit);
        }
    }
    free(small);
    free(cat);
    free(g1);
    free(g2);
    free(g);
    free(p);
}

/* A file named .gz whose bytes are not gzip's (a random file, a plain
 * JSON misnamed): "not gzip", not a JSON error at byte 0. Without the
 * name, plain JSON is read as plain. */
static void test_gz_name_not_gzip(void **state)
{
    (void)state;
    const char *p = "{\"traceEvents\": []}";
    kineto_dec_opts o = {.gzip_name = 1};
    kineto_dec *d = kineto_dec_new(&o);
    assert_non_null(d);
    tally t = {0};
    assert_int_equal(kineto_dec_feed(d, p, strlen(p), on_event, &t), -1);
    assert_int_equal(t.n, 0);
    sm_kmeta m;
    sm_err err = {0};
    assert_int_equal(kineto_dec_finish(d, &m, &err), -1);
    assert_non_null(strstr(err.msg, "not gzip"));
    assert_null(strstr(err.msg, "JSON object"));
    kineto_dec_free(d);
    assert_int_equal(decode(p, strlen(p), 3, 1, &t, &m, &err), 0);
}

/* Plain JSON cut mid-event: incomplete, the events before the cut given,
 * the one cut not. Cut between events of a one-line file too. */
static void test_cut_plain_keeps_events_before(void **state)
{
    (void)state;
    size_t n;
    char *p = slurp(CORPUS "/strings.json", &n);
    assert_non_null(p);
    tally whole, part;
    sm_kmeta m;
    sm_err err;
    assert_int_equal(decode(p, n, n, 1, &whole, &m, &err), 0);
    int64_t prev = 0;
    for (size_t cut = 1; cut < n; cut += 97) {
        for (size_t piece = 1; piece <= 4096; piece *= 64) {
            assert_int_equal(decode(p, cut, piece, 1, &part, &m, &err), KINETO_INCOMPLETE);
            assert_non_null(strstr(err.msg, "ends early"));
            assert_int_equal(err.code, SM_ERR_PARTIAL);
            assert_true(part.n >= prev && part.n <= whole.n);
            /* exactly the first part.n events of the whole file */
            assert_true(part.n == 0 || part.hash == whole.run[part.n - 1]);
        }
        prev = part.n;
    }
    assert_true(prev > whole.n / 2);
    free(p);
}

/* Bad bytes mid-file: -1, the events before them given, the message
 * names the byte offset. */
static void test_corrupt_says_where(void **state)
{
    (void)state;
    size_t n;
    char *p = slurp(CORPUS "/strings.json", &n);
    assert_non_null(p);
    char *at = strstr(p, "\"aten::mm\"");
    assert_non_null(at);
    at[0] = '#';   /* a byte no JSON has outside strings */
    size_t off = (size_t)(at - p);
    char want[64];
    snprintf(want, sizeof want, "at byte %zu ", off);
    for (size_t piece = 1; piece <= n; piece = piece * 7 + 1) {
        tally t;
        sm_kmeta m;
        sm_err err;
        assert_int_equal(decode(p, n, piece, 1, &t, &m, &err), -1);
        /* 8 events precede aten::mm: all given, nothing after */
        assert_int_equal(t.n, 8);
        assert_non_null(strstr(err.msg, want));
    }
    /* not an object at all */
    tally t;
    sm_kmeta m;
    sm_err err;
    assert_int_equal(decode("[{\"ph\":\"X\"}]", 12, 12, 1, &t, &m, &err), -1);
    assert_non_null(strstr(err.msg, "not a JSON object"));
    assert_int_equal(decode("{\"traceEvents\":[]} x", 20, 3, 1, &t, &m, &err), -1);
    assert_non_null(strstr(err.msg, "after the end"));
    free(p);
}

static void test_event_past_bound_dropped(void **state)
{
    (void)state;
    size_t big = 3u << 20;
    char *doc = malloc(big + 256);
    assert_non_null(doc);
    size_t n = (size_t)sprintf(doc, "{\"schemaVersion\":1,\"traceEvents\":[{\"ph\":\"X\",\"name\":\"");
    memset(doc + n, 'a', big);
    n += big;
    n += (size_t)sprintf(doc + n, "\",\"ts\":1,\"dur\":1},{\"ph\":\"X\",\"name\":\"b\",\"ts\":2}]}");
    for (size_t piece = 4096; piece <= n; piece *= 16) {
        tally t;
        sm_kmeta m;
        sm_err err;
        assert_int_equal(decode(doc, n, piece, 1, &t, &m, &err), 0);
        assert_int_equal(m.events, 2);
        assert_int_equal(m.bad_events, 1);
        assert_int_equal(t.n, 1);
    }
    free(doc);
}

static void test_keep_python(void **state)
{
    (void)state;
    size_t n;
    char *p = slurp(CORPUS "/meta_after.json", &n);
    assert_non_null(p);
    tally t0, t1;
    sm_kmeta m0, m1;
    sm_err err;
    assert_int_equal(decode(p, n, 5, 0, &t0, &m0, &err), 0);
    assert_int_equal(decode(p, n, 5, 1, &t1, &m1, &err), 0);
    assert_int_equal(m0.events, 6);
    assert_int_equal(m1.events, 6);
    assert_int_equal(t0.by_cat[KCAT_PYTHON_FUNCTION], 0);
    assert_int_equal(t1.by_cat[KCAT_PYTHON_FUNCTION], 4);
    assert_int_equal(t0.n, 2);
    /* metadata after traceEvents */
    assert_true(m0.has_schema && m0.has_dist && m0.rank == -1);
    assert_string_equal(t0.host, "algo-1");
    assert_string_equal(t0.backend, "nccl");
    assert_true(kineto_meta_is_kineto(&m0));
    free(p);
}

typedef struct names {
    char s[8][256];
    int n;
} names;

static void on_name(void *ud, const sm_kevent *e)
{
    names *nm = ud;
    if (nm->n < 8 && e->ph == 'X' && e->name.len < 200 && memchr(e->name.ptr, '\\', e->name.len)) {
        kineto_str_sanitize(e->name, nm->s[nm->n], sizeof nm->s[0]);
        nm->n++;
    }
}

static void test_sanitize(void **state)
{
    (void)state;
    size_t n;
    char *p = slurp(CORPUS "/strings.json", &n);
    assert_non_null(p);
    names nm = {0};
    kineto_dec *d = kineto_dec_new(NULL);
    kineto_dec_feed(d, p, n, on_name, &nm);
    kineto_dec_free(d);
    assert_true(nm.n >= 1);
    const char *s = nm.s[0];
    assert_string_equal(s, "esc \" \\ / ????? ?[31mred?[0m \xc3\xa9 \xf0\x9f\x98\x80 lone "
                           "\xef\xbf\xbd ? bidi ?nul");
    for (const unsigned char *c = (const unsigned char *)s; *c; c++)
        assert_true(*c >= 0x20 && *c != 0x7f);
    /* copy: unescaped exactly; the full length even when cut */
    char out[8];
    sm_str raw = sm_str_c("a\\u00e9\\\"b\\n");
    assert_int_equal(kineto_str_copy(raw, out, sizeof out), 6);
    assert_string_equal(out, "a\xc3\xa9\"b\n");
    assert_int_equal(kineto_str_copy(raw, out, 3), 6);
    assert_string_equal(out, "a");          /* never half of é */
    /* a C1 control (U+009B, 8-bit CSI) and invalid UTF-8 */
    char o2[32];
    kineto_str_sanitize(sm_str_c("x\\u009b1m\xff\xc3y"), o2, sizeof o2);
    assert_string_equal(o2, "x?1m??y");
    /* the one table (model/util/sanitize): U+180E, which this decoder's
     * own copy of the table once lacked, escaped and as bytes */
    kineto_str_sanitize(sm_str_c("a\\u180eb\xe1\xa0\x8e" "c"), o2, sizeof o2);
    assert_string_equal(o2, "a?b?c");
    /* a name longer than the buffer and without escapes (one piece) keeps
     * its head: real kernel names run past 1,500 bytes */
    char big[3000], o3[1024];
    memset(big, 'k', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    assert_int_equal(kineto_str_sanitize(sm_str_c(big), o3, sizeof o3), sizeof o3 - 1);
    assert_int_equal(strlen(o3), sizeof o3 - 1);
    assert_int_equal(kineto_str_copy(sm_str_c(big), o3, sizeof o3), sizeof big - 1);
    assert_int_equal(o3[0], 'k');
    /* plain printable ASCII is copied whole; a byte that is not, in its
     * 16-byte steps or in the tail, takes the full path */
    char o4[64];
    kineto_str_sanitize(sm_str_c("0123456789abcdef0\x7f" "2"), o4, sizeof o4);
    assert_string_equal(o4, "0123456789abcdef0?2");
    kineto_str_sanitize(sm_str_c("0123456789abcd\x1b" "f0123"), o4, sizeof o4);
    assert_string_equal(o4, "0123456789abcd?f0123");
    kineto_str_sanitize(sm_str_c("abcdefghijklmn\xc3\xa9xyz\\n"), o4, sizeof o4);
    assert_string_equal(o4, "abcdefghijklmn\xc3\xa9xyz?");
    assert_int_equal(kineto_str_sanitize(sm_str_c("0123456789abcdef0123"), o4, 10), 9);
    assert_string_equal(o4, "012345678");
    free(p);
}

static void test_sniff(void **state)
{
    (void)state;
    const char *yes = "{\"schemaVersion\": 1, \"deviceProperties\": [], \"traceEvents\": [{\"ph\":";
    assert_int_equal(kineto_sniff(yes, strlen(yes)), KINETO_SNIFF_YES);
    const char *after = "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\"},";
    assert_int_equal(kineto_sniff(after, strlen(after)), KINETO_SNIFF_MAYBE);
    const char *tf = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[]}";
    assert_int_equal(kineto_sniff(tf, strlen(tf)), KINETO_SNIFF_NO);
    assert_int_equal(kineto_sniff("[{\"ph\":\"X\"}", 11), KINETO_SNIFF_NO);
    assert_int_equal(kineto_sniff("{\"a\": [1, 2", 11), KINETO_SNIFF_MAYBE);
    assert_int_equal(kineto_sniff("", 0), KINETO_SNIFF_MAYBE);
    /* gzip: a head of the compressed file */
    size_t gn;
    char *g = gzip_of(yes, strlen(yes), &gn);
    assert_int_equal(kineto_sniff(g, gn > 40 ? 40 : gn), KINETO_SNIFF_MAYBE);
    assert_int_equal(kineto_sniff(g, gn), KINETO_SNIFF_YES);
    free(g);
    size_t n;
    char *b = slurp(KDIR "/nccl_data/nccl_data.json.gz", &n);
    if (b) {
        assert_int_equal(kineto_sniff(b, n < 65536 ? n : 65536), KINETO_SNIFF_YES);
        free(b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_samples),
        cmocka_unit_test(test_sample_meta_strings),
        cmocka_unit_test(test_cut_gz_is_incomplete),
        cmocka_unit_test(test_gz_pieces_agree),
        cmocka_unit_test(test_gz_name_not_gzip),
        cmocka_unit_test(test_cut_plain_keeps_events_before),
        cmocka_unit_test(test_corrupt_says_where),
        cmocka_unit_test(test_event_past_bound_dropped),
        cmocka_unit_test(test_keep_python),
        cmocka_unit_test(test_sanitize),
        cmocka_unit_test(test_sniff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
