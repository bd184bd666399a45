/* verdict: the findings the header and `report --summary` share, worst
 * first, in words with numbers; the line that fits a width. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "model/view/verdict.h"
#include "rules_fixture.h"

/* Three nodes with steps (algo-3 30 % slower) and two GPUs each: idle
 * (under 10 %) for idle_ticks of 100 ticks. */
static model *job(int idle_ticks)
{
    model *m = model_new(NULL);
    for (int64_t k = 0; k < 100; k++) {
        double g[2];
        g[0] = g[1] = k < idle_ticks ? 2.0 : 90.0;
        for (int n = 1; n <= 3; n++) {
            char node[16];
            snprintf(node, sizeof node, "algo-%d", n);
            fx_tick(m, node, k, 1, 50, 2, g, g);
        }
    }
    for (int64_t s = 0; s < 40; s++)
        for (int n = 1; n <= 3; n++) {
            char node[16];
            snprintf(node, sizeof node, "algo-%d", n);
            fx_step(m, node, s, T0 + s * 200000, n == 3 ? 130000 : 100000);
        }
    return m;
}

static void build(const model *m, rules *r, verdict *v)
{
    rules_invalidate(r);
    assert_true(rules_evaluate(r, m) >= 0);
    assert_int_equal(verdict_build(m, r, v), 0);
}

static const verdict_finding *find(const verdict *v, const char *source)
{
    for (size_t i = 0; i < v->n; i++)
        if (!strcmp(v->f[i].source, source))
            return &v->f[i];
    return NULL;
}

static void test_findings_in_words_worst_first(void **s)
{
    (void)s;
    model *m = job(60);
    rules *r = rules_new();
    verdict v;
    build(m, r, &v);
    const verdict_finding *idle = find(&v, "idle_gpu"), *st = find(&v, "straggler");
    assert_non_null(idle);
    assert_non_null(st);
    /* the system metrics' share in its own words: not a second "idle" figure */
    assert_string_equal(idle->text, "GPU < 10 % in 60 % of samples");
    assert_int_equal(idle->severity, RULE_SEV_HIGH);
    assert_string_equal(idle->knob, "profile a few steps");
    assert_non_null(strstr(idle->cause, "start-up included"));
    assert_non_null(strstr(idle->fix, "torch.profiler"));
    assert_non_null(strstr(idle->evidence, "System (1)"));
    assert_string_equal(st->text, "straggler algo-3 +30 %");
    assert_string_equal(st->knob, "check its host and data shard");
    assert_true(st->cause[0] && st->fix[0] && st->evidence[0]);
    /* High before medium whatever the source order. */
    for (size_t i = 1; i < v.n; i++)
        assert_true(v.f[i - 1].severity >= v.f[i].severity);
    assert_ptr_equal(&v.f[0], idle);
    char line[256];
    verdict_format(&v, " | ", 0, line, sizeof line);
    assert_non_null(strstr(line, "GPU < 10 % in 60 % of samples -> profile a few steps | "
                                 "straggler algo-3 +30 %"));
    assert_int_equal(verdict_worst(&v), RULE_SEV_HIGH);
    rules_free(r);
    model_free(m);
}

/* The one straggler definition follows the user's threshold. */
static void test_straggler_threshold_reaches_verdict(void **s)
{
    (void)s;
    model *m = job(0);
    rules *r = rules_new();
    verdict v;
    fx_set(r, "Straggler.threshold=50");
    build(m, r, &v);
    assert_null(find(&v, "straggler"));
    fx_set(r, "Straggler.threshold=20");
    build(m, r, &v);
    assert_non_null(find(&v, "straggler"));
    rules_free(r);
    model_free(m);
}

static void test_nothing_wrong_is_short(void **s)
{
    (void)s;
    model *m = model_new(NULL);
    for (int64_t k = 0; k < 50; k++) {
        double g[1] = {95};
        fx_tick(m, "algo-1", k, 1, 50, 1, g, g);
    }
    rules *r = rules_new();
    verdict v;
    build(m, r, &v);
    char line[256];
    assert_int_equal(v.n, 0);
    verdict_format(&v, " | ", 80, line, sizeof line);
    assert_int_equal(strncmp(line, "no problem found (", 18), 0);
    /* ...saying what the rules that could not check lacked: this job has
     * no steps, and 50 ticks are fewer than LowGPUUtilization's patience. */
    assert_non_null(strstr(line, "; no training steps, job too short for "));
    assert_int_equal(verdict_worst(&v), RULE_SEV_INFO);
    model *empty = model_new(NULL);
    build(empty, r, &v);
    assert_string_equal(verdict_format(&v, " | ", 80, line, sizeof line), "no data yet");
    rules_free(r);
    model_free(m);
    model_free(empty);
}

/* n TRAIN steps of base_us on node, step `slow` taking slow_us. */
static void steps(model *m, const char *node, int n, int64_t base_us, int slow, int64_t slow_us)
{
    int64_t t = T0;
    for (int s = 0; s < n; s++) {
        int64_t d = s == slow ? slow_us : base_us;
        fx_step(m, node, s, t, d);
        t += d + 1000;
    }
}

/* The share of the step time the outlier costs over the median, as the
 * verdict words it: computed here from the steps laid down. */
static double lost_pct(int n, int64_t base_us, int64_t slow_us)
{
    return 100.0 * (double)(slow_us - base_us) / (double)((n - 1) * base_us + slow_us);
}

/* A job too short for StepOutlier's 100 steps still hears of its one
 * slow step: the rule's threshold (mean + stddev sigma), the step, its
 * time against the median and the share it cost. */
static void test_slow_step_of_a_short_job(void **s)
{
    (void)s;
    model *m = model_new(NULL);
    steps(m, "algo-1", 30, 84000, 0, 9020000);
    rules *r = rules_new();
    verdict v;
    build(m, r, &v);
    const verdict_finding *f = find(&v, "outlier_steps");
    assert_non_null(f);
    char want[VERDICT_TEXT];
    snprintf(want, sizeof want, "step 0 took 9.02 s, %.0f\u00d7 the p50 (%.0f %% of TRAIN time)",
             9020000.0 / 84000.0, lost_pct(30, 84000, 9020000));
    assert_string_equal(f->text, want);
    assert_int_equal(f->severity, RULE_SEV_MED);        /* 78 % >= VERDICT_STEP_HEAVY_PCT */
    /* The rule's own sigma: with 30 steps none is 6 sigma out. */
    fx_set(r, "StepOutlier.stddev=6");
    build(m, r, &v);
    assert_null(find(&v, "outlier_steps"));
    rules_free(r);
    model_free(m);
}

/* An outlier costing a few % is told low; under VERDICT_STEP_LOST_PCT not
 * at all; with two nodes the line names the node. */
static void test_slow_step_weight_and_name(void **s)
{
    (void)s;
    model *m = model_new(NULL);
    steps(m, "algo-1", 40, 100000, 40, 0);
    steps(m, "algo-2", 40, 100000, 7, 400000);
    rules *r = rules_new();
    verdict v;
    build(m, r, &v);
    const verdict_finding *f = find(&v, "outlier_steps");
    assert_non_null(f);
    assert_true(lost_pct(40, 100000, 400000) >= VERDICT_STEP_LOST_PCT);
    assert_true(lost_pct(40, 100000, 400000) < VERDICT_STEP_HEAVY_PCT);
    assert_int_equal(f->severity, RULE_SEV_LOW);
    char want[VERDICT_TEXT];
    snprintf(want, sizeof want, "algo-2 step 7 took 400 ms, 4.0\u00d7 the p50 (%.0f %% of TRAIN time)",
             lost_pct(40, 100000, 400000));
    assert_string_equal(f->text, want);
    model_free(m);
    /* 60 steps: the same outlier costs under 5 %. */
    m = model_new(NULL);
    steps(m, "algo-1", 60, 100000, 7, 400000);
    assert_true(lost_pct(60, 100000, 400000) < VERDICT_STEP_LOST_PCT);
    build(m, r, &v);
    assert_null(find(&v, "outlier_steps"));
    rules_free(r);
    model_free(m);
}

/* A narrow line keeps whole findings and says how many it left out. */
static void test_format_fits(void **s)
{
    (void)s;
    verdict v = {.n = 3, .has_data = 1};
    v.f[0] = (verdict_finding){.source = "idle_gpu", .severity = RULE_SEV_HIGH, .text = "GPU idle 57 %"};
    v.f[1] = (verdict_finding){.source = "straggler", .severity = RULE_SEV_MED, .text = "straggler algo-3 +28 %"};
    v.f[2] = (verdict_finding){.source = "outlier_steps", .severity = RULE_SEV_MED, .text = "2 % outlier steps"};
    char line[256];
    verdict_format(&v, " \u00b7 ", 0, line, sizeof line);
    assert_string_equal(line, "GPU idle 57 % \u00b7 straggler algo-3 +28 % \u00b7 2 % outlier steps");
    verdict_format(&v, " \u00b7 ", 48, line, sizeof line);
    assert_string_equal(line, "GPU idle 57 % \u00b7 straggler algo-3 +28 % \u00b7 +1 more");
    verdict_format(&v, " \u00b7 ", 47, line, sizeof line);
    assert_string_equal(line, "GPU idle 57 % \u00b7 +2 more");
    /* A finding too long for the line gives its brief instead. */
    snprintf(v.f[2].text, sizeof v.f[2].text, "2 %% outlier steps: algo-2 step 30 took 759 ms, 6.2\u00d7 the p50");
    snprintf(v.f[2].brief, sizeof v.f[2].brief, "2 %% outlier steps");
    verdict_format(&v, " \u00b7 ", 60, line, sizeof line);
    assert_string_equal(line, "GPU idle 57 % \u00b7 straggler algo-3 +28 % \u00b7 2 % outlier steps");
    verdict_format(&v, " \u00b7 ", 0, line, sizeof line);
    assert_non_null(strstr(line, "algo-2 step 30 took 759 ms"));
    /* The first names its cause and fix where they fit, else its fix,
     * else itself; the arrow is ASCII beside the ASCII separator. */
    verdict c = {.n = 2, .has_data = 1};
    c.f[0] = (verdict_finding){.source = "kineto", .severity = RULE_SEV_HIGH,
                               .text = "GPU idle 86 % of 12 traced steps",
                               .brief = "GPU idle 86 %", .why = "gloo all-reduce on the host",
                               .knob = "use NCCL"};
    c.f[1] = (verdict_finding){.source = "RanksShareGPU", .severity = RULE_SEV_HIGH,
                               .text = "algo-1: 2 ranks share GPU 0"};
    verdict_format(&c, " \u00b7 ", 0, line, sizeof line);
    assert_string_equal(line, "GPU idle 86 % of 12 traced steps: gloo all-reduce on the host "
                              "\u2192 use NCCL \u00b7 algo-1: 2 ranks share GPU 0");
    verdict_format(&c, " \u00b7 ", 78, line, sizeof line);
    assert_string_equal(line, "GPU idle 86 %: gloo all-reduce on the host \u2192 use NCCL "
                              "\u00b7 +1 more");
    verdict_format(&c, " | ", 60, line, sizeof line);
    assert_string_equal(line, "GPU idle 86 %: gloo all-reduce on the host -> use NCCL");
    verdict_format(&c, " | ", 46, line, sizeof line);
    assert_string_equal(line, "GPU idle 86 % -> use NCCL | +1 more");
    verdict_format(&c, " | ", 23, line, sizeof line);
    assert_string_equal(line, "GPU idle 86 % | +1 more");
    assert_int_equal(verdict_lead_cols(&c, " | "), 54);
    /* "no problem found" drops its reasons before it passes the width. */
    verdict ok = {.has_data = 1, .rules_ok = 2, .rules_no_data = 3};
    snprintf(ok.lacks, sizeof ok.lacks, "no system metrics, job too short for 1 rule");
    verdict_format(&ok, " \u00b7 ", 0, line, sizeof line);
    assert_string_equal(line, "no problem found (2 rules ok; no system metrics, job too short for 1 rule)");
    verdict_format(&ok, " \u00b7 ", 60, line, sizeof line);
    assert_string_equal(line, "no problem found (2 rules ok, some lack data)");
    verdict_format(&ok, " \u00b7 ", 30, line, sizeof line);
    assert_string_equal(line, "no problem found");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_findings_in_words_worst_first),
        cmocka_unit_test(test_straggler_threshold_reaches_verdict),
        cmocka_unit_test(test_nothing_wrong_is_short),
        cmocka_unit_test(test_format_fits),
        cmocka_unit_test(test_slow_step_of_a_short_job),
        cmocka_unit_test(test_slow_step_weight_and_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
