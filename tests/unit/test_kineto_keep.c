/* kineto_keep: a trace's events kept past several blocks come back whole
 * and in order, their span right, whether the blocks went to a temporary
 * file or (no file can be made) stayed in memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "io/run/kineto_keep.h"

#define N (3 * KKEEP_BLOCK + 123)

typedef struct seen {
    int64_t n;
    int bad;
} seen;

static void name_of(int64_t i, char *buf, size_t cap)
{
    snprintf(buf, cap, "op_%lld%.*s", (long long)i, (int)(i % 40), "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
}

static void check(void *ud, const kineto_keep_ev *ev, const char *name)
{
    seen *s = ud;
    char want[64];
    name_of(s->n, want, sizeof want);
    if (ev->ts_ns != 1000 * s->n || ev->dur_ns != s->n % 7 || ev->pid != 4 || ev->tid != s->n ||
        ev->step != s->n / 10 || ev->kind != s->n % 4 || ev->name_len != strlen(want) ||
        memcmp(name, want, ev->name_len))
        s->bad++;
    s->n++;
}

static void keep_many(void)
{
    kineto_keep *k = kineto_keep_new();
    assert_non_null(k);
    int64_t t0, t1;
    assert_int_equal(kineto_keep_span(k, &t0, &t1), 0);
    for (int64_t i = 0; i < N; i++) {
        char name[64];
        name_of(i, name, sizeof name);
        kineto_keep_ev ev = {1000 * i, i % 7, 4, i, i / 10, 0, 0, (uint8_t)(i % 4)};
        assert_int_equal(kineto_keep_add(k, &ev, name, strlen(name)), 0);
    }
    assert_int_equal(kineto_keep_count(k), N);
    assert_int_equal(kineto_keep_span(k, &t0, &t1), 1);
    assert_int_equal(t0, 0);
    assert_int_equal(t1, 1000 * (N - 1) + (N - 1) % 7);
    seen s = {0, 0};
    sm_err err = {0};
    assert_int_equal(kineto_keep_each(k, check, &s, &err), 0);
    assert_int_equal(s.n, N);
    assert_int_equal(s.bad, 0);
    kineto_keep_free(k);
}

static void test_spilled(void **state)
{
    (void)state;
    unsetenv("TMPDIR");
    keep_many();
}

static void test_no_temp_file(void **state)
{
    (void)state;
    setenv("TMPDIR", "/nonexistent/smtop-no-such-dir", 1);
    keep_many();
    unsetenv("TMPDIR");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spilled),
        cmocka_unit_test(test_no_temp_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
