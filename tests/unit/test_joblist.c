/* joblist and jobrow: merging summaries and describes, the anchored
 * filter, sorting by every column (unknowns last), the faults view. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/jobs/joblist.h"

static void put(joblist *l, const char *name, const char *status, double created,
                double gpu)
{
    jobrow r;
    jobrow_init(&r, name);
    snprintf(r.status, sizeof r.status, "%s", status);
    r.created_s = created;
    r.gpu_pct = gpu;
    assert_int_equal(joblist_put(l, &r), 0);
}

static size_t view(joblist *l, const char *filter, jobcol c, int desc, int faults,
                   const char **names)
{
    uint32_t idx[64];
    joblist_view_opts o = {.filter = filter, .sort = c, .desc = desc, .faults_only = faults,
                           .now_s = 1000, .stale_s = 600};
    long n = joblist_view(l, &o, idx, 64);
    assert_true(n >= 0);
    for (long i = 0; i < n; i++)
        names[i] = joblist_at(l, idx[i])->name;
    return (size_t)n;
}

static void test_filter_anchored(void **state)
{
    (void)state;
    joblist *l = joblist_new();
    put(l, "bert-large-1", "Completed", 10, NAN);
    put(l, "my-bert-2", "Completed", 20, NAN);
    put(l, "resnet-3", "Completed", 30, NAN);
    const char *n[8];
    assert_int_equal(view(l, "bert", JOBCOL_AGE, 0, 0, n), 2);
    assert_int_equal(view(l, "^bert", JOBCOL_AGE, 0, 0, n), 1);
    assert_string_equal(n[0], "bert-large-1");
    assert_int_equal(view(l, "^res|2$", JOBCOL_AGE, 0, 0, n), 2);
    assert_string_equal(n[0], "resnet-3");   /* newest first */
    assert_string_equal(n[1], "my-bert-2");
    assert_int_equal(view(l, "BERT-L", JOBCOL_AGE, 0, 0, n), 1);
    joblist_free(l);
}

static void test_sort_unknown_last(void **state)
{
    (void)state;
    joblist *l = joblist_new();
    put(l, "a", "InProgress", 10, 50);
    put(l, "b", "InProgress", 20, NAN);
    put(l, "c", "InProgress", 30, 90);
    const char *n[8];
    view(l, NULL, JOBCOL_GPU, 0, 0, n);
    assert_string_equal(n[0], "a");
    assert_string_equal(n[1], "c");
    assert_string_equal(n[2], "b");
    view(l, NULL, JOBCOL_GPU, 1, 0, n);
    assert_string_equal(n[0], "c");
    assert_string_equal(n[1], "a");
    assert_string_equal(n[2], "b");
    view(l, NULL, JOBCOL_NAME, 1, 0, n);
    assert_string_equal(n[0], "c");
    assert_int_equal(joblist_col_parse("GPU%"), JOBCOL_GPU);
    assert_int_equal(joblist_col_parse("nope"), -1);
    joblist_free(l);
}

static void test_faults(void **state)
{
    (void)state;
    joblist *l = joblist_new();
    put(l, "failed", "Failed", 10, NAN);
    put(l, "idle", "InProgress", 20, 2.0);
    put(l, "busy", "InProgress", 30, 80.0);
    put(l, "done", "Completed", 40, NAN);
    jobrow r = *joblist_find(l, "done");
    r.alerts = 1;
    jobrow s;
    jobrow_init(&s, "stale");
    snprintf(s.status, sizeof s.status, "InProgress");
    s.updated_s = 100;   /* now 1000, stale after 600 */
    joblist_put(l, &r);
    joblist_put(l, &s);
    const char *n[8];
    size_t m = view(l, NULL, JOBCOL_NAME, 0, 1, n);
    assert_int_equal(m, 4);
    assert_string_equal(n[0], "done");
    assert_string_equal(n[1], "failed");
    assert_string_equal(n[2], "idle");
    assert_string_equal(n[3], "stale");
    joblist_free(l);
}

/* A summary keeps what a describe filled in; a job that ended since its
 * describe is described once more; one described after it ended is not. */
static void test_summary_merge(void **state)
{
    (void)state;
    joblist *l = joblist_new();
    jobrow r;
    jobrow_init(&r, "j");
    snprintf(r.status, sizeof r.status, "InProgress");
    snprintf(r.instance_type, sizeof r.instance_type, "ml.p4d.24xlarge");
    r.instance_count = 2;
    r.described = 1;
    joblist_put(l, &r);
    jobrow s;
    jobrow_init(&s, "j");
    snprintf(s.status, sizeof s.status, "Completed");
    s.end_s = 500;
    joblist_put_summary(l, &s);
    const jobrow *g = joblist_find(l, "j");
    assert_string_equal(g->instance_type, "ml.p4d.24xlarge");
    assert_string_equal(g->status, "Completed");
    assert_int_equal(g->described, 0);
    r = *g;
    r.described = 1;
    joblist_put(l, &r);
    joblist_put_summary(l, &s);
    assert_int_equal(joblist_find(l, "j")->described, 1);
    assert_int_equal(joblist_count(l), 1);
    joblist_free(l);
}

static void test_hours(void **state)
{
    (void)state;
    jobrow r;
    jobrow_init(&r, "x");
    assert_true(isnan(jobrow_instance_hours(&r, 100)));
    r.instance_count = 4;
    r.billable_s = 1800;
    assert_true(fabs(jobrow_instance_hours(&r, 100) - 2.0) < 1e-9);
    r.billable_s = -1;
    snprintf(r.status, sizeof r.status, "InProgress");
    r.start_s = 100;
    assert_true(fabs(jobrow_instance_hours(&r, 3700) - 4.0) < 1e-9);
}

/* 1,000 rows: many puts and a sorted view stay cheap and exact. */
static void test_many(void **state)
{
    (void)state;
    joblist *l = joblist_new();
    char name[32];
    for (int i = 0; i < 1000; i++) {
        snprintf(name, sizeof name, "job-%04d", i);
        put(l, name, i % 7 ? "Completed" : "Failed", i, (double)(i % 100));
    }
    for (int i = 0; i < 1000; i += 3) {
        snprintf(name, sizeof name, "job-%04d", i);
        put(l, name, "Completed", i, 1.0);
    }
    assert_int_equal(joblist_count(l), 1000);
    assert_string_equal(joblist_find(l, "job-0999")->name, "job-0999");
    uint32_t idx[1000];
    joblist_view_opts o = {.sort = JOBCOL_AGE, .now_s = 2000};
    assert_int_equal(joblist_view(l, &o, idx, 1000), 1000);
    assert_string_equal(joblist_at(l, idx[0])->name, "job-0999");
    joblist_free(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_filter_anchored), cmocka_unit_test(test_sort_unknown_last),
        cmocka_unit_test(test_faults),          cmocka_unit_test(test_summary_merge),
        cmocka_unit_test(test_hours),           cmocka_unit_test(test_many),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
