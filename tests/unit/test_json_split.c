/* json_split: the elements of a JSON array in any layout, fed in pieces of
 * any size, in bounded memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <cmocka.h>

#include "io/decode/json_split.h"

typedef struct got {
    int n, dropped;
    char e[16][256];
} got;

static void collect(void *ud, const char *p, size_t n)
{
    got *g = ud;
    if (!p) {
        g->dropped++;
        return;
    }
    /* elements compared without surrounding blanks (the decoder trims) */
    while (n && (p[n - 1] == ' ' || p[n - 1] == '\n'))
        n--;
    if (g->n < 16)
        snprintf(g->e[g->n], sizeof g->e[0], "%.*s", (int)n, p);
    g->n++;
}

/* Splits doc fed in pieces of `piece` bytes. */
static got split(const char *doc, size_t piece, size_t max, int *partial)
{
    got g = {0};
    jsplit *s = json_split_new(max);
    assert_non_null(s);
    size_t n = strlen(doc);
    for (size_t i = 0; i < n; i += piece)
        assert_int_equal(json_split_feed(s, doc + i, n - i < piece ? n - i : piece, collect, &g), 0);
    *partial = json_split_finish(s);
    json_split_free(s);
    return g;
}

static const char *E1 = "{\"name\":\"a,]}\\\"[{\",\"ph\":\"X\",\"args\":{\"v\":[1,{\"x\":2}]}}";
static const char *E2 = "{\"ph\":\"M\",\"args\":{}}";

static void test_every_layout_every_split(void **state)
{
    (void)state;
    char docs[4][512];
    snprintf(docs[0], 512, "[\n%s,\n%s\n]\n", E1, E2);            /* the writer's */
    snprintf(docs[1], 512, "[%s,%s]", E1, E2);                    /* one line */
    snprintf(docs[2], 512, "[\n  {\n    \"name\": \"a,]}\\\"[{\",\n    \"ph\": \"X\",\n"
                           "    \"args\": {\"v\": [1, {\"x\": 2}]}\n  },\n  {\n    \"ph\": \"M\","
                           "\n    \"args\": {}\n  }\n]\n");       /* pretty */
    snprintf(docs[3], 512, "[\n%s,\n%s,\n", E1, E2);             /* open .tmp form */
    for (int d = 0; d < 4; d++)
        for (size_t piece = 1; piece <= strlen(docs[d]); piece++) {
            int partial;
            got g = split(docs[d], piece, 4096, &partial);
            if (g.n != 2 || g.dropped || partial)
                fail_msg("doc %d piece %zu: %d elements, %d dropped, partial %d", d, piece,
                         g.n, g.dropped, partial);
            if (d != 2) {
                assert_string_equal(g.e[0], E1);
                assert_string_equal(g.e[1], E2);
            } else {
                assert_non_null(strstr(g.e[0], "\"a,]}\\\"[{\""));
                assert_int_equal(g.e[1][strlen(g.e[1]) - 1], '}');
            }
        }
}

static void test_scalars_junk_partial(void **state)
{
    (void)state;
    int partial;
    got g = split("[1, \"x]\" ,true]", 3, 64, &partial);
    assert_int_equal(g.n, 3);
    assert_string_equal(g.e[0], "1");
    assert_string_equal(g.e[1], "\"x]\"");
    assert_string_equal(g.e[2], "true");
    g = split("{\"not\":\"an array\"}", 5, 64, &partial);
    assert_int_equal(g.n, 0);
    assert_int_equal(g.dropped, 1);
    g = split("[{\"a\":1}] trailing [", 4, 64, &partial);
    assert_int_equal(g.n, 1);
    assert_int_equal(g.dropped, 1);
    g = split("[{\"a\":1},{\"b\":", 4, 64, &partial);   /* a closed file cut mid-event */
    assert_int_equal(g.n, 1);
    assert_int_equal(partial, 1);
    g = split("[]", 1, 64, &partial);
    assert_int_equal(g.n + g.dropped + partial, 0);
}

static void test_bound(void **state)
{
    (void)state;
    char doc[2048];
    char big[1200];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    snprintf(doc, sizeof doc, "[{\"a\":1},{\"big\":\"%s\"},{\"b\":2}]", big);
    for (size_t piece = 1; piece < 200; piece += 7) {
        got g = {0};
        jsplit *s = json_split_new(256);
        size_t n = strlen(doc);
        for (size_t i = 0; i < n; i += piece) {
            assert_int_equal(json_split_feed(s, doc + i, n - i < piece ? n - i : piece, collect, &g), 0);
            assert_true(json_split_held(s) <= 256);
        }
        assert_int_equal(json_split_finish(s), 0);
        json_split_free(s);
        assert_int_equal(g.n, 2);          /* the ones before and after it */
        assert_int_equal(g.dropped, 1);
        assert_string_equal(g.e[1], "{\"b\":2}");
    }
}

static void test_layout_detection(void **state)
{
    (void)state;
    static const struct { const char *doc; int lines; } cases[] = {
        {"[\n{\"a\":1},\n{\"b\":2},\n", 1},
        {"[{\"a\":1},\n{\"b\":2}\n]", 1},
        {"[\n{\"a\":\"{,}\"},\n", 1},
        {"[{\"a\":1}]\n", 1},
        {"[\n", 1},                       /* too short to tell: the line path */
        {"[\n{\"a\":", 1},
        {"", 1},
        {"not json", 1},
        {"[{\"a\":1},{\"b\":2}]", 0},     /* the whole array on one line */
        {"[{\"a\":1}, {\"b\":2}", 0},
        {"[\n  {\n    \"a\": 1\n  }\n]", 0},   /* pretty-printed */
        {"[{\"a\":\n1}]", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        if (json_split_one_per_line(cases[i].doc, strlen(cases[i].doc)) != cases[i].lines)
            fail_msg("case %zu (%s): want %d", i, cases[i].doc, cases[i].lines);
}

static long max_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static void count(void *ud, const char *p, size_t n)
{
    (void)n;
    ((int64_t *)ud)[p ? 0 : 1]++;
}

/* 256 MB of one single-line array, generated and fed in 64 KB pieces:
 * the splitter's memory does not grow with the file. */
static void test_memory_flat_on_a_large_single_line(void **state)
{
    (void)state;
    static char piece[65536];
    const char *ev = "{\"name\":\"Step:ModeKeys.TRAIN\",\"ph\":\"X\",\"ts\":123456,\"dur\":789,"
                     "\"pid\":1,\"tid\":1,\"args\":{\"step_num\":\"42\"}},";
    size_t el = strlen(ev), per = sizeof piece / el, used = per * el;
    for (size_t k = 0; k < per; k++)
        memcpy(piece + k * el, ev, el);
    jsplit *s = json_split_new(1 << 20);
    int64_t c[2] = {0, 0};
    assert_int_equal(json_split_feed(s, "[", 1, count, c), 0);
    long before = max_rss_kb();
    size_t total = 0;
    while (total < ((size_t)256 << 20)) {
        /* shift the piece boundary so elements straddle pieces */
        size_t cut = 1 + total % 97;
        assert_int_equal(json_split_feed(s, piece, cut, count, c), 0);
        assert_int_equal(json_split_feed(s, piece + cut, used - cut, count, c), 0);
        total += used;
        assert_true(json_split_held(s) <= el);
    }
    assert_int_equal(json_split_feed(s, "{}]", 3, count, c), 0);
    assert_int_equal(json_split_finish(s), 0);
    json_split_free(s);
    long grew = max_rss_kb() - before;
    print_message("fed %zu MB, %lld elements, max RSS grew %ld kB\n", total >> 20,
                  (long long)c[0], grew);
    assert_int_equal(c[0], (int64_t)(total / el) + 1);
    assert_int_equal(c[1], 0);
    assert_true(grew < 4096);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_layout_every_split),
        cmocka_unit_test(test_scalars_junk_partial),
        cmocka_unit_test(test_bound),
        cmocka_unit_test(test_layout_detection),
        cmocka_unit_test(test_memory_flat_on_a_large_single_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
