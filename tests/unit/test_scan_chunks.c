/* A line file larger than one read (scanner_opts.read_chunk) is read in
 * several within the same pass (a closed trace's first read takes at least
 * SCAN_FIRST_READ_MIN, where its layout is judged), so a 200 MB trace costs what a 16 MB one
 * costs (issue 10: the whole-file JSON fallback must stream). Reads cut
 * anywhere — inside a system line, inside a pretty-printed event, between
 * a B and its E — must build the model one whole read builds, and no read
 * may ask for more than the chunk. */
#include "scan_fixture.h"
#include "model_diff.h"

#define HOUR "2020061000"
#define T0 1591747200LL

/* Appends printf output to a growing string. */
typedef struct sbuf {
    char *p;
    size_t len, cap;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    assert_true(n >= 0);
    if (b->len + (size_t)n + 1 > b->cap) {
        b->cap = (b->len + (size_t)n + 1) * 2;
        assert_non_null(b->p = realloc(b->p, b->cap));
    }
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* Trace events of one writer in the layout smdebug's writer uses (one per
 * line), as json.dump leaves them (one line), or pretty-printed. */
enum layout { LINES, ONELINE, PRETTY };

static void trace_file(const fixture *f, const char *rel, enum layout lay, int writer)
{
    sbuf b = {0};
    const char *sep = lay == LINES ? ",\n" : lay == ONELINE ? ", " : ",\n  ";
    const char *nl = lay == PRETTY ? "\n    " : " ";
    sb_printf(&b, "[%s{%s\"name\": \"process_name\",%s\"ph\": \"M\",%s\"pid\": 0,%s"
                  "\"args\": {\"start_time_since_epoch_in_micros\": %lld}}",
              lay == ONELINE ? "" : "\n  ", nl, nl, nl, nl, T0 * 1000000);
    sb_printf(&b, "%s{%s\"name\": \"process_name\",%s\"ph\": \"M\",%s\"pid\": 1,%s"
                  "\"args\": {\"name\": \"Step:ModeKeys.TRAIN\"}}", sep, nl, nl, nl, nl);
    for (int i = 0; i < 1000; i++) {
        if (i % 50 == 7)   /* a B/E pair, E two events later */
            sb_printf(&b, "%s{%s\"name\": \"Step\",%s\"ph\": \"B\",%s\"pid\": 1,%s\"tid\": 1,"
                          "%s\"ts\": %d}", sep, nl, nl, nl, nl, nl, i * 1000 + writer);
        else if (i % 50 == 9)
            sb_printf(&b, "%s{%s\"ph\": \"E\",%s\"pid\": 1,%s\"tid\": 1,%s\"ts\": %d}", sep,
                      nl, nl, nl, nl, i * 1000 + 700);
        else
            sb_printf(&b, "%s{%s\"name\": \"Step\",%s\"ph\": \"X\",%s\"pid\": 1,%s\"ts\": %d,"
                          "%s\"dur\": %d,%s\"args\": {\"step_num\": \"%d\"}}",
                      sep, nl, nl, nl, nl, i * 1000, nl, 100 + (i * 37 + writer) % 800, nl, i);
    }
    sb_printf(&b, "%s]\n", lay == ONELINE ? "" : "\n");
    fixture_put(f, rel, b.p, "w");
    free(b.p);
}

static void write_job(const fixture *f)
{
    sbuf b = {0};
    for (int i = 0; i < 400; i++)
        sb_printf(&b, "{\"Type\":\"cpu\",\"Name\":\"cpu%d\",\"Dimension\":\"CPUUtilization\","
                      "\"Value\":%d.%02d,\"NodeId\":\"algo-1\",\"Timestamp\":%lld.%d}\n",
                  i % 4, (i * 7) % 100, i % 100, T0 + i / 4, i % 10);
    fixture_put(f, "system/incremental/" HOUR "/1591747200.algo-1.json", b.p, "w");
    free(b.p);
    trace_file(f, "framework/pevents/" HOUR "/1591747500000000_0-algo-1_pythontimeline.json",
               LINES, 0);
    trace_file(f, "framework/pevents/" HOUR "/1591747500000000_1-algo-1_pythontimeline.json",
               ONELINE, 1);
    trace_file(f, "framework/pevents/" HOUR "/1591747500000000_2-algo-1_pythontimeline.json",
               PRETTY, 2);
}

typedef struct asked {
    const char *dir;
    size_t chunk;
    int64_t max_len;     /* longest read asked */
    int64_t max_trace_len;   /* longest read asked of a trace past its start */
    int reads, trace_reads, unbounded;
} asked;

static int64_t size_of(const char *dir, const char *key)
{
    char path[768];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, key);
    assert_int_equal(stat(path, &st), 0);
    return (int64_t)st.st_size;
}

static void record_reads(void *ud, const source_req *r, size_t n)
{
    asked *a = ud;
    for (size_t i = 0; i < n; i++) {
        a->reads++;
        /* to the end only what one read holds (the S3 cache keeps whole
         * objects): a small file, or a large one's last piece */
        if (r[i].len < 0) {
            a->unbounded++;
            if (a->chunk)
                assert_true(size_of(a->dir, r[i].key) - r[i].offset <= (int64_t)a->chunk);
        } else if (r[i].len > a->max_len) {
            a->max_len = r[i].len;
        }
        if (strstr(r[i].key, "_pythontimeline.json")) {
            a->trace_reads++;
            if (r[i].offset > 0 && r[i].len > a->max_trace_len)
                a->max_trace_len = r[i].len;
        }
    }
}

/* A model read with the given chunk (0: the default) and fetch mode. */
static model *scan_with(fixture *f, size_t chunk, int sequential, asked *a, scan_stats *st)
{
    hook_source h = hook_source_wrap(f->src, record_reads, a);
    model *m = model_new(NULL);
    assert_non_null(m);
    scanner_opts o = {.read_chunk = chunk, .sequential = sequential};
    sm_err err = {0};
    scanner *sc = scanner_new(&h.base, "", m, &o, &err);
    assert_non_null(sc);
    assert_int_equal(scanner_scan(sc, &err), 0);
    scanner_finish(sc);
    scanner_get_stats(sc, st);
    scanner_free(sc);
    return m;
}

static void test_chunks_build_the_same_model(void **state)
{
    fixture *f = *state;
    write_job(f);
    sm_err err = {0};
    assert_non_null(f->src = source_local_open(f->dir, &err));
    asked whole = {0};
    scan_stats ws;
    model *ref = scan_with(f, 0, 0, &whole, &ws);
    /* 4 files, each in one read to its end: the default chunk is far
     * above them */
    assert_int_equal(whole.reads, 4);
    assert_int_equal(whole.unbounded, 4);
    assert_int_equal(ws.corrupt_lines + ws.partial_lines, 0);
    /* 3 writers x (960 X + 20 B/E pairs) TRAIN steps */
    assert_int_equal(fixture_train_steps(ref), 2940);
    static const size_t chunks[] = {97, 4093, 65537};
    for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++) {
        for (int seq = 0; seq < 2; seq++) {
            asked a = {.dir = f->dir, .chunk = chunks[c]};
            scan_stats st;
            model *m = scan_with(f, chunks[c], seq, &a, &st);
            model_diff d = mdiff_compare(ref, m);
            if (d.mismatches)
                fail_msg("chunk %zu%s: %lld mismatches, first: %s", chunks[c],
                         seq ? " (sequential)" : "", (long long)d.mismatches, d.first);
            assert_true(d.events >= 2940);
            assert_int_equal(st.corrupt_lines, 0);
            assert_int_equal(st.partial_lines, 0);
            assert_int_equal(st.bytes_read, ws.bytes_read);
            /* a trace's first read takes its first element whole */
            assert_true(a.max_len <= (int64_t)(chunks[c] > SCAN_FIRST_READ_MIN
                                                   ? chunks[c] : SCAN_FIRST_READ_MIN));
            assert_true(a.max_trace_len <= (int64_t)chunks[c]);
            assert_true(a.trace_reads >= 3 * 2);   /* each trace in two reads or more */
            model_free(m);
        }
    }
    model_free(ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        FIXTURE_TEST(test_chunks_build_the_same_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
