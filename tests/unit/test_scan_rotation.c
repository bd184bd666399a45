/* The open trace file's rotation, step by step, against the live scanner:
 * smdebug's writer closes `<writer>_pythontimeline.json.tmp` by truncating
 * its last ",\n", appending "\n]\n" and renaming it into pevents/, then
 * opens a successor at the same path. A scan may land between any two of
 * those steps, after the reader had caught up with the file or not. Every
 * schedule below must count each step exactly once and report nothing
 * corrupt (issue 12, finding 1: a fully read .tmp was counted twice once
 * closed and renamed).
 *
 * Schedule letters: n new .tmp (its head: "[", metadata, process names),
 * e one whole event line, h the first half of an event line, H its rest,
 * s scan, t truncate the last ",\n", a append "\n]\n", r rename to final. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/scan/scanner.h"
#include "io/source/source.h"

#define TMP "framework/1234-algo-1_pythontimeline.json.tmp"
#define HOUR_DIR "framework/pevents/2020071317"
#define BASE_US 1594662600000000LL

typedef struct rig {
    char dir[256];
    source *src;
    model *m;
    scanner *sc;
    int events;        /* step events written so far */
    int files;         /* closed files so far (names their end time) */
    char cut[256];     /* second half of an event cut by 'h' */
} rig;

static void append(rig *r, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", r->dir, TMP);
    FILE *f = fopen(path, "a");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void event_line(rig *r, char *buf, size_t cap)
{
    int k = r->events++;
    snprintf(buf, cap,
             "{\"name\": \"Step:ModeKeys.TRAIN\", \"pid\": 1, \"ph\": \"X\", \"ts\": %d, "
             "\"dur\": 1000, \"args\": {\"step_num\": \"%d\"}},\n",
             1000 + k * 2000, k);
}

static void new_tmp(rig *r)
{
    append(r, "[\n"
              "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 0, \"args\": "
              "{\"start_time_since_epoch_in_micros\": 1594662600000000}},\n"
              "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"args\": "
              "{\"name\": \"Step:ModeKeys.TRAIN\"}},\n");
}

static void truncate_tail(rig *r)
{
    char path[512];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", r->dir, TMP);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(truncate(path, st.st_size - 2), 0);
}

static void rename_final(rig *r)
{
    char from[512], to[512];
    snprintf(from, sizeof from, "%s/%s", r->dir, TMP);
    snprintf(to, sizeof to, "%s/framework/pevents", r->dir);
    mkdir(to, 0755);
    snprintf(to, sizeof to, "%s/" HOUR_DIR, r->dir);
    mkdir(to, 0755);
    /* the name carries the end of the file's last event */
    snprintf(to, sizeof to, "%s/" HOUR_DIR "/%lld_1234-algo-1_pythontimeline.json", r->dir,
             (long long)(BASE_US + 1000 + (r->events - 1) * 2000 + 1000 + r->files++));
    assert_int_equal(rename(from, to), 0);
}

static void scan(rig *r)
{
    sm_err err = {0};
    assert_int_equal(scanner_scan(r->sc, &err), 0);
}

static void step(rig *r, char op)
{
    char buf[256];
    switch (op) {
    case 'n': new_tmp(r); break;
    case 'e': event_line(r, buf, sizeof buf); append(r, buf); break;
    case 'h':
        event_line(r, buf, sizeof buf);
        snprintf(r->cut, sizeof r->cut, "%s", buf + strlen(buf) / 2);
        buf[strlen(buf) / 2] = '\0';
        append(r, buf);
        break;
    case 'H': append(r, r->cut); break;
    case 's': scan(r); break;
    case 't': truncate_tail(r); break;
    case 'a': append(r, "\n]\n"); break;
    case 'r': rename_final(r); break;
    default: fail_msg("bad schedule letter %c", op);
    }
}

static int64_t train_steps(const model *m)
{
    const model_node *n = model_find_node(m, "algo-1");
    const phase_stats *p = n ? node_find_phase(n, "Step:ModeKeys.TRAIN") : NULL;
    if (!p)
        return 0;
    phase_summary s;
    phase_stats_get_summary(p, &s);
    return s.count;
}

/* Runs one schedule; returns the steps counted minus the steps written
 * (0 when right) and the corrupt lines in *corrupt. */
static int64_t run_schedule(const char *ops, int64_t *corrupt)
{
    rig r = {0};
    snprintf(r.dir, sizeof r.dir, "/tmp/smtop-rot-XXXXXX");
    assert_non_null(mkdtemp(r.dir));
    char fw[300];
    snprintf(fw, sizeof fw, "%s/framework", r.dir);
    mkdir(fw, 0755);
    sm_err err = {0};
    assert_non_null(r.src = source_local_open(r.dir, &err));
    assert_non_null(r.m = model_new(NULL));
    assert_non_null(r.sc = scanner_new(r.src, "", r.m, NULL, &err));
    for (const char *p = ops; *p; p++)
        if (*p != ' ')
            step(&r, *p);
    scan(&r);
    scan(&r);
    scan_stats st;
    scanner_get_stats(r.sc, &st);
    *corrupt = st.corrupt_lines;
    int64_t diff = train_steps(r.m) - r.events;
    scanner_free(r.sc);
    model_free(r.m);
    source_free(r.src);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", r.dir);
    assert_int_equal(system(cmd), 0);
    return diff;
}

static const struct {
    const char *what, *ops;
} schedules[] = {
    {"full read, rotate, successor head", "n e e s t a r n s"},
    {"full read, rotate, successor with events at once", "n e e s t a r n e s"},
    {"full read, last file of the job", "n e e s t a r s"},
    {"scan sees the truncated .tmp", "n e e s t s a r s"},
    {"scan sees the closed .tmp", "n e e s t a s r s"},
    {"scan sees truncated and closed, then successor", "n e e s t s a s r n e s"},
    {"not caught up, rotate", "n e e s e t a r s"},
    {"write cut before its newline, rotate", "n e h s H t a s r s"},
    {"two rotations, each fully read", "n e s t a r n e e s t a r s"},
};

static void test_every_rotation_schedule_counts_each_step_once(void **state)
{
    (void)state;
    int failed = 0;
    for (size_t i = 0; i < sizeof schedules / sizeof schedules[0]; i++) {
        int64_t corrupt = 0;
        int64_t diff = run_schedule(schedules[i].ops, &corrupt);
        print_message("%-50s %-26s steps %+lld, corrupt %lld\n", schedules[i].what,
                      schedules[i].ops, (long long)diff, (long long)corrupt);
        failed += diff != 0 || corrupt != 0;
    }
    assert_int_equal(failed, 0);
}

/* A source that performs one writer step between the listing and the
 * read: the rotation may happen exactly there. */
typedef struct racer {
    source base;
    source *inner;
    rig *r;
    const char *ops;    /* writer steps to run before the next fetch */
} racer;

static int racer_list(source *s, const char *p, const char *a, source_list_cb cb,
                      void *ud, sm_err *e)
{
    return source_list(((racer *)s)->inner, p, a, cb, ud, e);
}

static int racer_fetch(source *s, const source_req *q, size_t n, source_fetch_cb cb,
                       void *ud, sm_err *e)
{
    racer *rc = (racer *)s;
    for (; rc->ops && *rc->ops; rc->ops++)
        step(rc->r, *rc->ops);
    return source_fetch(rc->inner, q, n, cb, ud, e);
}

static const char *racer_describe(const source *s)
{
    return source_describe(((const racer *)s)->inner);
}

static void racer_free(source *s)
{
    (void)s;
}

static const source_vtbl racer_vtbl = {
    .kind = "racer", .etag_is_identity = 1, .list = racer_list, .fetch = racer_fetch,
    .describe = racer_describe, .free = racer_free,
};

/* The .tmp listed, then closed and renamed before it is read: a normal
 * rotation, not a file the user must hear about; its events still count
 * once. */
static void test_rotation_between_list_and_read_is_quiet(void **state)
{
    (void)state;
    rig r = {0};
    snprintf(r.dir, sizeof r.dir, "/tmp/smtop-rot-XXXXXX");
    assert_non_null(mkdtemp(r.dir));
    char fw[300];
    snprintf(fw, sizeof fw, "%s/framework", r.dir);
    mkdir(fw, 0755);
    sm_err err = {0};
    racer rc = {.base.vt = &racer_vtbl, .r = &r};
    assert_non_null(rc.inner = source_local_open(r.dir, &err));
    r.src = rc.inner;
    assert_non_null(r.m = model_new(NULL));
    assert_non_null(r.sc = scanner_new(&rc.base, "", r.m, NULL, &err));
    for (const char *p = "n e e s e"; *p; p++)
        if (*p != ' ')
            step(&r, *p);
    rc.ops = "tar";
    scan(&r);
    scan(&r);
    scan(&r);
    scan_stats st;
    scanner_get_stats(r.sc, &st);
    print_message("steps %lld of %d, skipped %lld, last error \"%s\"\n",
                  (long long)train_steps(r.m), r.events, (long long)st.skipped_files,
                  st.last_error);
    assert_int_equal(train_steps(r.m), r.events);
    assert_int_equal(st.skipped_files, 0);
    assert_string_equal(st.last_error, "");
    scanner_free(r.sc);
    model_free(r.m);
    source_free(rc.inner);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", r.dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_rotation_schedule_counts_each_step_once),
        cmocka_unit_test(test_rotation_between_list_and_read_is_quiet),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
