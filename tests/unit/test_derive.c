/* Unit tests for io/job/derive: the loader's snapshot of derived products.
 * A published snapshot never changes (a later build, a rule override and
 * more data leave it as it was); a rule override is checked at once and
 * shows in the next build; nothing new gives back the same snapshot; the
 * extra product is rebuilt only when the data changed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/job/derive.h"
#include "rules_fixture.h"

/* CPU bottleneck on algo-1 from tick 1000: CPUBottleneck triggers. */
static void add_ticks(model *m, int64_t from, int64_t to)
{
    for (int64_t k = from; k < to; k++) {
        double g = k >= 1000 ? 5 : 80, mem = 20;
        fx_tick(m, "algo-1", k, 2, k >= 1000 ? 95 : 40, 1, &g, &mem);
    }
}

static const rule_result *by_name(const derived *s, const char *name)
{
    int i = rules_find(name);
    assert_true(i >= 0);
    return derived_rule_at(s, (size_t)i);
}

static void test_snapshot_is_immutable_and_override_applies(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    add_ticks(m, 0, 1200);
    deriver *dv = deriver_new(NULL, m, NULL, NULL);
    assert_non_null(dv);
    assert_true(deriver_pending(dv));            /* nothing built yet */
    derived *a = deriver_build(dv, 0);
    assert_non_null(a);
    assert_false(deriver_pending(dv));
    assert_int_equal(by_name(a, "CPUBottleneck")->status, RULE_TRIGGERED);
    int ci = rules_find("CPUBottleneck");
    double before = derived_rule_param(a, (size_t)ci, 0);

    /* nothing changed: the same snapshot again */
    derived *same = deriver_build(dv, 0);
    assert_ptr_equal(same, a);
    derived_unref(same);

    sm_err err = {0};
    assert_int_equal(deriver_rule_override(dv, "CPUBottleneck.nope=1", &err), -1);
    assert_non_null(strstr(err.msg, "no parameter 'nope'"));
    assert_int_equal(deriver_rule_override(dv, "CPUBottleneck.threshold=100", &err), 0);
    assert_true(deriver_pending(dv));
    derived *b = deriver_build(dv, 0);
    assert_true(b != a);
    assert_true(derived_generation(b) > derived_generation(a));
    assert_int_equal(by_name(b, "CPUBottleneck")->status, RULE_OK);
    assert_true(derived_rule_param(b, (size_t)ci, 0) == 100);
    /* a, held by a frame, still shows what it showed */
    assert_int_equal(by_name(a, "CPUBottleneck")->status, RULE_TRIGGERED);
    assert_true(derived_rule_param(a, (size_t)ci, 0) == before);

    /* more data: a new snapshot, the old ones untouched */
    add_ticks(m, 1200, 1300);
    derived *c = deriver_build(dv, 0);
    assert_true(c != b);
    assert_true(by_name(c, "CPUBottleneck")->datapoints >= by_name(b, "CPUBottleneck")->datapoints);
    derived_unref(a);
    derived_unref(b);
    deriver_free(dv);            /* c outlives its deriver */
    assert_int_equal(by_name(c, "CPUBottleneck")->status, RULE_OK);
    derived_unref(c);
    model_free(m);
}

static int builds;

static void *count_build(void *ud, sm_err *err)
{
    (void)err;
    builds++;
    int *p = malloc(sizeof *p);
    *p = *(int *)ud;
    return p;
}

static void test_extra_rebuilt_when_data_changed(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    add_ticks(m, 0, 100);
    deriver *dv = deriver_new(NULL, m, NULL, NULL);
    int val = 7;
    builds = 0;
    deriver_set_extra(dv, count_build, free, &val, 1000000);
    derived *a = deriver_build(dv, 10000000);
    uint64_t ga;
    const int *x = derived_extra(a, &ga);
    assert_non_null(x);
    assert_int_equal(*x, 7);
    assert_int_equal(builds, 1);
    derived *b = deriver_build(dv, 10200000);    /* no new data: not rebuilt */
    assert_int_equal(builds, 1);
    add_ticks(m, 100, 110);
    derived *c = deriver_build(dv, 10500000);    /* new data, but within min_us of a */
    assert_int_equal(builds, 1);
    derived *d = deriver_build(dv, 12000000);
    assert_int_equal(builds, 2);
    uint64_t gd;
    assert_non_null(derived_extra(d, &gd));
    assert_true(gd != ga);
    assert_string_equal(derived_extra_error(d), "");
    derived_unref(a);
    derived_unref(b);
    derived_unref(c);
    derived_unref(d);
    deriver_free(dv);
    model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_snapshot_is_immutable_and_override_applies),
        cmocka_unit_test(test_extra_rebuilt_when_data_changed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
