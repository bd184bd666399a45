/* scratch: a slot hands back the same buffer while it is large enough
 * (the point: a window's pass does not allocate again), grows when asked
 * for more, keeps its contents through scratch_grow, and refuses a slot
 * number out of range; slots are apart from each other. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/util/scratch.h"

static void test_take_reuses(void **state)
{
    (void)state;
    scratch *s = scratch_new();
    assert_non_null(s);
    unsigned char *a = scratch_take(s, 3, 1000);
    assert_non_null(a);
    memset(a, 0xab, 1000);
    assert_ptr_equal(scratch_take(s, 3, 10), a);     /* smaller: the same one */
    assert_ptr_equal(scratch_take(s, 3, 1000), a);
    unsigned char *b = scratch_take(s, 4, 1000);     /* another slot: apart */
    assert_non_null(b);
    assert_ptr_not_equal(b, a);
    memset(b, 0, 1000);
    assert_int_equal(a[999], 0xab);
    unsigned char *c = scratch_take(s, 3, 100000);   /* larger: grows */
    assert_non_null(c);
    memset(c, 1, 100000);
    assert_non_null(scratch_take(s, 0, 0));          /* empty: still a buffer */
    assert_null(scratch_take(s, SCRATCH_SLOTS, 8));
    scratch_free(s);
    scratch_free(NULL);
}

static void test_grow_keeps(void **state)
{
    (void)state;
    scratch *s = scratch_new();
    assert_non_null(s);
    int64_t *v = scratch_grow(s, 7, 256 * sizeof *v);
    assert_non_null(v);
    for (int64_t i = 0; i < 256; i++)
        v[i] = i * 3 + 1;
    for (size_t n = 512; n <= 1u << 20; n *= 2) {
        v = scratch_grow(s, 7, n * sizeof *v);
        assert_non_null(v);
        for (int64_t i = 0; i < 256; i++)
            assert_int_equal(v[i], i * 3 + 1);
    }
    assert_null(scratch_grow(s, SCRATCH_SLOTS + 1, 8));
    scratch_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_take_reuses),
        cmocka_unit_test(test_grow_keeps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
