/* Unit tests for model/view/viewsnap: the loader's snapshot of derived products.
 * A published snapshot never changes (a later build, a rule override and
 * more data leave it as it was); a rule override is checked at once and
 * shows in the next build; nothing new gives back the same snapshot; the
 * extra product is rebuilt only when the data changed; a Python request
 * that picks the same windows as the last merge is answered by it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/view/viewbuild.h"
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

static const rule_result *by_name(const viewsnap *s, const char *name)
{
    int i = rules_find(name);
    assert_true(i >= 0);
    return viewsnap_rule_at(s, (size_t)i);
}

static void test_snapshot_is_immutable_and_override_applies(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    add_ticks(m, 0, 1200);
    viewbuild *dv = viewbuild_new(NULL, m, NULL, NULL);
    assert_non_null(dv);
    assert_true(viewbuild_pending(dv));            /* nothing built yet */
    viewsnap *a = viewbuild_build(dv, 0);
    assert_non_null(a);
    assert_false(viewbuild_pending(dv));
    assert_int_equal(by_name(a, "CPUBottleneck")->status, RULE_TRIGGERED);
    int ci = rules_find("CPUBottleneck");
    double before = viewsnap_rule_param(a, (size_t)ci, 0);

    /* nothing changed: the same snapshot again */
    viewsnap *same = viewbuild_build(dv, 0);
    assert_ptr_equal(same, a);
    viewsnap_unref(same);

    sm_err err = {0};
    assert_int_equal(viewbuild_rule_override(dv, "CPUBottleneck.nope=1", &err), -1);
    assert_non_null(strstr(err.msg, "no parameter 'nope'"));
    assert_int_equal(viewbuild_rule_override(dv, "CPUBottleneck.threshold=100", &err), 0);
    assert_true(viewbuild_pending(dv));
    viewsnap *b = viewbuild_build(dv, 0);
    assert_true(b != a);
    assert_true(viewsnap_generation(b) > viewsnap_generation(a));
    assert_int_equal(by_name(b, "CPUBottleneck")->status, RULE_OK);
    assert_true(viewsnap_rule_param(b, (size_t)ci, 0) == 100);
    /* a, held by a frame, still shows what it showed */
    assert_int_equal(by_name(a, "CPUBottleneck")->status, RULE_TRIGGERED);
    assert_true(viewsnap_rule_param(a, (size_t)ci, 0) == before);

    /* more data: a new snapshot, the old ones untouched */
    add_ticks(m, 1200, 1300);
    viewsnap *c = viewbuild_build(dv, 0);
    assert_true(c != b);
    assert_true(by_name(c, "CPUBottleneck")->datapoints >= by_name(b, "CPUBottleneck")->datapoints);
    viewsnap_unref(a);
    viewsnap_unref(b);
    viewbuild_free(dv);            /* c outlives its viewbuild */
    assert_int_equal(by_name(c, "CPUBottleneck")->status, RULE_OK);
    viewsnap_unref(c);
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
    viewbuild *dv = viewbuild_new(NULL, m, NULL, NULL);
    int val = 7;
    builds = 0;
    viewbuild_set_extra(dv, count_build, free, &val, 1000000);
    viewsnap *a = viewbuild_build(dv, 10000000);
    uint64_t ga;
    const int *x = viewsnap_extra(a, &ga);
    assert_non_null(x);
    assert_int_equal(*x, 7);
    assert_int_equal(builds, 1);
    viewsnap *b = viewbuild_build(dv, 10200000);    /* no new data: not rebuilt */
    assert_int_equal(builds, 1);
    add_ticks(m, 100, 110);
    viewsnap *c = viewbuild_build(dv, 10500000);    /* new data, but within min_us of a */
    assert_int_equal(builds, 1);
    viewsnap *d = viewbuild_build(dv, 12000000);
    assert_int_equal(builds, 2);
    uint64_t gd;
    assert_non_null(viewsnap_extra(d, &gd));
    assert_true(gd != ga);
    assert_string_equal(viewsnap_extra_error(d), "");
    viewsnap_unref(a);
    viewsnap_unref(b);
    viewsnap_unref(c);
    viewsnap_unref(d);
    viewbuild_free(dv);
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
    viewbuild *dv = viewbuild_new(NULL, m, st, NULL);
    assert_non_null(dv);
    pystats_select sel;
    memset(&sel, 0, sizeof sel);
    sel.t_lo_us = T + 8000000;
    sel.t_hi_us = T + 10000000;
    viewbuild_want_python(dv, &sel, PYSORT_TOTTIME, 1);
    viewsnap *a = viewbuild_build(dv, 0);
    uint64_t key = 0;
    const pystats_result *ra = viewsnap_python(a, &key);
    assert_non_null(ra);
    assert_int_equal(key, 1);
    assert_int_equal(pystats_result_window_count(ra), 1);
    assert_string_equal(pystats_result_at(ra, 0)->name, "late");

    sel.t_lo_us += 500000;           /* slid, still only "late" */
    sel.t_hi_us += 500000;
    viewbuild_want_python(dv, &sel, PYSORT_TOTTIME, 2);
    assert_true(viewbuild_pending(dv));
    viewsnap *b = viewbuild_build(dv, 0);
    assert_false(viewbuild_pending(dv));
    assert_ptr_equal(viewsnap_python(b, NULL), ra);   /* the same merge */

    sel.t_lo_us = T;                 /* now both windows */
    viewbuild_want_python(dv, &sel, PYSORT_TOTTIME, 3);
    viewsnap *c = viewbuild_build(dv, 0);
    const pystats_result *rc = viewsnap_python(c, &key);
    assert_non_null(rc);
    assert_true(rc != ra);
    assert_int_equal(key, 3);
    assert_int_equal(pystats_result_window_count(rc), 2);

    viewsnap_unref(a);
    viewsnap_unref(b);
    viewsnap_unref(c);
    viewbuild_free(dv);
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
    viewbuild *dv = viewbuild_new(NULL, m, st, NULL);
    assert_non_null(dv);
    viewbuild_set_place(dv, "/jobs/x/profiler-output");
    viewsnap *s = viewbuild_build(dv, 0);
    assert_non_null(s);
    size_t i = (size_t)rules_find("StepOutlier");
    const rule_result *res = viewsnap_rule_at(s, i);
    assert_int_equal(res->status, RULE_TRIGGERED);
    phase_event ev;
    assert_true(viewsnap_rule_step(s, i, &ev));
    assert_int_equal(ev.start_us, res->t0_us);
    assert_int_equal(ev.dur_us, 1000000);
    assert_int_equal(ev.step % 10, 5);
    assert_false(viewsnap_rule_step(s, (size_t)rules_find("CPUBottleneck"), &ev));
    assert_int_equal(viewsnap_python_window_count(s), 2);
    int failed = -1;
    const pystats_window *w = viewsnap_python_window_at(s, 1, &failed);
    assert_non_null(w);
    assert_int_equal(w->start_us, T + 9000000);
    assert_int_equal(failed, 0);
    assert_null(viewsnap_python_window_at(s, 2, NULL));
    assert_string_equal(viewsnap_place(s), "/jobs/x/profiler-output");
    viewsnap_unref(s);
    viewbuild_free(dv);
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
