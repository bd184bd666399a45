/* trace_carry: B/E pairs split across the files of one writer (a rotation
 * at an hour boundary or at 10 MB) are paired, whichever file is decoded
 * first, and never across writers, trace kinds, threads or backwards in
 * time. Each case runs the hand-written line reader and the jansson
 * reference side by side, each with its own carry. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "io/decode/trace_carry.h"
#include "io/decode/trace_decode.h"
#include "trace_evlog.h"

#define BASE 1000000000LL

/* A job: fast and reference decoding, each with its own carry and log. */
typedef struct job {
    trace_carry *c[2];
    evlog log[2];
} job;

static void job_init(job *j)
{
    memset(j, 0, sizeof *j);
    for (int k = 0; k < 2; k++)
        assert_non_null(j->c[k] = trace_carry_new());
}

static void job_free(job *j)
{
    for (int k = 0; k < 2; k++)
        trace_carry_free(j->c[k]);
}

#define META "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"args\":" \
             "{\"start_time_since_epoch_in_micros\":1000000000}}"
#define NAME(pid, n) "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" #pid \
                     ",\"args\":{\"name\":\"" n "\"}}"

/* Decodes one whole file (NULL-terminated lines) of writer `process`. */
static void file(job *j, const char *process, int kind, const char *const *lines)
{
    for (int k = 0; k < 2; k++) {
        trace_dec *d = trace_decode_new("algo-1");
        assert_non_null(d);
        assert_int_equal(trace_decode_set_writer(d, process, j->c[k], kind), 0);
        trace_decode_set_reference(d, k);
        for (size_t i = 0; lines[i]; i++)
            assert_int_equal(trace_decode_line(d, lines[i], strlen(lines[i]), sink, &j->log[k]), 0);
        trace_decode_close_file(d, sink, &j->log[k]);
        trace_decode_free(d);
    }
    assert_int_equal(j->log[0].n, j->log[1].n);
    assert_memory_equal(j->log[0].ev, j->log[1].ev, sizeof(ev_copy) * (size_t)j->log[0].n);
    assert_int_equal(trace_carry_waiting_b(j->c[0]), trace_carry_waiting_b(j->c[1]));
    assert_int_equal(trace_carry_waiting_e(j->c[0]), trace_carry_waiting_e(j->c[1]));
}

/* Rotation between a B and its E: the file written first holds the B. */
static const char *const f1[] = {
    "[", META, NAME(1, "Step:ModeKeys.TRAIN"),
    "{\"name\":\"Step:ModeKeys.TRAIN\",\"ph\":\"B\",\"pid\":1,\"tid\":7,\"ts\":100,"
    "\"args\":{\"step_num\":\"3\"}},",
    "{\"name\":\"x\",\"ph\":\"X\",\"pid\":1,\"tid\":7,\"ts\":110,\"dur\":5}",
    "]", NULL};
static const char *const f2[] = {
    "[", META, NAME(1, "Step:ModeKeys.TRAIN"),
    "{\"ph\":\"E\",\"pid\":1,\"tid\":7,\"ts\":400}",
    "]", NULL};

static void expect_step(const ev_copy *e)
{
    assert_string_equal(e->name, "Step:ModeKeys.TRAIN");
    assert_string_equal(e->phase, "Step:ModeKeys.TRAIN");
    assert_string_equal(e->process, "4-algo-1");
    assert_string_equal(e->node, "algo-1");
    assert_int_equal(e->start, BASE + 100);
    assert_int_equal(e->dur, 300);
    assert_int_equal(e->step, 3);
    assert_int_equal(e->tid, 7);
}

static void test_in_order(void **state)
{
    (void)state;
    job j;
    job_init(&j);
    file(&j, "4-algo-1", 0, f1);
    assert_int_equal(j.log[0].n, 1);             /* the X */
    assert_int_equal(trace_carry_waiting_b(j.c[0]), 1);
    file(&j, "4-algo-1", 0, f2);
    assert_int_equal(j.log[0].n, 2);
    expect_step(&j.log[0].ev[1]);
    assert_int_equal(trace_carry_waiting_b(j.c[0]) + trace_carry_waiting_e(j.c[0]), 0);
    job_free(&j);
}

/* Newest first, as the scanner reads: the E waits for its B. */
static void test_newest_first(void **state)
{
    (void)state;
    job j;
    job_init(&j);
    file(&j, "4-algo-1", 0, f2);
    assert_int_equal(j.log[0].n, 0);
    assert_int_equal(trace_carry_waiting_e(j.c[0]), 1);
    file(&j, "4-algo-1", 0, f1);
    assert_int_equal(j.log[0].n, 2);
    expect_step(&j.log[0].ev[1]);
    assert_int_equal(trace_carry_waiting_b(j.c[0]) + trace_carry_waiting_e(j.c[0]), 0);
    job_free(&j);
}

/* Two open B's nest across the boundary, and a third file in between
 * holds nothing of them (an event longer than a rotation period). */
static void test_nested_over_three_files(void **state)
{
    (void)state;
    static const char *const a[] = {
        META, NAME(2, "Forward"),
        "{\"name\":\"outer\",\"ph\":\"B\",\"pid\":2,\"ts\":10},",
        "{\"name\":\"inner\",\"ph\":\"B\",\"pid\":2,\"ts\":20},", NULL};
    static const char *const mid[] = {
        META, "{\"name\":\"y\",\"ph\":\"X\",\"pid\":3,\"ts\":30,\"dur\":1},", NULL};
    static const char *const c[] = {
        META, "{\"ph\":\"E\",\"pid\":2,\"ts\":40},", "{\"ph\":\"E\",\"pid\":2,\"ts\":90}", NULL};
    for (int order = 0; order < 2; order++) {
        job j;
        job_init(&j);
        const char *const *files[3] = {a, mid, c};
        for (int i = 0; i < 3; i++)
            file(&j, "0-algo-1", 1, files[order ? 2 - i : i]);
        assert_int_equal(j.log[0].n, 3);
        int inner = -1, outer = -1;
        for (int i = 0; i < 3; i++) {
            if (!strcmp(j.log[0].ev[i].name, "inner"))
                inner = i;
            if (!strcmp(j.log[0].ev[i].name, "outer"))
                outer = i;
        }
        assert_true(inner >= 0 && outer >= 0);
        assert_int_equal(j.log[0].ev[inner].start, BASE + 20);
        assert_int_equal(j.log[0].ev[inner].dur, 20);
        assert_int_equal(j.log[0].ev[outer].start, BASE + 10);
        assert_int_equal(j.log[0].ev[outer].dur, 80);
        assert_string_equal(j.log[0].ev[outer].phase, "Forward");
        job_free(&j);
    }
}

/* Only the same writer, kind, pid and tid pair, and never an E that ends
 * before the B began. */
static void test_no_false_pairs(void **state)
{
    (void)state;
    job j;
    job_init(&j);
    file(&j, "4-algo-1", 0, f1);
    file(&j, "5-algo-1", 0, f2);   /* another rank */
    file(&j, "4-algo-1", 2, f2);   /* another kind of trace of the same writer */
    static const char *const other_tid[] = {META, "{\"ph\":\"E\",\"pid\":1,\"tid\":8,\"ts\":400}",
                                            NULL};
    static const char *const too_early[] = {META, "{\"ph\":\"E\",\"pid\":1,\"tid\":7,\"ts\":50}",
                                            NULL};
    file(&j, "4-algo-1", 0, other_tid);
    file(&j, "4-algo-1", 0, too_early);
    assert_int_equal(j.log[0].n, 1);   /* the X alone */
    assert_int_equal(trace_carry_waiting_b(j.c[0]), 1);
    assert_int_equal(trace_carry_waiting_e(j.c[0]), 4);
    file(&j, "4-algo-1", 0, f2);
    assert_int_equal(j.log[0].n, 2);
    expect_step(&j.log[0].ev[1]);
    job_free(&j);
}

/* Without a carry a decoder behaves as before: an orphan E is ignored and
 * open B's stay in the decoder. */
static void test_without_carry(void **state)
{
    (void)state;
    evlog l = {.n = 0};
    trace_dec *d = trace_decode_new("algo-1");
    assert_int_equal(trace_decode_set_writer(d, "4-algo-1", NULL, 0), 0);
    for (size_t i = 0; f2[i]; i++)
        assert_int_equal(trace_decode_line(d, f2[i], strlen(f2[i]), sink, &l), 0);
    for (size_t i = 0; f1[i]; i++)
        assert_int_equal(trace_decode_line(d, f1[i], strlen(f1[i]), sink, &l), 0);
    trace_decode_close_file(d, sink, &l);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.ev[0].process, "4-algo-1");
    assert_int_equal(trace_decode_open_count(d), 1);
    trace_decode_free(d);
}

/* Bounded: past TCARRY_MAX waiting E's the oldest are dropped and counted. */
static void test_bound(void **state)
{
    (void)state;
    trace_carry *c = trace_carry_new();
    int w = trace_carry_writer(c, "1-algo-1", 0);
    assert_true(w >= 0);
    assert_int_equal(trace_carry_writer(c, "1-algo-1", 0), w);
    assert_true(trace_carry_writer(c, "1-algo-1", 1) != w);
    for (int i = 0; i < TCARRY_MAX + 10; i++) {
        tcarry_item it = {w, 1, 1, i, -1, NULL, NULL};
        assert_int_equal(trace_carry_put_e(c, &it), 0);
    }
    assert_int_equal(trace_carry_waiting_e(c), TCARRY_MAX);
    assert_int_equal(trace_carry_dropped(c), 10);
    tcarry_item out;
    assert_int_equal(trace_carry_take_e(c, w, 1, 1, 0, &out), 1);
    assert_int_equal(out.t, 10);   /* 0..9 were dropped */
    trace_carry_item_clear(&out);
    trace_carry_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_in_order),
        cmocka_unit_test(test_newest_first),
        cmocka_unit_test(test_nested_over_three_files),
        cmocka_unit_test(test_no_false_pairs),
        cmocka_unit_test(test_without_carry),
        cmocka_unit_test(test_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
