/* scan_adopt: a closed trace file is matched with the .tmp it was renamed
 * from, never with another .tmp of the same process, although all of them
 * start with the same metadata. A wrong match skips the wrong number of
 * bytes: events lost or counted twice, and a corrupt line reported where
 * the skip lands mid-line (seen live in `smtop --demo`). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "io/scan/catalog.h"
#include "io/scan/scan_adopt.h"

#define HEAD_A "[\n{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 0, \"args\": " \
               "{\"start_time_since_epoch_in_micros\": 1594662614000000}},\n"

/* e's reader, begun as the scanner begins it (scan_ingest_reader). */
static void begin_reader(cat_entry *e)
{
    key_info ki;
    catalog_entry_info(e, &ki);
    lines_opts o = {0};
    sm_err err = {0};
    e->rd = decoder_lines_begin(&ki, &o, &err);
    assert_non_null(e->rd);
}

/* A .tmp entry that has decoded the lines of `text` (through its row). */
static cat_entry *tmp_entry(catalog *c, const char *key, const char *text)
{
    cat_entry *e = catalog_add(c, key);
    assert_non_null(e);
    e->ki.kind = KEY_TRACE_TMP;
    e->ki.tkind = TRACE_PYTHON;
    e->ki.node = "algo-1";
    begin_reader(e);
    key_info ki = {.kind = KEY_TRACE_TMP};
    rec_sink none = {0};
    assert_int_equal(decoder_for(&ki)->feed(e->rd, text, strlen(text), &none), 0);
    e->consumed = (int64_t)strlen(text);
    return e;
}

static cat_entry *final_entry(catalog *c)
{
    cat_entry *e = catalog_add(c, "framework/pevents/2020071317/1594662674000000_1-algo-1_pythontimeline.json");
    assert_non_null(e);
    e->ki.kind = KEY_TRACE;
    e->ki.tkind = TRACE_PYTHON;
    e->ki.node = "algo-1";
    begin_reader(e);
    return e;
}

#define EV_A "{\"name\": \"Step:ModeKeys.TRAIN\", \"pid\": 1, \"ph\": \"X\", \"ts\": 1000}\n"
#define EV_B "{\"name\": \"Step:ModeKeys.TRAIN\", \"pid\": 1, \"ph\": \"X\", \"ts\": 9000}\n"

/* Every file a process writes starts with the same metadata (real smdebug
 * output does): another file's .tmp with the same head but other events
 * must not be taken for this file's. */
static void test_same_head_other_file_never_matches(void **state)
{
    (void)state;
    catalog *c = catalog_new();
    adopt_list l = {0};
    cat_entry *b = tmp_entry(c, "framework/1-algo-1_pythontimeline.json.tmp", HEAD_A EV_B);
    scan_adopt_track(&l, b);
    const char *data = HEAD_A EV_A EV_B "]\n";
    assert_int_equal(scan_adopt_take(&l, final_entry(c), data, strlen(data)), 0);
    scan_adopt_free(&l);
    catalog_free(c);
}

/* A fresh .tmp that has decoded only the shared metadata matches every
 * file of the process; the file's own, longer history must win whatever
 * the list order. */
static void test_longest_true_prefix_wins(void **state)
{
    (void)state;
    catalog *c = catalog_new();
    adopt_list l = {0};
    cat_entry *b = tmp_entry(c, "framework/1-algo-1_pythontimeline.json.tmp#new", HEAD_A);
    scan_adopt_track(&l, b);
    cat_entry *a = tmp_entry(c, "framework/1-algo-1_pythontimeline.json.tmp", HEAD_A EV_A);
    scan_adopt_track(&l, a);
    scan_adopt_stash(&l, a);
    const char *data = HEAD_A EV_A EV_B "]\n";
    assert_int_equal(scan_adopt_take(&l, final_entry(c), data, strlen(data)), strlen(HEAD_A EV_A));
    scan_adopt_free(&l);
    catalog_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_head_other_file_never_matches),
        cmocka_unit_test(test_longest_true_prefix_wins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
