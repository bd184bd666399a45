/* rank_name: writers named as ranks only where their numbers are ranks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "model/view/rank_name.h"

static void test_ranks_known(void **s)
{
    (void)s;
    const char *ids[] = {"0-algo-1", "1-algo-1", "3-algo-1", "2-algo-1"};
    char buf[32];
    assert_int_equal(rank_of_writer(ids, 4, 2), 3);
    assert_string_equal(rank_name(ids, 4, 3, buf, sizeof buf), "rank 2");
}

static void test_pids_are_not_ranks(void **s)
{
    (void)s;
    const char *pids[] = {"5294-algo-1", "5295-algo-1"};
    const char *gap[] = {"0-algo-1", "2-algo-1"};
    const char *hosts[] = {"0-algo-1", "1-algo-2"};
    const char *one[] = {"0-algo-1"};
    char buf[32];
    assert_string_equal(rank_name(pids, 2, 0, buf, sizeof buf), "5294-algo-1");
    assert_int_equal(rank_of_writer(gap, 2, 0), -1);
    assert_int_equal(rank_of_writer(hosts, 2, 1), -1);
    assert_int_equal(rank_of_writer(one, 1, 0), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranks_known),
        cmocka_unit_test(test_pids_are_not_ranks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
