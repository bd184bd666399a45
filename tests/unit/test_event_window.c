/* Unit tests for model/event_window: which retained events fall into a
 * window, the name filter, both orders, and worker concurrency. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "model/query/event_window.h"
#include "model/model.h"

static const int64_t T = 1600000000000000;

static void add(model *m, const char *node, const char *phase, const char *name,
               int64_t start, int64_t dur, int64_t step)
{
    sm_event e = {.node = sm_str_c(node), .phase = sm_str_c(phase),
                  .name = sm_str_c(name), .start_us = T + start, .dur_us = dur,
                  .step = step};
    assert_int_equal(model_add_event(m, &e), 0);
}

/* algo-1: two steps with their phases; algo-2: one event that must never
 * show up in algo-1's window. */
static model *fixture(void)
{
    model *m = model_new(NULL);
    assert_non_null(m);
    add(m, "algo-1", "Step:ModeKeys.TRAIN", "Step", 0, 100, 1);
    add(m, "algo-1", "DataIterator", "dataset::GetNext", 0, 20, -1);
    add(m, "algo-1", "Forward", "f", 20, 40, 1);
    add(m, "algo-1", "Backward(post-forward)", "b", 60, 30, 1);
    add(m, "algo-1", "Step:ModeKeys.TRAIN", "Step", 100, 150, 2);
    add(m, "algo-1", "DataIterator", "dataset::GetNext", 100, 50, -1);
    add(m, "algo-1", "Forward", "f", 150, 60, 2);
    add(m, "algo-2", "Forward", "f", 10, 5, 1);
    return m;
}

static void test_window_bounds(void **state)
{
    (void)state;
    model *m = fixture();
    const model_node *n = model_find_node(m, "algo-1");
    /* [T+90, T+150): overlaps step 1 (ends 100), backward (ends 90: no),
     * step 2, the second GetNext; forward 2 starts at 150: outside. */
    event_window *w = event_window_query(n, T + 90, T + 150, NULL);
    assert_non_null(w);
    assert_int_equal(event_window_count(w), 3);
    const ew_event *e = event_window_at(w, 0);
    assert_int_equal(e->start_us, T);
    assert_string_equal(e->label, "Step:ModeKeys.TRAIN");
    assert_int_equal(e->step, 1);
    e = event_window_at(w, 1);            /* same start: ordered by label */
    assert_int_equal(e->start_us, T + 100);
    assert_string_equal(e->label, "Step:ModeKeys.TRAIN");
    e = event_window_at(w, 2);
    assert_string_equal(e->label, "dataset::GetNext");
    assert_int_equal(e->kind, PHASE_DATALOADER);
    assert_int_equal(e->dur_us, 50);
    assert_null(event_window_at(w, 3));
    event_window_free(w);

    w = event_window_query(n, T, T + 1000, NULL);   /* everything of algo-1 */
    assert_int_equal(event_window_count(w), 7);
    event_window_free(w);
    w = event_window_query(n, T + 1000, T + 2000, NULL);   /* after the job */
    assert_int_equal(event_window_count(w), 0);
    assert_null(event_window_at(w, 0));
    event_window_sort(w, EW_BY_DURATION);   /* empty: no UB, no change */
    assert_int_equal(event_window_max_concurrency(w), 0);
    event_window_free(w);
    model_free(m);
}

static void test_filter_and_duration_order(void **state)
{
    (void)state;
    model *m = fixture();
    const model_node *n = model_find_node(m, "algo-1");
    event_window *w = event_window_query(n, T, T + 1000, "getnext");   /* any case */
    assert_int_equal(event_window_count(w), 2);
    for (size_t i = 0; i < 2; i++)
        assert_string_equal(event_window_at(w, i)->label, "dataset::GetNext");
    event_window_free(w);
    w = event_window_query(n, T, T + 1000, "nothing-like-this");
    assert_int_equal(event_window_count(w), 0);
    event_window_free(w);

    w = event_window_query(n, T, T + 1000, "");
    event_window_sort(w, EW_BY_DURATION);
    const int64_t want[] = {150, 100, 60, 50, 40, 30, 20};
    for (size_t i = 0; i < 7; i++)
        assert_int_equal(event_window_at(w, i)->dur_us, want[i]);
    event_window_sort(w, EW_BY_START);
    assert_int_equal(event_window_at(w, 0)->start_us, T);
    assert_int_equal(event_window_at(w, 6)->start_us, T + 150);
    event_window_free(w);
    model_free(m);
}

static void test_empty_inputs(void **state)
{
    (void)state;
    event_window *w = event_window_query(NULL, T, T + 10, NULL);
    assert_non_null(w);
    assert_int_equal(event_window_count(w), 0);
    event_window_free(w);
    model *m = fixture();
    w = event_window_query(model_find_node(m, "algo-1"), T + 10, T + 10, NULL);
    assert_int_equal(event_window_count(w), 0);   /* empty window */
    event_window_free(w);
    event_window_free(NULL);
    assert_int_equal(event_window_count(NULL), 0);
    model_free(m);
}

static void test_concurrency(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    /* Three workers: [0,100) [50,150) [60,70) overlap at 60..70; [150,200)
     * starts where the second ends (not parallel). */
    add(m, "algo-1", "DataIterator", "DataLoaderWorker", 0, 100, -1);
    add(m, "algo-1", "DataIterator", "DataLoaderWorker", 50, 100, -1);
    add(m, "algo-1", "DataIterator", "DataLoaderWorker", 60, 10, -1);
    add(m, "algo-1", "DataIterator", "DataLoaderWorker", 150, 50, -1);
    event_window *w = event_window_query(model_find_node(m, "algo-1"), T, T + 1000,
                                         "DataLoaderWorker");
    assert_int_equal(event_window_count(w), 4);
    assert_int_equal(event_window_max_concurrency(w), 3);
    event_window_free(w);
    w = event_window_query(model_find_node(m, "algo-1"), T + 120, T + 1000, NULL);
    assert_int_equal(event_window_count(w), 2);
    assert_int_equal(event_window_max_concurrency(w), 1);
    event_window_free(w);
    model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_window_bounds),
        cmocka_unit_test(test_filter_and_duration_order),
        cmocka_unit_test(test_empty_inputs),
        cmocka_unit_test(test_concurrency),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
