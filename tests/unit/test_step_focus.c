/* step_focus: the window of step N on every node, an alert's span turned
 * back into its step, and the millisecond clock of the focused window. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "model/model.h"
#include "model/query/step_event.h"
#include "tui/text/step_focus.h"

#define T0 1600000000000000LL
#define TRAIN "Step:ModeKeys.TRAIN"

static void add(model *m, const char *node, const char *phase, int64_t start,
                int64_t dur, int64_t step)
{
    sm_event e = {.node = sm_str_c(node), .phase = sm_str_c(phase),
                  .name = sm_str_c(phase), .start_us = start, .dur_us = dur,
                  .step = step};
    assert_int_equal(model_add_event(m, &e), 0);
}

/* Two nodes, steps 1..3 every 100 ms; algo-2 runs 30 ms late and its
 * step 2 is slow. EVAL steps reuse the numbers and must not mix in. */
static model *make_job(void)
{
    model *m = model_new(NULL);
    assert_non_null(m);
    for (int s = 1; s <= 3; s++) {
        add(m, "algo-1", TRAIN, T0 + s * 100000, 90000, s);
        add(m, "algo-2", TRAIN, T0 + s * 100000 + 30000, s == 2 ? 250000 : 90000, s);
        add(m, "algo-1", "Step:ModeKeys.EVAL", T0 + 9000000 + s * 1000, 500, s);
    }
    add(m, "algo-1", "DataIterator", T0 + 100000, 5000, -1);
    return m;
}

static void test_find_event_of_alert_span(void **state)
{
    (void)state;
    model *m = make_job();
    phase_event ev;
    assert_true(step_event_find(m, "algo-2", TRAIN, T0 + 230000, &ev));
    assert_int_equal(ev.step, 2);
    assert_int_equal(ev.dur_us, 250000);
    assert_false(step_event_find(m, "algo-2", TRAIN, T0 + 230001, &ev));
    assert_false(step_event_find(m, "algo-9", TRAIN, T0 + 230000, &ev));
    assert_false(step_event_find(m, "algo-2", "Forward", T0 + 230000, &ev));
    assert_false(step_event_find(m, NULL, TRAIN, T0 + 230000, &ev));
    model_free(m);
}

static void test_clock_has_milliseconds(void **state)
{
    (void)state;
    setenv("TZ", "UTC", 1);
    tzset();
    char buf[32];
    /* 1600000000 = 2020-09-13 12:26:40 UTC */
    assert_string_equal(step_focus_clock(buf, sizeof buf, T0 + 120999), "12:26:40.120");
    assert_string_equal(step_focus_clock(buf, sizeof buf, T0 + 1000000), "12:26:41.000");
    assert_string_equal(step_focus_clock(buf, sizeof buf, -1), "23:59:59.999");
    char small[6];
    step_focus_clock(small, sizeof small, T0);             /* truncates, terminated */
    assert_string_equal(small, "12:26");
    assert_ptr_equal(step_focus_clock(buf, 0, T0), buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_find_event_of_alert_span),
        cmocka_unit_test(test_clock_has_milliseconds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
