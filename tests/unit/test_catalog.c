/* catalog: an entry keeps what keyname_parse said of its key with the
 * node and process names shared among a writer's files (a day of 16
 * nodes is 46k entries), and its ETag only as long as it is. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "io/scan/catalog.h"

static cat_entry *add_parsed(catalog *c, const char *rel)
{
    cat_entry *e = catalog_add(c, rel);
    assert_non_null(e);
    key_info ki;
    keyname_parse(rel, &ki);
    assert_int_equal(catalog_set_info(c, e, &ki), 0);
    return e;
}

/* The entry answers as keyname_parse did, field for field, and two files
 * of one writer share its names. */
static void test_info_round_trip_and_shared_names(void **state)
{
    (void)state;
    catalog *c = catalog_new();
    assert_non_null(c);
    const char *keys[] = {
        "framework/pevents/2020061000/1591748161262590_7136-algo-2_pythontimeline.json",
        "framework/pevents/2020061000/1591748461482987_7136-algo-2_pythontimeline.json",
        "system/incremental/2020061000/1591748220.algo-3.json",
        "system/incremental/2020061000/1591748280.algo-3.json",
        "framework/pevents/2020061000/1591748161262590_11-algo-1_model_timeline.json.tmp",
    };
    cat_entry *e[5];
    for (int i = 0; i < 5; i++)
        e[i] = add_parsed(c, keys[i]);
    for (int i = 0; i < 5; i++) {
        key_info want, got;
        keyname_parse(keys[i], &want);
        catalog_entry_info(e[i], &got);
        assert_int_equal(got.kind, want.kind);
        assert_int_equal(got.tkind, want.tkind);
        assert_int_equal(got.time_us, want.time_us);
        assert_string_equal(got.node, want.node);
        assert_string_equal(got.process, want.process);
        assert_string_equal(e[i]->ki.node, want.node);
        assert_string_equal(e[i]->ki.process, want.process);
    }
    assert_string_equal(e[0]->ki.node, "algo-2");
    assert_ptr_equal(e[0]->ki.node, e[1]->ki.node);
    assert_ptr_equal(e[0]->ki.process, e[1]->ki.process);
    assert_ptr_equal(e[2]->ki.node, e[3]->ki.node);
    assert_true(e[0]->ki.node != e[2]->ki.node);
    /* a fresh entry (a folder that could not be listed) has empty names */
    cat_entry *f = catalog_add(c, "system/unlisted/");
    assert_non_null(f);
    assert_string_equal(f->ki.node, "");
    assert_string_equal(f->ki.process, "");
    /* removing an entry keeps the names its writer's other files use */
    catalog_remove(c, e[0]);
    assert_string_equal(e[1]->ki.node, "algo-2");
    catalog_free(c);
}

/* An ETag reads back whole, however long (S3 multipart ETags and other
 * stores' are longer than the 34 characters of a plain one). */
static void test_etag(void **state)
{
    (void)state;
    catalog *c = catalog_new();
    cat_entry *e = catalog_add(c, "system/incremental/1591748220.algo-1.json");
    assert_string_equal(catalog_etag(e), "");
    assert_int_equal(catalog_set_etag(e, "\"9b2cf535f27731c974343645a3985328\""), 0);
    assert_string_equal(catalog_etag(e), "\"9b2cf535f27731c974343645a3985328\"");
    char long_tag[301];
    memset(long_tag, 'a', 300);
    long_tag[300] = '\0';
    assert_int_equal(catalog_set_etag(e, long_tag), 0);
    assert_string_equal(catalog_etag(e), long_tag);
    assert_int_equal(catalog_set_etag(e, ""), 0);
    assert_string_equal(catalog_etag(e), "");
    assert_int_equal(catalog_set_etag(e, "1f2e"), 0);
    assert_int_equal(catalog_set_etag(e, NULL), 0);
    assert_null(e->etag);
    /* Added with its ETag (kept in the entry's block): replaced by a
     * shorter one, a longer one, none, the key untouched throughout. */
    const char *key = "framework/pevents/2020071317/1594662674000000_1-algo-1_pythontimeline.json";
    cat_entry *t = catalog_add_with_etag(c, key, "\"0123456789abcdef\"");
    assert_string_equal(catalog_etag(t), "\"0123456789abcdef\"");
    assert_int_equal(catalog_set_etag(t, "\"fedcba\""), 0);
    assert_string_equal(catalog_etag(t), "\"fedcba\"");
    assert_int_equal(catalog_set_etag(t, long_tag), 0);
    assert_string_equal(catalog_etag(t), long_tag);
    assert_int_equal(catalog_set_etag(t, "\"9\""), 0);
    assert_string_equal(catalog_etag(t), "\"9\"");
    assert_int_equal(catalog_set_etag(t, NULL), 0);
    assert_string_equal(catalog_etag(t), "");
    assert_string_equal(t->key, key);
    assert_ptr_equal(catalog_get(c, key), t);
    assert_non_null(catalog_add_with_etag(c, "system/x", ""));
    assert_string_equal(catalog_etag(catalog_get(c, "system/x")), "");
    catalog_free(c);
}

static int every_third(const cat_entry *e, void *ud)
{
    (void)ud;
    return e->size % 3 == 0;
}

/* catalog_retain frees the rest and keeps the chosen entries where they
 * were (the scanner's unread list points at them), each still found by
 * its key, and the catalog takes new keys after. */
static void test_retain(void **state)
{
    (void)state;
    catalog *c = catalog_new();
    enum { N = 5000 };
    static cat_entry *at[N];
    char key[64];
    for (int i = 0; i < N; i++) {
        snprintf(key, sizeof key, "system/incremental/%d.algo-1.json", i);
        at[i] = catalog_add(c, key);
        assert_non_null(at[i]);
        at[i]->size = i;
        assert_int_equal(catalog_set_etag(at[i], "\"e\""), 0);
    }
    assert_int_equal(catalog_retain(c, every_third, NULL), 0);
    assert_int_equal(catalog_count(c), (N + 2) / 3);
    for (int i = 0; i < N; i++) {
        snprintf(key, sizeof key, "system/incremental/%d.algo-1.json", i);
        if (i % 3 == 0) {
            assert_ptr_equal(catalog_get(c, key), at[i]);
            assert_string_equal(catalog_etag(at[i]), "\"e\"");
        } else {
            assert_null(catalog_get(c, key));
        }
    }
    size_t it = 0, n = 0;
    while (catalog_next(c, &it))
        n++;
    assert_int_equal(n, (N + 2) / 3);
    assert_non_null(catalog_add(c, "system/incremental/1.algo-1.json"));
    assert_int_equal(catalog_count(c), (N + 2) / 3 + 1);
    catalog_free(c);
}

/* Removing entries one by one (the scanner forgets each file behind its
 * windows as it is read) gives the table's memory back as they go, and
 * what stays is still found, entries where they were. */
static void test_table_shrinks_as_entries_leave(void **state)
{
    (void)state;
    catalog *c = catalog_new();
    size_t empty = catalog_bytes(c);
    enum { N = 20000, KEEP = 10 };
    static cat_entry *at[N];
    char key[64];
    for (int i = 0; i < N; i++) {
        snprintf(key, sizeof key, "system/incremental/%d.algo-1.json", i);
        assert_non_null(at[i] = catalog_add(c, key));
    }
    size_t full = catalog_bytes(c);
    assert_true(full > empty + N * sizeof(cat_entry));
    for (int i = KEEP; i < N; i++)
        catalog_remove(c, at[i]);
    assert_int_equal(catalog_count(c), KEEP);
    /* KEEP entries and their keys over an empty catalog, no table of N. */
    assert_true(catalog_bytes(c) < empty + KEEP * (sizeof(cat_entry) + 64));
    for (int i = 0; i < KEEP; i++) {
        snprintf(key, sizeof key, "system/incremental/%d.algo-1.json", i);
        assert_ptr_equal(catalog_get(c, key), at[i]);
    }
    catalog_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_info_round_trip_and_shared_names),
        cmocka_unit_test(test_etag),
        cmocka_unit_test(test_table_shrinks_as_entries_leave),
        cmocka_unit_test(test_retain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
