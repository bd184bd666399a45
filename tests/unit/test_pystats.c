/* model/pystats: merge like pstats.add, top-N by every key, deterministic
 * ties, window selection, callers/callees, replacement, saturation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "model/pystats/pystats.h"

static pystats_window win(const char *node, int64_t s0, int64_t s1, int64_t t0, int64_t t1,
                          pystats_mode m0, pystats_mode m1)
{
    pystats_window w;
    memset(&w, 0, sizeof w);
    snprintf(w.node, sizeof w.node, "%s", node);
    w.profiler = PYPROF_CPROFILE;
    w.start_step = s0;
    w.end_step = s1;
    w.start_us = t0;
    w.end_us = t1;
    w.start_mode = m0;
    w.end_mode = m1;
    return w;
}

static pystats_func_rec fn(const char *file, int64_t line, const char *name, int64_t pc,
                           int64_t nc, double tt, double ct)
{
    pystats_func_rec f = {sm_str_c(file), line, sm_str_c(name), {pc, nc, tt, ct}, NULL, 0};
    return f;
}

/* Adds funcs to a new window of s stored under key. */
static void put(pystats_store *s, const char *key, pystats_window info,
                const pystats_func_rec *f, size_t n)
{
    pystats_win *w = pystats_win_new(s, &info);
    assert_non_null(w);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(pystats_win_add(w, &f[i]), 0);
    assert_int_equal(pystats_store_put(s, key, w), 0);
}

static const pystats_func *find(const pystats_result *r, const char *name)
{
    for (size_t i = 0; i < pystats_result_count(r); i++)
        if (strcmp(pystats_result_at(r, i)->name, name) == 0)
            return pystats_result_at(r, i);
    return NULL;
}

static void test_merge_like_pstats_add(void **state)
{
    (void)state;
    pystats_store *s = pystats_store_new();
    pystats_caller_rec c1 = {sm_str_c("m.py"), 1, sm_str_c("main"), {1, 2, 0.5, 1.0}};
    pystats_caller_rec c2 = {sm_str_c("m.py"), 1, sm_str_c("main"), {3, 4, 0.25, 0.5}};
    pystats_caller_rec c3 = {sm_str_c("x.py"), 9, sm_str_c("other"), {1, 1, 0.125, 0.125}};
    pystats_func_rec a[] = {fn("m.py", 1, "main", 1, 1, 0.1, 3.0), fn("w.py", 5, "work", 1, 2, 0.5, 1.0)};
    a[1].callers = &c1;
    a[1].ncallers = 1;
    pystats_func_rec b[] = {fn("w.py", 5, "work", 3, 5, 0.25, 0.625), fn("m.py", 1, "main", 1, 1, 0.2, 2.0)};
    pystats_caller_rec cb[] = {c2, c3};
    b[0].callers = cb;
    b[0].ncallers = 2;
    put(s, "k1", win("algo-1", 9, 11, 100, 200, PYMODE_TRAIN, PYMODE_TRAIN), a, 2);
    put(s, "k2", win("algo-2", 9, 11, 100, 200, PYMODE_TRAIN, PYMODE_TRAIN), b, 2);
    pystats_select sel;
    pystats_select_all(&sel, PYPROF_CPROFILE);
    pystats_result *r = pystats_store_query(s, &sel, NULL);
    assert_non_null(r);
    assert_int_equal(pystats_result_count(r), 2);
    assert_int_equal(pystats_result_window_count(r), 2);
    const pystats_func *w = find(r, "work");
    assert_int_equal(w->c.pcalls, 4);
    assert_int_equal(w->c.ncalls, 7);
    assert_true(w->c.tottime == 0.75 && w->c.cumtime == 1.625);
    const pystats_edge *e;
    size_t ne = pystats_result_callers(r, 0, &e);   /* work sorts first by tottime */
    assert_string_equal(pystats_result_at(r, 0)->name, "work");
    assert_int_equal(ne, 2);
    assert_string_equal(e[0].peer.name, "main");    /* larger edge cumtime first */
    assert_int_equal(e[0].peer.c.pcalls, 4);
    assert_int_equal(e[0].peer.c.ncalls, 6);
    assert_true(e[0].peer.c.tottime == 0.75 && e[0].peer.c.cumtime == 1.5);
    assert_int_equal(e[0].peer_index, 1);
    assert_string_equal(e[1].peer.name, "other");
    assert_int_equal(e[1].peer_index, -1);          /* not a profiled function */
    ne = pystats_result_callees(r, 1, &e);
    assert_int_equal(ne, 1);
    assert_string_equal(e[0].peer.name, "work");
    assert_int_equal(e[0].peer_index, 0);
    pystats_call tot = pystats_result_total(r);
    assert_int_equal(tot.ncalls, 9);
    assert_int_equal(tot.pcalls, 6);
    assert_true(tot.tottime > 1.0499999 && tot.tottime < 1.0500001);
    char buf[64];
    pystats_func_format(w, buf, sizeof buf);
    assert_string_equal(buf, "w.py:5(work)");
    pystats_result_free(r);
    pystats_store_free(s);
}

static void test_sort_keys_and_ties(void **state)
{
    (void)state;
    pystats_store *s = pystats_store_new();
    pystats_func_rec f[] = {
        fn("b.py", 2, "x", 1, 4, 1.0, 4.0), fn("a.py", 9, "y", 2, 2, 1.0, 1.0),
        fn("a.py", 3, "z", 8, 8, 0.5, 4.0), fn("a.py", 3, "w", 0, 0, 1.0, 0.0)};
    put(s, "k", win("n", 1, 1, 1, 2, PYMODE_TRAIN, PYMODE_TRAIN), f, 4);
    pystats_select sel;
    pystats_select_all(&sel, PYPROF_CPROFILE);
    pystats_result *r = pystats_store_query(s, &sel, NULL);
    static const struct { pystats_sort k; const char *want; } cases[] = {
        {PYSORT_TOTTIME, "wyxz"},   /* 1.0 ties: a.py:3 < a.py:9 < b.py */
        {PYSORT_CUMTIME, "zxyw"},   /* 4.0 tie: a.py < b.py */
        {PYSORT_NCALLS, "zxyw"},
        {PYSORT_PCALLS, "zyxw"},
        {PYSORT_TPERCALL, "yxzw"},  /* w: 0 calls -> 0 */
        {PYSORT_CPERCALL, "xzyw"},  /* x 4/1, z 4/8, y 1/2, w 0 */
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        pystats_result_sort(r, cases[c].k);
        char got[8] = {0};
        for (size_t i = 0; i < 4; i++)
            got[i] = pystats_result_at(r, i)->name[0];
        if (strcmp(got, cases[c].want) != 0)
            fail_msg("sort %s: got %s want %s", pystats_sort_name(cases[c].k), got, cases[c].want);
    }
    pystats_sort k;
    assert_int_equal(pystats_sort_parse("cumulative", &k), 0);
    assert_int_equal(k, PYSORT_CUMTIME);
    assert_int_equal(pystats_sort_parse("tpercall", &k), 0);
    assert_int_equal(k, PYSORT_TPERCALL);
    assert_int_equal(pystats_sort_parse("bogus", &k), -1);
    pystats_result_free(r);
    pystats_store_free(s);
}

/* Selection by node, time, job phase, and steps as smdebug's
 * fetch_profile_stats_by_step takes them: windows of one mode (start and
 * end) whose steps lie within A..B; the older layout has no mode. */
static void test_window_selection(void **state)
{
    (void)state;
    pystats_store *s = pystats_store_new();
    pystats_func_rec f = fn("a.py", 1, "f", 1, 1, 1.0, 1.0);
    put(s, "pre", win("algo-1", PYSTATS_NO_STEP, 0, 100, 200, PYMODE_PRESTEPZERO, PYMODE_TRAIN), &f, 1);
    put(s, "e5", win("algo-1", 5, 5, 250, 260, PYMODE_EVAL, PYMODE_EVAL), &f, 1);
    put(s, "s9", win("algo-1", 9, 11, 300, 400, PYMODE_TRAIN, PYMODE_TRAIN), &f, 1);
    put(s, "s9b", win("algo-2", 9, 11, 300, 400, PYMODE_TRAIN, PYMODE_TRAIN), &f, 1);
    put(s, "s20", win("algo-1", 20, 22, 500, 600, PYMODE_TRAIN, PYMODE_TRAIN), &f, 1);
    put(s, "post", win("algo-1", 30, PYSTATS_NO_STEP, 700, 800, PYMODE_TRAIN, PYMODE_POSTHOOKCLOSE), &f, 1);
    pystats_window old = win("algo-3", 2, 2, 900, 901, PYMODE_NONE, PYMODE_NONE);
    old.legacy = 1;
    put(s, "old", old, &f, 1);
    pystats_window pw = win("algo-1", 1, 1, 1, 2, PYMODE_TRAIN, PYMODE_TRAIN);
    pw.profiler = PYPROF_PYINSTRUMENT;
    put(s, "pyi", pw, &f, 1);
    assert_int_equal(pystats_store_window_count(s), 8);
    pystats_select sel;
    const int64_t A = INT64_MIN, Z = INT64_MAX;
    struct { const char *node; int64_t s0, s1, t0, t1; unsigned ph; pystats_mode mode;
             int64_t want; } cases[] = {
        {NULL, A, Z, 0, 0, 0, PYMODE_NONE, 7},
        {"algo-1", A, Z, 0, 0, 0, PYMODE_NONE, 5},
        {"algo-2", A, Z, 0, 0, 0, PYMODE_NONE, 1},
        {NULL, 10, 10, 0, 0, 0, PYMODE_NONE, 0},    /* 9..11 is not within 10..10 */
        {NULL, 0, 0, 0, 0, 0, PYMODE_NONE, 1},      /* pre ends at step 0 */
        {NULL, 9, 11, 0, 0, 0, PYMODE_NONE, 2},
        {NULL, 5, 22, 0, 0, 0, PYMODE_NONE, 4},
        {NULL, 11, 21, 0, 0, 0, PYMODE_NONE, 0},
        {NULL, 20, 40, 0, 0, 0, PYMODE_NONE, 2},    /* post: from step 30 */
        {NULL, 1, 3, 0, 0, 0, PYMODE_NONE, 1},
        {NULL, A, Z, 350, 550, 0, PYMODE_NONE, 3},
        {NULL, A, Z, 0, 300, 0, PYMODE_NONE, 2},    /* [lo, hi): 300 excluded */
        {NULL, A, Z, 0, 0, PYJOB_BEFORE_STEP0, PYMODE_NONE, 1},
        {NULL, A, Z, 0, 0, PYJOB_TRAINING, PYMODE_NONE, 5},
        {NULL, A, Z, 0, 0, PYJOB_AFTER_CLOSE | PYJOB_BEFORE_STEP0, PYMODE_NONE, 2},
        {NULL, A, Z, 0, 0, 0, PYMODE_TRAIN, 4},     /* s9 s9b s20, and the older layout */
        {NULL, 0, 100, 0, 0, 0, PYMODE_TRAIN, 4},
        {NULL, 0, 100, 0, 0, 0, PYMODE_EVAL, 2},
        {NULL, 9, 11, 0, 0, 0, PYMODE_EVAL, 0},
        {"algo-2", 9, 11, 0, 0, 0, PYMODE_TRAIN, 1},
        {NULL, 0, 100, 0, 0, 0, PYMODE_PRESTEPZERO, 1},   /* pre ends in train: old only */
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        pystats_select_all(&sel, PYPROF_CPROFILE);
        sel.node = cases[c].node;
        sel.step_lo = cases[c].s0;
        sel.step_hi = cases[c].s1;
        sel.t_lo_us = cases[c].t0;
        sel.t_hi_us = cases[c].t1;
        sel.jobphases = cases[c].ph;
        sel.mode = cases[c].mode;
        pystats_result *r = pystats_store_query(s, &sel, NULL);
        const pystats_func *fx = pystats_result_at(r, 0);
        int64_t n = fx ? fx->c.ncalls : 0;
        if (n != cases[c].want || (int64_t)pystats_result_window_count(r) != cases[c].want)
            fail_msg("case %zu: %lld windows, want %lld", c, (long long)n, (long long)cases[c].want);
        pystats_result_free(r);
    }
    pystats_store_free(s);
}

static void test_replace_failed_saturate(void **state)
{
    (void)state;
    pystats_store *s = pystats_store_new();
    pystats_func_rec big = fn("a.py", 1, "f", INT64_MAX - 1, INT64_MAX - 1, 1.0, 1.0);
    put(s, "k", win("n", 1, 1, 1, 2, PYMODE_TRAIN, PYMODE_TRAIN), &big, 1);
    put(s, "k2", win("n", 1, 1, 3, 4, PYMODE_TRAIN, PYMODE_TRAIN), &big, 1);
    pystats_select sel;
    pystats_select_all(&sel, PYPROF_CPROFILE);
    pystats_result *r = pystats_store_query(s, &sel, NULL);
    assert_int_equal(pystats_result_at(r, 0)->c.ncalls, INT64_MAX);
    pystats_result_free(r);
    /* a new version of k replaces the old one */
    pystats_func_rec small = fn("a.py", 1, "f", 2, 3, 1.0, 1.0);
    uint64_t gen = pystats_store_generation(s);
    put(s, "k2", win("n", 1, 1, 3, 4, PYMODE_TRAIN, PYMODE_TRAIN), &small, 1);
    assert_true(pystats_store_generation(s) > gen);
    assert_int_equal(pystats_store_window_count(s), 2);
    pystats_window pw = win("n", 1, 1, 5, 6, PYMODE_TRAIN, PYMODE_TRAIN);
    pw.profiler = PYPROF_PYINSTRUMENT;
    pystats_win *w = pystats_win_new(s, &pw);
    pystats_win_set_failed(w);
    assert_int_equal(pystats_store_put(s, "bad", w), 0);
    r = pystats_store_query(s, &sel, NULL);
    assert_int_equal(pystats_result_window_count(r), 2);
    assert_int_equal(pystats_result_at(r, 0)->c.pcalls, INT64_MAX);  /* (2^63-2) + 2 saturates */
    assert_int_equal(pystats_result_failed_count(r), 0);
    pystats_result_free(r);
    pystats_select_all(&sel, PYPROF_PYINSTRUMENT);
    r = pystats_store_query(s, &sel, NULL);
    assert_int_equal(pystats_result_window_count(r), 1);
    assert_int_equal(pystats_result_failed_count(r), 1);
    assert_int_equal(pystats_result_count(r), 0);
    assert_null(pystats_result_at(r, 0));
    pystats_result_free(r);
    pystats_store_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_merge_like_pstats_add),
        cmocka_unit_test(test_sort_keys_and_ties),
        cmocka_unit_test(test_window_selection),
        cmocka_unit_test(test_replace_failed_saturate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
