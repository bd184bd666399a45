/* vec: vec_fit gives back a doubled array's slack and keeps its
 * elements; a later vec_grow doubles from the fitted size; an empty
 * array or one already fitted is left alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "model/util/vec.h"

static void test_fit_keeps_elements(void **state)
{
    (void)state;
    int64_t *v = NULL;
    size_t cap = 0, n = 1400;
    assert_int_equal(vec_grow(&v, &cap, n, sizeof *v, 256), 0);
    assert_int_equal(cap, 2048);
    for (size_t i = 0; i < n; i++)
        v[i] = (int64_t)(i * 7 + 1);
    vec_fit(&v, &cap, n, sizeof *v);
    assert_int_equal(cap, n);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(v[i], (int64_t)(i * 7 + 1));
    assert_int_equal(vec_grow(&v, &cap, n + 1, sizeof *v, 256), 0);
    assert_int_equal(cap, 2 * n);
    assert_int_equal(v[n - 1], (int64_t)((n - 1) * 7 + 1));
    free(v);
}

static void test_fit_leaves_alone(void **state)
{
    (void)state;
    int64_t *v = NULL;
    size_t cap = 0;
    vec_fit(&v, &cap, 0, sizeof *v);            /* nothing to fit */
    assert_null(v);
    assert_int_equal(cap, 0);
    assert_int_equal(vec_grow(&v, &cap, 16, sizeof *v, 16), 0);
    int64_t *before = v;
    vec_fit(&v, &cap, 16, sizeof *v);           /* already fitted */
    assert_ptr_equal(v, before);
    assert_int_equal(cap, 16);
    vec_fit(&v, &cap, 0, sizeof *v);            /* n 0: kept, not freed */
    assert_ptr_equal(v, before);
    assert_int_equal(cap, 16);
    free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fit_keeps_elements),
        cmocka_unit_test(test_fit_leaves_alone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
