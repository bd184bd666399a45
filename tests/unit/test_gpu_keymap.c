/* Unit tests for the window pass's key map (gpu_keymap, model/gpu/
 * gpu_impl.h): a map taken small on a scratch buffer and doubled in
 * place as keys come keeps every key's index, counts each key once, and
 * stays at most half full; a sum's map starts small however many its
 * rows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "model/gpu/gpu_impl.h"
#include "model/util/scratch.h"

/* n puts of keys drawn from `keys` distinct ones, starting with room for
 * start keys (sums: a sum's map for start rows): each put answers the
 * index the key's first put was given. */
static void check_keys(size_t n, uint64_t keys, size_t start, int sums)
{
    scratch *s = scratch_new();
    assert_non_null(s);
    uint64_t *first = calloc(keys, sizeof *first);   /* index + 1, 0 unseen */
    assert_non_null(first);
    gpu_keymap m;
    assert_int_equal(sums ? gpu_keymap_take_sums(&m, s, 3, start)
                          : gpu_keymap_take(&m, s, 3, start), 0);
    /* a sum's map starts small, whatever its row count */
    assert_true(!sums || m.cap <= 2048);
    uint64_t x = 88172645463325252ULL;
    size_t next = 0;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        uint64_t k = x % keys;
        /* keys far apart in the high word too, as (table, name) are */
        uint64_t key = (k % 7) << 32 | k;
        assert_int_equal(gpu_keymap_room(&m), 0);
        size_t at = gpu_keymap_put(&m, key, next);
        if (!first[k]) {
            assert_int_equal(at, next);
            first[k] = ++next;
        } else {
            assert_int_equal(at, first[k] - 1);
        }
        assert_true(2 * m.len <= m.cap);
    }
    assert_int_equal(m.len, next);
    free(first);
    scratch_free(s);
}

static void test_grows_from_small(void **state)
{
    (void)state;
    check_keys(200000, 50000, 4, 0);
}

/* A sum of a million rows: its map starts small, grows as names come. */
static void test_sums_start_small(void **state)
{
    (void)state;
    check_keys(10000, 100, 1000000, 1);
    check_keys(200000, 30000, 1000000, 1);
}

static void test_room_at_the_edge(void **state)
{
    (void)state;
    /* every count of keys around a doubling */
    for (uint64_t keys = 1; keys < 80; keys++)
        check_keys(400, keys, 1, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grows_from_small),
        cmocka_unit_test(test_sums_start_small),
        cmocka_unit_test(test_room_at_the_edge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
