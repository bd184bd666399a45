/* Unit tests for model/view/viewsnap: the loader's snapshot of derived products.
 * A published snapshot never changes (a later build, a rule override and
 * more data leave it as it was); a rule override is checked at once and
 * shows in the next build; nothing new gives back the same snapshot; the
 * extra product is rebuilt only when the data changed; a Python request
 * that picks the same windows as the last merge is answered by it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/view/viewsnap.h"
#include "model/pystats/pystats.h"
#include "model/records.h"
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

static void put_window(pystats_store *st, int64_t t0, int64_t t1, const char *func)
{
    pystats_window info;
    memset(&info, 0, sizeof info);
    snprintf(info.node, sizeof info.node, "algo-1");
    info.profiler = PYPROF_CPROFILE;
    info.start_mode = info.end_mode = PYMODE_TRAIN;
    info.start_us = t0;
    info.end_us = t1;
    pystats_win *w = pystats_win_new(st, &info);
    assert_non_null(w);
    pystats_func_rec f;
    memset(&f, 0, sizeof f);
    f.file = sm_str_c("train.py");
    f.line = 1;
    f.name = sm_str_c(func);
    f.c.ncalls = f.c.pcalls = 1;
    assert_int_equal(pystats_win_add(w, &f), 0);
    char key[64];
    snprintf(key, sizeof key, "algo-1/%lld", (long long)t0);
    assert_int_equal(pystats_store_put(st, key, w), 0);
}

/* A live time window slides with every sample: while it overlaps the same
 * stats windows, the loader answers with the merge it has (no new merge);
 * once it takes in another window, it merges again. */
static void test_python_merge_kept_while_the_same_windows_are_picked(void **state)
{
    (void)state;
    const int64_t T = 1600000000000000LL;
    model *m = model_new(NULL);
    add_ticks(m, 0, 10);
    pystats_store *st = pystats_store_new();
    assert_non_null(st);
    put_window(st, T, T + 1000000, "early");
    put_window(st, T + 9000000, T + 9500000, "late");
    deriver *dv = deriver_new(NULL, m, st, NULL);
    assert_non_null(dv);
    pystats_select sel;
    memset(&sel, 0, sizeof sel);
    sel.t_lo_us = T + 8000000;
    sel.t_hi_us = T + 10000000;
    deriver_want_python(dv, &sel, PYSORT_TOTTIME, 1);
    derived *a = deriver_build(dv, 0);
    uint64_t key = 0;
    const pystats_result *ra = derived_python(a, &key);
    assert_non_null(ra);
    assert_int_equal(key, 1);
    assert_int_equal(pystats_result_window_count(ra), 1);
    assert_string_equal(pystats_result_at(ra, 0)->name, "late");

    sel.t_lo_us += 500000;           /* slid, still only "late" */
    sel.t_hi_us += 500000;
    deriver_want_python(dv, &sel, PYSORT_TOTTIME, 2);
    assert_true(deriver_pending(dv));
    derived *b = deriver_build(dv, 0);
    assert_false(deriver_pending(dv));
    assert_ptr_equal(derived_python(b, NULL), ra);   /* the same merge */

    sel.t_lo_us = T;                 /* now both windows */
    deriver_want_python(dv, &sel, PYSORT_TOTTIME, 3);
    derived *c = deriver_build(dv, 0);
    const pystats_result *rc = derived_python(c, &key);
    assert_non_null(rc);
    assert_true(rc != ra);
    assert_int_equal(key, 3);
    assert_int_equal(pystats_result_window_count(rc), 2);

    derived_unref(a);
    derived_unref(b);
    derived_unref(c);
    deriver_free(dv);
    pystats_store_free(st);
    model_free(m);
}

/* What keys need travels in the snapshot, so the UI never reads the
 * model or the Python store: the step a StepOutlier's span is (J), the
 * Python windows (the pane's menu) and the job's name (the header). */
static void test_snapshot_carries_what_keys_need(void **state)
{
    (void)state;
    const int64_t T = 1600000000000000LL;
    model *m = model_new(NULL);
    int64_t t = T;
    for (int s = 0; s < 200; s++) {   /* 12 steps of 1 s among 100 ms ones */
        int64_t dur = s % 10 == 5 && s / 10 < 12 ? 1000000 : 100000;
        fx_event(m, "algo-1", "Step:ModeKeys.TRAIN", "Step", s, t, dur, 1);
        t += dur + 1000;
    }
    pystats_store *st = pystats_store_new();
    assert_non_null(st);
    put_window(st, T, T + 1000000, "early");
    put_window(st, T + 9000000, T + 9500000, "late");
    deriver *dv = deriver_new(NULL, m, st, NULL);
    assert_non_null(dv);
    deriver_set_place(dv, "/jobs/x/profiler-output");
    derived *s = deriver_build(dv, 0);
    assert_non_null(s);
    size_t i = (size_t)rules_find("StepOutlier");
    const rule_result *res = derived_rule_at(s, i);
    assert_int_equal(res->status, RULE_TRIGGERED);
    phase_event ev;
    assert_true(derived_rule_step(s, i, &ev));
    assert_int_equal(ev.start_us, res->t0_us);
    assert_int_equal(ev.dur_us, 1000000);
    assert_int_equal(ev.step % 10, 5);
    assert_false(derived_rule_step(s, (size_t)rules_find("CPUBottleneck"), &ev));
    assert_int_equal(derived_python_window_count(s), 2);
    int failed = -1;
    const pystats_window *w = derived_python_window_at(s, 1, &failed);
    assert_non_null(w);
    assert_int_equal(w->start_us, T + 9000000);
    assert_int_equal(failed, 0);
    assert_null(derived_python_window_at(s, 2, NULL));
    assert_string_equal(derived_place(s), "/jobs/x/profiler-output");
    derived_unref(s);
    deriver_free(dv);
    pystats_store_free(st);
    model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_snapshot_is_immutable_and_override_applies),
        cmocka_unit_test(test_extra_rebuilt_when_data_changed),
        cmocka_unit_test(test_python_merge_kept_while_the_same_windows_are_picked),
        cmocka_unit_test(test_snapshot_carries_what_keys_need),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
