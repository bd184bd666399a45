/* Unit tests for model/step_breakdown: hand-computed breakdowns. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "model/model.h"
#include "model/query/step_breakdown.h"

static step_breakdown mkstep(int64_t step, int64_t start, int64_t dur)
{
    step_breakdown s = {.step = step, .start_us = start, .dur_us = dur};
    return s;
}

static void test_union_and_other(void **state)
{
    (void)state;
    step_breakdown st = mkstep(1, 0, 100);
    sb_span sp[] = {
        {80, 95, SB_COMM}, {10, 30, SB_DATA}, {0, 20, SB_DATA},   /* unsorted */
        {30, 60, SB_FORWARD}, {60, 90, SB_BACKWARD},
    };
    assert_int_equal(step_breakdown_compute(&st, 1, sp, 5), 0);
    assert_int_equal(st.cat_us[SB_DATA], 30);      /* [0,30): overlap counted once */
    assert_int_equal(st.cat_us[SB_FORWARD], 30);
    assert_int_equal(st.cat_us[SB_BACKWARD], 30);
    assert_int_equal(st.cat_us[SB_COMM], 15);      /* overlaps backward */
    assert_int_equal(st.other_us, 5);              /* [95,100) */
}

static void test_clipping(void **state)
{
    (void)state;
    step_breakdown st = mkstep(2, 100, 100);
    sb_span sp[] = {
        {0, 50, SB_DATA},        /* before the step */
        {50, 120, SB_DATA},      /* 20 inside */
        {190, 260, SB_FORWARD},  /* 10 inside */
        {200, 300, SB_BACKWARD}, /* starts at the end: outside */
    };
    assert_int_equal(step_breakdown_compute(&st, 1, sp, 4), 0);
    assert_int_equal(st.cat_us[SB_DATA], 20);
    assert_int_equal(st.cat_us[SB_FORWARD], 10);
    assert_int_equal(st.cat_us[SB_BACKWARD], 0);
    assert_int_equal(st.other_us, 70);
}

static void test_long_span_and_full_cover(void **state)
{
    (void)state;
    step_breakdown st[2] = {mkstep(1, 500, 100), mkstep(0, 0, 10)};
    sb_span sp[] = {{0, 1000, SB_COMM}, {505, 506, SB_DATA}};
    assert_int_equal(step_breakdown_compute(st, 2, sp, 2), 0);
    assert_int_equal(st[0].cat_us[SB_COMM], 100);
    assert_int_equal(st[0].cat_us[SB_DATA], 1);
    assert_int_equal(st[0].other_us, 0);           /* never negative */
    assert_int_equal(st[1].cat_us[SB_COMM], 10);
    assert_int_equal(st[1].other_us, 0);
    step_breakdown empty = mkstep(3, 0, 40);
    assert_int_equal(step_breakdown_compute(&empty, 1, NULL, 0), 0);
    assert_int_equal(empty.other_us, 40);
}

static void test_categories(void **state)
{
    (void)state;
    assert_int_equal(step_breakdown_category("HorovodAllreduce_grad_0", PHASE_OTHER), SB_COMM);
    assert_int_equal(step_breakdown_category("mpi_broadcast", PHASE_OTHER), SB_COMM);
    assert_int_equal(step_breakdown_category("NCCL_ALLGATHER", PHASE_OTHER), SB_COMM);
    assert_int_equal(step_breakdown_category("cpu_functions", PHASE_OTHER), -1);
    assert_int_equal(step_breakdown_category("Step:ModeKeys.TRAIN", PHASE_STEP), -1);
    /* workers prefetch in parallel: the step waits only in GetNext */
    assert_int_equal(step_breakdown_category("DataLoaderIter::GetNext", PHASE_DATALOADER), SB_DATA);
    assert_int_equal(step_breakdown_category("DataLoaderWorker", PHASE_DATALOADER), -1);
    assert_int_equal(step_breakdown_category("DataIterator", PHASE_DATALOADER), SB_DATA);
    assert_int_equal(step_breakdown_category("Forward", PHASE_FORWARD), SB_FORWARD);
    assert_int_equal(step_breakdown_category("Backward(post-forward)", PHASE_BACKWARD),
                     SB_BACKWARD);
    assert_string_equal(step_breakdown_cat_name(SB_COMM), "comm");
}

static void add(model *m, const char *phase, const char *name, int64_t start,
                int64_t dur, int64_t step)
{
    sm_event e = {.node = sm_str_c("algo-1"), .phase = sm_str_c(phase),
                  .name = sm_str_c(name), .start_us = start, .dur_us = dur,
                  .step = step};
    assert_int_equal(model_add_event(m, &e), 0);
}

static void test_from_model(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    const int64_t T = 1600000000000000;
    add(m, "Step:ModeKeys.TRAIN", "Step", T, 100, 1);
    add(m, "Step:ModeKeys.TRAIN", "Step", T + 100, 150, 2);
    add(m, "Step:ModeKeys.EVAL", "Step", T + 400, 50, 1);
    add(m, "DataIterator", "DataIterator", T, 20, 1);
    add(m, "Forward", "f", T + 20, 40, 1);
    add(m, "Backward(post-forward)", "b", T + 60, 30, 1);
    add(m, "HorovodAllreduce_grads", "", T + 70, 25, -1);
    add(m, "cpu_functions", "x", T + 100, 150, -1);    /* not a category */
    add(m, "DataIterator", "DataIterator", T + 100, 50, 2);
    add(m, "Forward", "f", T + 150, 60, 2);
    const model_node *n = model_find_node(m, "algo-1");
    step_breakdown out[4];
    assert_int_equal(step_breakdown_node(n, NULL, out, 4), 2);
    assert_int_equal(out[0].step, 1);
    assert_int_equal(out[0].cat_us[SB_DATA], 20);
    assert_int_equal(out[0].cat_us[SB_FORWARD], 40);
    assert_int_equal(out[0].cat_us[SB_BACKWARD], 30);
    assert_int_equal(out[0].cat_us[SB_COMM], 25);
    assert_int_equal(out[0].other_us, 5);          /* 100 - [0,95) */
    assert_int_equal(out[1].step, 2);
    assert_int_equal(out[1].cat_us[SB_DATA], 50);
    assert_int_equal(out[1].cat_us[SB_FORWARD], 60);
    assert_int_equal(out[1].other_us, 40);
    assert_int_equal(step_breakdown_node(n, NULL, out, 1), 1);   /* most recent */
    assert_int_equal(out[0].step, 2);
    /* From a retained index: the Timeline scrolls back to the oldest. */
    const phase_stats *sp = step_breakdown_phase(n, NULL);
    assert_int_equal(phase_stats_recent_count(sp), 2);
    assert_int_equal(phase_stats_recent_upto(sp, T + 99), 1);
    assert_int_equal(phase_stats_recent_upto(sp, T + 100), 2);
    assert_int_equal(step_breakdown_node_from(n, NULL, 0, out, 1), 1);
    assert_int_equal(out[0].step, 1);
    assert_int_equal(out[0].cat_us[SB_DATA], 20);   /* its own breakdown */
    assert_int_equal(step_breakdown_node_from(n, NULL, 1, out, 4), 1);
    assert_int_equal(out[0].step, 2);
    assert_int_equal(step_breakdown_node_from(n, NULL, 2, out, 4), 0);
    assert_int_equal(step_breakdown_node(n, "Step:ModeKeys.EVAL", out, 4), 1);
    assert_int_equal(out[0].other_us, 50);
    assert_int_equal(step_breakdown_node(n, "Step:nope", out, 4), 0);
    model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_union_and_other),
        cmocka_unit_test(test_clipping),
        cmocka_unit_test(test_long_span_and_full_cover),
        cmocka_unit_test(test_categories),
        cmocka_unit_test(test_from_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
