/* Unit tests for model/util/heap_sort.h: the in-place sort agrees with the
 * stable merge sort (stable_sort.h) on random arrays with many ties, when
 * the position breaks them, and handles 0, 1 and 2 elements. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/util/heap_sort.h"
#include "model/util/stable_sort.h"

typedef struct item {
    int64_t key;
    uint32_t seq;
} item;

HEAP_SORT_DEFINE(heap_items, item, A.key < B.key || (A.key == B.key && A.seq < B.seq))
STABLE_SORT_DEFINE(merge_items, item, A.key < B.key)
HEAP_SORT_DEFINE(heap_u64, uint64_t, A < B)

static void test_matches_stable_sort(void **state)
{
    (void)state;
    srand(7);
    for (size_t n = 0; n < 300; n += 1 + n / 4) {
        item *a = malloc((n + 1) * sizeof *a), *b = malloc((n + 1) * sizeof *b),
             *tmp = malloc((n + 1) * sizeof *tmp);
        for (size_t i = 0; i < n; i++)
            a[i] = b[i] = (item){rand() % 17 - 8, (uint32_t)i};
        heap_items(a, n);
        merge_items(b, tmp, n);
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(a[i].key, b[i].key);
            assert_int_equal(a[i].seq, b[i].seq);
        }
        free(a);
        free(b);
        free(tmp);
    }
}

static void test_small_and_extremes(void **state)
{
    (void)state;
    uint64_t one[1] = {5}, two[2] = {UINT64_MAX, 0};
    heap_u64(NULL, 0);
    heap_u64(one, 1);
    assert_int_equal(one[0], 5);
    heap_u64(two, 2);
    assert_true(two[0] == 0 && two[1] == UINT64_MAX);
    uint64_t v[64];
    for (int i = 0; i < 64; i++)
        v[i] = (uint64_t)(63 - i) << 58;
    heap_u64(v, 64);
    for (int i = 1; i < 64; i++)
        assert_true(v[i - 1] <= v[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matches_stable_sort),
        cmocka_unit_test(test_small_and_extremes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
