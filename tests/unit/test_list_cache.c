/* list_cache: a saved listing answers the next open's first pass only,
 * ranges listed for real replace what the cache held there (deleted keys
 * go, keys past an early stop stay), and a report-style open never
 * serves from it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tmpdir.h"
#include "io/source/list_cache.h"

static char dir[256];

static int setup(void **st)
{
    (void)st;
    snprintf(dir, sizeof dir, "/tmp/smtop-lc-test-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
    (void)st;
    return tmpdir_remove(dir);
}

typedef struct seen {
    char keys[16][64];
    int n, stop_at;
} seen;

static int put_ok(void *pud, const source_entry *e)
{
    (void)pud;
    (void)e;
    return 0;
}

static int collect(void *ud, const source_entry *e)
{
    seen *s = ud;
    snprintf(s->keys[s->n++], sizeof s->keys[0], "%s", e->key);
    return s->n == s->stop_at;
}

static void note(list_cache *lc, const char *key, const char *etag)
{
    source_entry e = {key, 10, 0, etag, NULL};
    assert_int_equal(list_cache_note(lc, &e), 0);
}

/* A real listing of the whole job with keys, saved at the pass end. */
static void save_listing(cache *c, const char *const *keys, int n)
{
    list_cache *lc = list_cache_open(c, "http://ep", "bkt", "job/", 1);
    assert_non_null(lc);
    assert_false(list_cache_serving(lc));
    for (int i = 0; i < n; i++)
        note(lc, keys[i], "e1");
    assert_int_equal(list_cache_settle(lc, "", NULL, 1), 0);
    sm_err err;
    assert_int_equal(list_cache_pass_end(lc, &err), 0);
    list_cache_free(lc);
}

static seen list_all(list_cache *lc, const char *prefix, const char *after, int stop_at)
{
    seen s = {.stop_at = stop_at};
    assert_int_equal(list_cache_list(lc, prefix, after, put_ok, NULL, collect, &s), 0);
    return s;
}

static void test_serves_first_pass_only(void **st)
{
    (void)st;
    sm_err err;
    cache *c = cache_open(dir, 0, &err);
    const char *keys[] = {"a/1", "a/2", "b/1", "b/2", "c/1"};
    save_listing(c, keys, 5);
    list_cache *lc = list_cache_open(c, "http://ep", "bkt", "job/", 1);
    assert_true(list_cache_serving(lc));
    seen s = list_all(lc, "b/", NULL, 0);
    assert_int_equal(s.n, 2);
    assert_string_equal(s.keys[0], "b/1");
    s = list_all(lc, "", "a/2", 0);
    assert_int_equal(s.n, 3);
    assert_string_equal(s.keys[0], "b/1");
    s = list_all(lc, "", NULL, 2); /* the callback stops the listing */
    assert_int_equal(s.n, 2);
    assert_int_equal(list_cache_pass_end(lc, &err), 1);
    assert_false(list_cache_serving(lc));
    assert_int_equal(list_cache_pass_end(lc, &err), 0);
    list_cache_free(lc);
    /* another endpoint, bucket or prefix has its own listing */
    lc = list_cache_open(c, "http://other", "bkt", "job/", 1);
    assert_false(list_cache_serving(lc));
    list_cache_free(lc);
    lc = list_cache_open(c, "http://ep", "bkt", "job2/", 1);
    assert_false(list_cache_serving(lc));
    list_cache_free(lc);
    /* a one-pass report does not serve */
    lc = list_cache_open(c, "http://ep", "bkt", "job/", 0);
    assert_false(list_cache_serving(lc));
    list_cache_free(lc);
    cache_free(c);
}

static void test_real_listing_replaces_its_range(void **st)
{
    (void)st;
    sm_err err;
    cache *c = cache_open(dir, 0, &err);
    const char *keys[] = {"a/1", "b/1", "b/2", "b/3", "c/1"};
    save_listing(c, keys, 5);
    list_cache *lc = list_cache_open(c, "http://ep", "bkt", "job/", 0);
    /* b/ after b/1, complete: b/2 is gone, b/4 is new */
    note(lc, "b/3", "e1");
    note(lc, "b/4", "e1");
    assert_int_equal(list_cache_settle(lc, "b/", "b/1", 1), 0);
    /* c/ stopped early after c/0: c/1 (past the stop) is kept */
    note(lc, "c/0", "e1");
    assert_int_equal(list_cache_settle(lc, "c/", NULL, 0), 0);
    /* a failed listing of a/ changes nothing */
    note(lc, "a/9", "e1");
    assert_int_equal(list_cache_settle(lc, "a/", NULL, -1), 0);
    assert_int_equal(list_cache_pass_end(lc, &err), 0);
    list_cache_free(lc);

    lc = list_cache_open(c, "http://ep", "bkt", "job/", 1);
    seen s = list_all(lc, "", NULL, 0);
    const char *want[] = {"a/1", "b/1", "b/3", "b/4", "c/0", "c/1"};
    assert_int_equal(s.n, 6);
    for (int i = 0; i < 6; i++)
        assert_string_equal(s.keys[i], want[i]);
    list_cache_free(lc);
    cache_free(c);
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test_setup_teardown(test_serves_first_pass_only, setup, teardown),
        cmocka_unit_test_setup_teardown(test_real_listing_replaces_its_range, setup, teardown),
    };
    return cmocka_run_group_tests(t, NULL, NULL);
}
