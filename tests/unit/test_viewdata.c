/* Unit tests for the view data the loader builds for the chart panes and
 * the header (model/view/viewdata.h, sysview.h, heatview.h, straggler.h): each
 * number equals what a read of the model gives directly, the filter and
 * the asked node range are honoured, a straggler is found, and unchanged
 * heatmap rows are reused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "model_fixture.h"

#include "model/view/heatview.h"
#include "model/model.h"
#include "model/view/stepsview.h"
#include "model/view/sysview.h"
#include "model/view/tlview.h"
#include "model/view/viewdata.h"

#define T0 1600000000000000LL
#define NODES 5

/* Five nodes, a minute of samples each second; algo-4's GPU idles. */
static model *make_job(void)
{
    model *m = model_new(NULL);
    assert_non_null(m);
    for (int n = 1; n <= NODES; n++) {
        char id[16];
        snprintf(id, sizeof id, "algo-%d", n);
        for (int i = 0; i < 60; i++) {
            int64_t t = T0 + i * 1000000LL;
            fx_sample(m, id, "cpu", "CPUUtilization", "cpu0", t, 10 * n + (i % 7));
            fx_sample(m, id, "gpu", "GPUUtilization", "gpu0", t, n == 4 ? 20 : 90 + (i % 3));
            fx_sample(m, id, "gpu", "GPUMemoryUtilization", "gpu0", t, 30);
            fx_sample(m, id, "i/o", "ReadThroughputMB", "nvme0n1", t, 5 + n);
        }
    }
    model_flush(m, 1);
    return m;
}

static int match_prefix(const char *filter, const char *id)
{
    return strncmp(id, filter, strlen(filter)) == 0;
}

/* The params of q's ask of query (added, zeroed, when q has none). */
static void *ask_params(viewdata_req *q, const viewquery *query, size_t size)
{
    for (size_t i = 0; i < VIEWDATA_ASKS; i++)
        if (q->ask[i].query == query)
            return q->ask[i].params;
    assert_int_equal(viewdata_ask_for(q, query, NULL, 0), 0);
    for (size_t i = 0; i < VIEWDATA_ASKS; i++)
        if (q->ask[i].query == query) {
            q->ask[i].size = size;
            return q->ask[i].params;
        }
    return NULL;
}
#define SYS(q) ((sysview_params *)ask_params((q), &sysview_query, sizeof(sysview_params)))
#define TL(q) ((tlview_params *)ask_params((q), &tlview_query, sizeof(tlview_params)))
#define STEPS(q) ((stepsview_params *)ask_params((q), &stepsview_query, sizeof(stepsview_params)))
#define HEAT(q) ask_params((q), &heatview_query, 0)
#define VD_SYS(v) ((const sysview *)viewdata_answer((v), &sysview_query))
#define VD_HEAT(v) ((const heatview *)viewdata_answer((v), &heatview_query))
#define VD_STEPS(v) ((const stepsview *)viewdata_answer((v), &stepsview_query))
#define VD_TL(v) ((const tlview *)viewdata_answer((v), &tlview_query))

static viewdata_req request(void)
{
    viewdata_req q;
    memset(&q, 0, sizeof q);
    q.live = 1;
    q.span_us = 30 * 1000000LL;
    SYS(&q)->bins = 16;
    SYS(&q)->count = 100;
    HEAT(&q);
    return q;
}

static void test_header_facts(void **state)
{
    (void)state;
    model *m = make_job();
    viewdata_req q = request();
    viewdata *v = viewdata_build(m, &q, NULL, 0);
    assert_non_null(v);
    assert_int_equal(viewdata_node_total(v), NODES);
    assert_int_equal(viewdata_node_shown(v), NODES);
    assert_true(viewdata_newest_us(v) == model_last_us(m));
    assert_true(viewdata_model_generation(v) == model_generation(m));
    int64_t t0, t1;
    viewdata_time_window(v, &t0, &t1);
    assert_true(t1 == model_last_us(m) + 1 && t1 - t0 == q.span_us);
    viewdata_free(v);
    /* The filter: only matching nodes, the total unchanged. */
    snprintf(q.filter, sizeof q.filter, "algo-2");
    q.visible = match_prefix;
    v = viewdata_build(m, &q, NULL, 0);
    assert_int_equal(viewdata_node_shown(v), 1);
    assert_int_equal(viewdata_node_total(v), NODES);
    assert_int_equal(sysview_node_count(VD_SYS(v)), 1);
    assert_string_equal(sysview_node_at(VD_SYS(v), 0)->id, "algo-2");
    assert_int_equal(heatview_count(VD_HEAT(v)), 1);
    viewdata_free(v);
    model_free(m);
}

/* Every chart's bins, current value and window mean equal the series'
 * own answers over the same window. */
static void test_system_matches_model(void **state)
{
    (void)state;
    model *m = make_job();
    viewdata_req q = request();
    viewdata *v = viewdata_build(m, &q, NULL, 0);
    const sysview *sv = VD_SYS(v);
    int64_t t0, t1;
    viewdata_time_window(v, &t0, &t1);
    assert_int_equal(sysview_node_count(sv), NODES);
    for (size_t i = 0; i < NODES; i++) {
        const sysview_node *nd = sysview_node_at(sv, i);
        const model_node *mn = model_node_at(m, i);
        assert_string_equal(nd->id, model_node_id(mn));
        sysview_metric ms[16];
        size_t k = sysview_node_metrics(mn, 0, ms, 16);
        assert_int_equal(nd->count, k);
        for (size_t j = 0; j < k; j++) {
            const sysview_chart *c = sysview_chart_at(sv, nd->first + j);
            assert_string_equal(c->m.label, ms[j].label);
            assert_null(c->m.s);   /* nothing points into the model */
            series_bin b[16];
            series_query(ms[j].s, t0, t1, 16, b);
            assert_int_equal(c->nbins, 16);
            for (size_t x = 0; x < 16; x++)
                if (b[x].count)
                    assert_float_equal(c->vals[x], b[x].mean, 1e-9);
                else
                    assert_true(isnan(c->vals[x]));
            series_summary sum;
            series_range_summary(ms[j].s, t0, t1, &sum);
            assert_true(c->have_mean);
            assert_float_equal(c->mean, sum.mean, 1e-9);
            series_get_summary(ms[j].s, &sum);
            assert_true(c->have_cur);
            assert_float_equal(c->cur, sum.last_value, 1e-9);
            assert_float_equal(c->top, sysview_scale_top(b, 16, 0), 1e-9);
        }
    }
    viewdata_free(v);
    model_free(m);
}

/* Only the asked node range gets bins: the others list their charts. */
static void test_system_node_range(void **state)
{
    (void)state;
    model *m = make_job();
    viewdata_req q = request();
    SYS(&q)->first = 1;
    SYS(&q)->count = 2;
    viewdata *v = viewdata_build(m, &q, NULL, 0);
    const sysview *sv = VD_SYS(v);
    for (size_t i = 0; i < NODES; i++) {
        const sysview_node *nd = sysview_node_at(sv, i);
        assert_true(nd->count > 0);
        int binned = i == 1 || i == 2;
        assert_int_equal(sysview_chart_at(sv, nd->first)->nbins, binned ? 16 : 0);
    }
    viewdata_free(v);
    model_free(m);
}

/* Heatmap rows are the window means (the straggler is the Straggler
 * rule's, over the whole job: test_verdict, it_ui_straggler_one). */
static void test_heatmap_and_straggler(void **state)
{
    (void)state;
    model *m = make_job();
    viewdata_req q = request();
    viewdata *v = viewdata_build(m, &q, NULL, 0);
    const heatview *hv = VD_HEAT(v);
    int64_t t0, t1;
    viewdata_time_window(v, &t0, &t1);
    assert_int_equal(heatview_count(hv), NODES);
    for (size_t i = 0; i < NODES; i++) {
        const model_node *mn = model_node_at(m, i);
        const heatview_row *r = heatview_row_at(hv, i);
        series_summary sum;
        series_range_summary(model_node_cpu_total(mn), t0, t1, &sum);
        assert_float_equal(r->cpu, sum.mean, 1e-9);
        series_range_summary(model_node_gpu_util(mn, 0), t0, t1, &sum);
        assert_float_equal(r->gpu[0], sum.mean, 1e-9);
        assert_float_equal(r->gpu_mean, sum.mean, 1e-9);
        assert_true(isnan(r->p50));   /* no steps in this job */
    }
    /* Rebuilt over the same model and window: rows are copied from the
     * previous build, with equal values. */
    viewdata *w = viewdata_build(m, &q, v, 0);
    for (size_t i = 0; i < NODES; i++)
        assert_memory_equal(heatview_row_at(VD_HEAT(w), i)->gpu,
                            heatview_row_at(hv, i)->gpu, sizeof heatview_row_at(hv, i)->gpu);
    viewdata_free(w);
    viewdata_free(v);
    model_free(m);
}

/* The Steps pane's phase: summary, histogram and retained events equal
 * the phase's own; a node without steps falls to one that has them. */
static void test_steps_matches_model(void **state)
{
    (void)state;
    model *m = make_job();
    for (int i = 0; i < 30; i++)
        fx_step(m, "algo-2", i, T0 + i * 1000000LL, 400000 + 1000 * i);
    viewdata_req q = request();
    STEPS(&q);
    q.selected = 0;   /* algo-1 has no steps */
    viewdata *v = viewdata_build(m, &q, NULL, 0);
    const stepsview *sv = VD_STEPS(v);
    assert_non_null(sv);
    assert_null(sv->why);
    assert_string_equal(sv->node, "algo-2");
    const model_node *nd = model_find_node(m, "algo-2");
    const phase_stats *ps = model_node_phase_at(nd, 0);
    assert_string_equal(sv->label, phase_stats_label(ps));
    phase_summary s;
    phase_stats_get_summary(ps, &s);
    assert_int_equal(sv->sum.count, s.count);
    assert_float_equal(sv->sum.p50_us, s.p50_us, 1e-9);
    assert_memory_equal(sv->hist, phase_stats_histogram(ps), sizeof sv->hist);
    phase_event ev[64];
    size_t n = phase_stats_recent(ps, ev, 64);
    assert_int_equal(sv->nrecent, n);
    assert_memory_equal(sv->recent, ev, n * sizeof *ev);
    viewdata_free(v);
    /* No node with steps: the reason, nothing else. */
    model *bare = make_job();
    v = viewdata_build(bare, &q, NULL, 0);
    assert_non_null(VD_STEPS(v)->why);
    viewdata_free(v);
    model_free(bare);
    model_free(m);
}

/* The Timeline's steps view: the retained events and the breakdowns of
 * the bars asked for (with a screen's margin) equal the model's; the
 * events view lists what event_window finds, sorted, with own labels. */
static void test_timeline_matches_model(void **state)
{
    (void)state;
    model *m = make_job();
    for (int i = 0; i < 50; i++)
        fx_step(m, "algo-1", i, T0 + i * 1000000LL, 300000);
    viewdata_req q = request();
    TL(&q)->view = TLVIEW_STEPS;
    TL(&q)->first = 30;
    TL(&q)->fit = 10;
    viewdata *v = viewdata_build(m, &q, NULL, 0);
    const tlview *tv = VD_TL(v);
    assert_null(tv->why);
    assert_string_equal(tv->node, "algo-1");
    assert_int_equal(tv->nrecent, 50);
    assert_int_equal(tv->sb_first, 20);
    assert_int_equal(tv->nsb, 30);
    step_breakdown sb[30];
    assert_int_equal(step_breakdown_node_from(model_find_node(m, "algo-1"), NULL, 20, sb, 30), 30);
    assert_memory_equal(tv->sb, sb, sizeof sb);
    assert_int_equal(tlview_recent_upto(tv, T0 + 9 * 1000000LL), 10);
    viewdata_free(v);
    TL(&q)->view = TLVIEW_EVENTS;
    TL(&q)->order = EW_BY_DURATION;
    v = viewdata_build(m, &q, NULL, 0);
    tv = VD_TL(v);
    int64_t t0, t1;
    viewdata_time_window(v, &t0, &t1);
    event_window *ew = event_window_query(model_find_node(m, "algo-1"), t0, t1, "");
    event_window_sort(ew, EW_BY_DURATION);
    assert_int_equal(tv->nev, event_window_count(ew));
    assert_true(tv->nev > 0);
    for (size_t i = 0; i < tv->nev; i++) {
        assert_true(tv->ev[i].start_us == event_window_at(ew, i)->start_us);
        assert_string_equal(tv->ev[i].label, event_window_at(ew, i)->label);
        assert_true(tv->ev[i].label != event_window_at(ew, i)->label);   /* a copy */
    }
    event_window_free(ew);
    viewdata_free(v);
    model_free(m);
}

/* The quick answer to one pane's new request: with reuse, the panes whose
 * request did not change keep their part (the same one, not a copy),
 * the changed one is rebuilt, and the whole reports generation 0 so the
 * next full build refreshes it. */
static void test_reuse_answers_one_pane(void **state)
{
    (void)state;
    model *m = make_job();
    for (int i = 0; i < 20; i++)
        fx_step(m, "algo-1", i, T0 + i * 1000000LL, 300000);
    viewdata_req q = request();
    STEPS(&q);
    viewdata *a = viewdata_build(m, &q, NULL, 0);
    assert_true(viewdata_model_generation(a) == model_generation(m));
    q.selected = 1;   /* Steps asks for another node; System's range is unchanged */
    viewdata *b = viewdata_build(m, &q, a, 1);
    assert_ptr_equal(VD_SYS(b), VD_SYS(a));
    assert_ptr_equal(VD_HEAT(b), VD_HEAT(a));
    assert_ptr_not_equal(VD_STEPS(b), VD_STEPS(a));
    assert_int_equal(viewdata_model_generation(b), 0);
    viewdata_free(a);   /* b's shared parts outlive a */
    assert_int_equal(sysview_node_count(VD_SYS(b)), NODES);
    viewdata *c = viewdata_build(m, &q, b, 0);
    assert_ptr_not_equal(VD_SYS(c), VD_SYS(b));
    assert_true(viewdata_model_generation(c) == model_generation(m));
    viewdata_free(b);
    viewdata_free(c);
    model_free(m);
}

/* A pane not on screen gets nothing built. */
static void test_only_what_is_asked(void **state)
{
    (void)state;
    model *m = make_job();
    viewdata_req q = request();
    memset(q.ask, 0, sizeof q.ask);
    viewdata *v = viewdata_build(m, &q, NULL, 0);
    assert_null(VD_SYS(v));
    assert_null(VD_HEAT(v));
    assert_int_equal(viewdata_node_total(v), NODES);
    viewdata_free(v);
    model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header_facts),
        cmocka_unit_test(test_system_matches_model),
        cmocka_unit_test(test_system_node_range),
        cmocka_unit_test(test_heatmap_and_straggler),
        cmocka_unit_test(test_steps_matches_model),
        cmocka_unit_test(test_timeline_matches_model),
        cmocka_unit_test(test_reuse_answers_one_pane),
        cmocka_unit_test(test_only_what_is_asked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
