/* trace_decode: Chrome-trace lines → epoch events; the hand-written reader
 * against the jansson reference on every sample line and synthetic ones. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "io/decode/trace_carry.h"
#include "io/decode/trace_decode.h"
#include "trace_evlog.h"

#define MERGE_DIR SMTOP_SAMPLES "/merge_traces/framework/pevents/2020071317"
#define ROT_DIR SMTOP_SAMPLES "/test_traces/framework/pevents/2020051923"

/* A fast decoder and a reference one fed the same lines. */
typedef struct duo {
    trace_dec *f, *r;
    evlog lf, lr;
} duo;

static void duo_init(duo *d, const char *node)
{
    d->f = trace_decode_new(node);
    d->r = trace_decode_new(node);
    assert_non_null(d->f);
    assert_non_null(d->r);
    trace_decode_set_reference(d->r, 1);
    d->lf.n = d->lr.n = 0;
}

static void duo_free(duo *d)
{
    trace_decode_free(d->f);
    trace_decode_free(d->r);
}

static int feed(duo *d, const char *line)
{
    size_t len = strlen(line);
    int rf = trace_decode_line(d->f, line, len, sink, &d->lf);
    int rr = trace_decode_line(d->r, line, len, sink, &d->lr);
    if (rf != rr)
        fail_msg("fast %d vs reference %d on: %s", rf, rr, line);
    assert_int_equal(d->lf.n, d->lr.n);
    assert_memory_equal(d->lf.ev, d->lr.ev, sizeof(ev_copy) * (size_t)d->lf.n);
    assert_int_equal(trace_decode_base_us(d->f), trace_decode_base_us(d->r));
    assert_int_equal(trace_decode_open_count(d->f), trace_decode_open_count(d->r));
    return rf;
}

static void feed_file(duo *d, const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[8192];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        assert_int_equal(feed(d, line), 0);
    }
    fclose(f);
}

static int have_samples(void)
{
    DIR *d = opendir(MERGE_DIR);
    if (!d) {
        printf("SKIPPED: ../shared/samples not found\n");
        return 0;
    }
    closedir(d);
    return 1;
}

static void test_merge_samples(void **state)
{
    (void)state;
    if (!have_samples())
        skip();
    static const char *files[] = {
        "1594662614815222_905-b88ab1bb8259_model_timeline.json",
        "1594662624558411_905-b88ab1bb8259_model_timeline.json",
        "1594662624718694_905-b88ab1bb8259_pythontimeline.json"};
    int train = 0, eval = 0, other = 0;
    int64_t first_train = 0;
    for (int i = 0; i < 3; i++) {
        static duo d;   /* large: keep it off the stack */
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", MERGE_DIR, files[i]);
        duo_init(&d, "905-b88ab1bb8259");
        feed_file(&d, path);
        assert_int_equal(trace_decode_open_count(d.f), 0);
        for (int k = 0; k < d.lf.n; k++) {
            ev_copy *e = &d.lf.ev[k];
            if (!strcmp(e->phase, "Step:ModeKeys.TRAIN")) {
                assert_int_equal(e->step, train);   /* "0".."29" in order */
                if (train++ == 0)
                    first_train = e->start;
            } else if (!strcmp(e->phase, "Step:ModeKeys.EVAL")) {
                assert_int_equal(e->step, eval++);
                assert_int_equal(e->pid, 2);
                if (eval == 10) {
                    assert_int_equal(e->start, 1594662605425850LL + 19131394);
                    assert_int_equal(e->dur, 161450);
                }
            } else {
                assert_string_equal(e->phase, "DataIterator");
                assert_true(e->start >= 1594662597687738LL);
                other++;
            }
        }
        if (i == 2)
            assert_int_equal(trace_decode_base_us(d.f), 1594662605425850LL);
        duo_free(&d);
    }
    assert_int_equal(train, 30);
    assert_int_equal(eval, 10);
    assert_int_equal(other, 1 + 661);
    assert_int_equal(first_train, 1594662605425850LL + 2664345);
}

static void test_rotation_samples(void **state)
{
    (void)state;
    if (!have_samples())
        skip();
    for (int i = 1; i <= 4; i++) {
        static duo d;
        char path[1024];
        snprintf(path, sizeof path, "%s/1589930%d000000_4487_0000_pythontimeline.json", ROT_DIR,
                 987 + i);
        duo_init(&d, "4487_0000");
        feed_file(&d, path);
        assert_int_equal(trace_decode_base_us(d.f), 1589930987655184LL);
        assert_int_equal(d.lf.n, 1);
        char want[32];
        snprintf(want, sizeof want, "event%d", i);
        assert_string_equal(d.lf.ev[0].name, want);
        assert_string_equal(d.lf.ev[0].phase, "RotationPolicyTest_file_size");
        assert_int_equal(d.lf.ev[0].step, i);
        assert_int_equal(d.lf.ev[0].dur, 1000000);
        assert_true(d.lf.ev[0].start > 1589930987655184LL + 1000000LL * i);
        duo_free(&d);
    }
}

#define META0 "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 0, " \
              "\"args\": {\"start_time_since_epoch_in_micros\": 1000000000}},"
#define META1 "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, " \
              "\"args\": {\"name\": \"Step:ModeKeys.TRAIN\"}},"

static duo *started(void)
{
    static duo d;
    duo_init(&d, "algo-1");
    assert_int_equal(feed(&d, "["), 0);
    assert_int_equal(feed(&d, META0), 0);
    assert_int_equal(feed(&d, META1), 0);
    assert_int_equal(feed(&d, "{\"name\": \"process_sort_index\", \"ph\": \"M\", \"pid\": 1, "
                              "\"args\": {\"sort_index\": 1}},"), 0);
    assert_int_equal(trace_decode_base_us(d.f), 1000000000);
    return &d;
}

static void test_x_and_steps(void **state)
{
    (void)state;
    duo *d = started();
    feed(d, "{\"name\":\"a\",\"pid\":1,\"ph\":\"X\",\"ts\":10,\"dur\":5,\"args\":{\"step_num\":\"12\"}},");
    feed(d, "{\"name\":\"b\",\"pid\":1,\"ph\":\"X\",\"ts\":20,\"dur\":5,\"args\":{\"step_num\":12}},");
    feed(d, "{\"name\":\"c\",\"pid\":1,\"ph\":\"X\",\"ts\":30,\"dur\":5}");
    feed(d, "{\"name\":\"d\",\"pid\":1,\"ph\":\"X\",\"ts\":40,\"dur\":5,\"args\":{\"step_num\":\"-3\"}},");
    feed(d, "{\"pid\":7,\"ph\":\"X\",\"ts\":12.5,\"dur\":0.4,\"args\":{\"step_num\":\"x\"}},");
    feed(d, "{\"pid\":7,\"ph\":\"X\",\"ts\":12.4,\"args\":{\"step_num\":-1}},");
    assert_int_equal(d->lf.n, 6);
    ev_copy *e = d->lf.ev;
    assert_int_equal(e[0].step, 12);
    assert_int_equal(e[1].step, 12);
    assert_int_equal(e[2].step, -1);
    assert_int_equal(e[3].step, -3);
    assert_int_equal(e[0].start, 1000000010);
    assert_string_equal(e[0].phase, "Step:ModeKeys.TRAIN");
    assert_string_equal(e[4].phase, "");          /* unnamed pid */
    assert_string_equal(e[4].name, "");           /* no name */
    assert_int_equal(e[4].start, 1000000013);     /* 12.5 rounds away from zero */
    assert_int_equal(e[4].dur, 0);
    assert_int_equal(e[5].start, 1000000012);
    assert_int_equal(e[5].dur, 0);                /* dur absent */
    /* Other phases are understood and ignored. */
    assert_int_equal(feed(d, "{\"name\":\"i\",\"ph\":\"i\",\"ts\":1,\"pid\":1,\"s\":\"g\"},"), 0);
    assert_int_equal(feed(d, "{\"name\":\"c\",\"ph\":\"C\",\"ts\":1,\"pid\":1,\"args\":{\"v\":3}},"), 0);
    assert_int_equal(feed(d, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":3,"
                             "\"args\":{\"name\":\"t\"}},"), 0);
    assert_int_equal(feed(d, "]"), 0);
    assert_int_equal(d->lf.n, 6);
    duo_free(d);
}

static void test_begin_end(void **state)
{
    (void)state;
    duo *d = started();
    feed(d, "{\"name\":\"outer\",\"ph\":\"B\",\"pid\":1,\"tid\":2,\"ts\":100,\"args\":{\"step_num\":4}},");
    feed(d, "{\"name\":\"inner\",\"ph\":\"B\",\"pid\":1,\"tid\":2,\"ts\":110},");
    feed(d, "{\"name\":\"other\",\"ph\":\"B\",\"pid\":1,\"tid\":3,\"ts\":120},");
    assert_int_equal(trace_decode_open_count(d->f), 3);
    feed(d, "{\"ph\":\"E\",\"pid\":1,\"tid\":2,\"ts\":150},");   /* horovod: no name */
    feed(d, "{\"name\":\"outer\",\"ph\":\"E\",\"pid\":1,\"tid\":2,\"ts\":300},");
    assert_int_equal(trace_decode_open_count(d->f), 1);
    assert_int_equal(d->lf.n, 2);
    assert_string_equal(d->lf.ev[0].name, "inner");
    assert_int_equal(d->lf.ev[0].start, 1000000110);
    assert_int_equal(d->lf.ev[0].dur, 40);
    assert_int_equal(d->lf.ev[0].step, -1);
    assert_string_equal(d->lf.ev[1].name, "outer");
    assert_int_equal(d->lf.ev[1].dur, 200);
    assert_int_equal(d->lf.ev[1].step, 4);
    assert_string_equal(d->lf.ev[1].phase, "Step:ModeKeys.TRAIN");
    /* An E with nothing open (its B was in an earlier file) is fine. */
    assert_int_equal(feed(d, "{\"ph\":\"E\",\"pid\":9,\"tid\":9,\"ts\":5},"), 0);
    assert_int_equal(d->lf.n, 2);
    /* B-less E with a name; then the remaining open one closes. */
    feed(d, "{\"ph\":\"E\",\"pid\":1,\"tid\":3,\"ts\":100},");
    assert_int_equal(d->lf.ev[2].dur, 0);         /* E before B: clamped */
    assert_int_equal(trace_decode_open_count(d->f), 0);
    duo_free(d);
}

static void test_open_tmp_and_forms(void **state)
{
    (void)state;
    static duo d;
    duo_init(&d, "algo-2");
    /* The open .tmp form: "[" then lines ending in "," and no "]". */
    const char *lines[] = {
        "[", META0, META1,
        "  {\"name\": \"s\", \"pid\": 1, \"ph\": \"X\", \"ts\": 1, \"dur\": 2},  \r",
        "{\"name\": \"s\", \"pid\": 1, \"ph\": \"X\", \"ts\": 3, \"dur\": 2},"};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        assert_int_equal(feed(&d, lines[i]), 0);
    assert_int_equal(d.lf.n, 2);
    /* Brackets on the event lines themselves, and a blank line. */
    assert_int_equal(feed(&d, "[{\"name\":\"t\",\"pid\":1,\"ph\":\"X\",\"ts\":5,\"dur\":1},"), 0);
    assert_int_equal(feed(&d, "{\"name\":\"u\",\"pid\":1,\"ph\":\"X\",\"ts\":6,\"dur\":1}]"), 0);
    assert_int_equal(feed(&d, ""), 0);
    assert_int_equal(feed(&d, "[]"), 0);
    assert_int_equal(d.lf.n, 4);
    assert_string_equal(d.lf.ev[3].name, "u");
    /* Escapes and extra keys take the reference path, same events. */
    assert_int_equal(feed(&d, "{\"name\":\"a\\u0062\",\"cat\":{\"x\":1},\"pid\":1,\"ph\":\"X\","
                              "\"ts\":7,\"dur\":1,\"args\":{\"step_num\":\"5\",\"t\":[1]}},"), 0);
    assert_string_equal(d.lf.ev[4].name, "ab");
    assert_int_equal(d.lf.ev[4].step, 5);
    duo_free(&d);
}

static void test_corrupt_keeps_state(void **state)
{
    (void)state;
    duo *d = started();
    feed(d, "{\"name\":\"x\",\"ph\":\"B\",\"pid\":1,\"ts\":100},");
    const char *bad[] = {
        "{\"name\":\"x\",\"ph\":\"B\",\"pid\":1,\"ts\":},",
        "{\"name\":\"x\",\"ph\":\"B\",\"pid\":1,\"ts\":100",
        "{\"name\":\"x\",\"ph\":\"E\",\"pid\":1},",                 /* no ts */
        "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"args\":"
        "{\"start_time_since_epoch_in_micros\":5}",                  /* cut */
        "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"pid\":1,\"args\":"
        "{\"start_time_since_epoch_in_micros\":5}},",                /* duplicate */
        "{\"name\":\"a\",\"ph\":\"X\",\"pid\":\"1\",\"ts\":1},",     /* pid string */
        "{\"name\":\"a\",\"ph\":\"X\",\"pid\":1,\"ts\":1,\"dur\":-5},",
        "{\"name\":\"a\",\"pid\":1,\"ts\":1},",                      /* no ph */
        "{\"name\":7,\"ph\":\"X\",\"pid\":1,\"ts\":1},",
        "{\"name\":\"a\",\"ph\":\"X\",\"pid\":1,\"ts\":1e300},",
        "{\"name\":\"a\",\"ph\":\"X\",\"pid\":1,\"ts\":9223372036854775807},",
        "nonsense", "{", "\"name\"", "[1, 2]",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (feed(d, bad[i]) != -1)
            fail_msg("accepted corrupt line: %s", bad[i]);
        assert_int_equal(trace_decode_base_us(d->f), 1000000000);
        assert_int_equal(trace_decode_open_count(d->f), 1);
    }
    assert_int_equal(d->lf.n, 0);
    feed(d, "{\"ph\":\"E\",\"pid\":1,\"ts\":130},");
    assert_int_equal(d->lf.n, 1);
    assert_string_equal(d->lf.ev[0].name, "x");
    assert_int_equal(d->lf.ev[0].dur, 30);
    duo_free(d);
}

static void test_open_bound(void **state)
{
    (void)state;
    trace_dec *t = trace_decode_new("n");
    assert_non_null(t);
    const char *b = "{\"name\":\"deep\",\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":1},";
    for (int i = 0; i < 5000; i++)
        assert_int_equal(trace_decode_line(t, b, strlen(b), NULL, NULL), 0);
    assert_int_equal(trace_decode_open_count(t), 4096);
    assert_int_equal(trace_decode_dropped_count(t), 5000 - 4096);
    trace_decode_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_merge_samples),
        cmocka_unit_test(test_rotation_samples),
        cmocka_unit_test(test_x_and_steps),
        cmocka_unit_test(test_begin_end),
        cmocka_unit_test(test_open_tmp_and_forms),
        cmocka_unit_test(test_corrupt_keeps_state),
        cmocka_unit_test(test_open_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
