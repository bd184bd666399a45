/* Node writers (model_shard, issue 28): several writers, each bound to
 * its own nodes and fed in another interleaving than one model's single
 * writer, fold into the same model — series, CPU totals, phases, times,
 * generations, drops — and a record of another node is added at the end
 * of its batch; a writer's series room and node registration hold. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "model/model.h"
#include "model_diff.h"

#define NODES 4
#define FILES 3
#define TS0 1700000000000000LL

/* One record of a file: a sample or an event. */
typedef struct rec {
    int is_event;
    sm_sample s;
    sm_event e;
    char node[32], name[32], proc[48];
} rec;

typedef struct file {
    int node;
    uint64_t stream;
    rec r[64];
    size_t n;
} file;

static void fix_strs(rec *r)
{
    if (r->is_event) {
        r->e.node = sm_str_c(r->node);
        r->e.name = sm_str_c(r->name);
        r->e.process = sm_str_c(r->proc);
        r->e.phase = sm_str_c("Step:ModeKeys.TRAIN");
    } else {
        r->s.node = sm_str_c(r->node);
        r->s.name = sm_str_c(r->name);
        r->s.type = sm_str_c(strncmp(r->name, "cpu", 3) ? "gpu" : "cpu");
        r->s.dimension = sm_str_c(strncmp(r->name, "cpu", 3) ? "GPUUtilization"
                                                              : "CPUUtilization");
    }
}

/* File f of node n: 3 timestamps of 4 cores and a GPU, then 2 steps. */
static void make_file(file *fl, int n, int f)
{
    memset(fl, 0, sizeof *fl);
    fl->node = n;
    fl->stream = (uint64_t)(100 + n * FILES + f);
    for (int t = 0; t < 3; t++)
        for (int k = 0; k < 5; k++) {
            rec *r = &fl->r[fl->n++];
            snprintf(r->node, sizeof r->node, "algo-%d", n + 1);
            snprintf(r->name, sizeof r->name, k < 4 ? "cpu%d" : "gpu0", k);
            r->s.ts_us = TS0 + (int64_t)(f * 3 + t) * 500000 + n;
            r->s.value = (double)((n * 7 + f * 5 + t * 3 + k) % 97) + 0.25 * k;
        }
    for (int k = 0; k < 2; k++) {
        rec *r = &fl->r[fl->n++];
        r->is_event = 1;
        snprintf(r->node, sizeof r->node, "algo-%d", n + 1);
        snprintf(r->name, sizeof r->name, "Step:%d", f * 2 + k);
        snprintf(r->proc, sizeof r->proc, "%d-algo-%d", k, n + 1);
        r->e.start_us = TS0 + (int64_t)(f * 2 + k) * 700000 + 13 * n;
        r->e.dur_us = 600000 + 1000 * n;
        r->e.step = f * 2 + k;
        r->e.pid = k;
        r->e.tid = 1;
    }
    if (n == 1 && f == 1) {   /* a time out of range */
        rec *r = &fl->r[fl->n++];
        snprintf(r->node, sizeof r->node, "algo-2");
        snprintf(r->name, sizeof r->name, "gpu0");
        r->s.ts_us = 4200000000000000LL;
        r->s.value = 1;
    }
    if (n == 0 && f == 2) {   /* a line of another node */
        rec *r = &fl->r[fl->n++];
        snprintf(r->node, sizeof r->node, "algo-9");
        snprintf(r->name, sizeof r->name, "gpu0");
        r->s.ts_us = TS0 + 42;
        r->s.value = 3;
    }
    for (size_t i = 0; i < fl->n; i++)
        fix_strs(&fl->r[i]);
}

/* The list order a scanner would use: newest file of every node first. */
static void make_files(file *fl)
{
    for (int f = FILES - 1, i = 0; f >= 0; f--)
        for (int n = 0; n < NODES; n++)
            make_file(&fl[i++], n, f);
}

static void one_writer(model *m, const file *fl, size_t nf)
{
    for (size_t i = 0; i < nf; i++) {
        model_set_stream(m, fl[i].stream);
        for (size_t k = 0; k < fl[i].n; k++)
            if (fl[i].r[k].is_event)
                model_add_event(m, &fl[i].r[k].e);
            else
                model_add_sample(m, &fl[i].r[k].s);
    }
    model_flush(m, 1);
}

/* Two writers: nodes 0 and 2 on one, 1 and 3 on the other, each node's
 * files in list order but node by node; then the fold, the drops file by
 * file and the records kept aside, in list order. */
static void two_writers(model *m, const file *fl, size_t nf)
{
    model_shard *w[2] = {model_shard_new(m), model_shard_new(m)};
    assert_non_null(w[0]);
    assert_non_null(w[1]);
    model_drops delta[NODES * FILES];
    int who[NODES * FILES];
    assert_int_equal(model_reserve_nodes(m, NODES), 0);
    for (int n = NODES - 1; n >= 0; n--) {
        model_shard *sh = w[n % 2];
        char id[32];
        snprintf(id, sizeof id, "algo-%d", n + 1);
        assert_int_equal(model_shard_bind(sh, id, strlen(id), model_series_room(m)), 0);
        for (size_t i = 0; i < nf; i++) {
            if (fl[i].node != n)
                continue;
            model_drops b, a;
            model_shard_get_drops(sh, &b);
            model_shard_set_stream(sh, fl[i].stream);
            model_shard_set_tag(sh, i);
            for (size_t k = 0; k < fl[i].n; k++)
                if (fl[i].r[k].is_event)
                    model_shard_add_event(sh, &fl[i].r[k].e);
                else
                    model_shard_add_sample_ref(sh, &fl[i].r[k].s, NULL);
            model_shard_get_drops(sh, &a);
            delta[i] = (model_drops){a.bad_time - b.bad_time, a.bad_time_us,
                                     a.series_cap - b.series_cap, a.node_cap - b.node_cap};
            who[i] = n % 2;
        }
    }
    assert_int_equal(model_node_count(m), 0);   /* registered by the fold */
    model_fold_shard(m, w[0]);
    model_fold_shard(m, w[1]);
    for (size_t i = 0; i < nf; i++) {
        model_add_drops(m, &delta[i]);
        model_shard_apply_deferred(m, w[who[i]], i);
    }
    model_shard_free(w[0]);
    model_shard_free(w[1]);
    model_flush(m, 1);
}

static void test_fold_equals_one_writer(void **state)
{
    (void)state;
    static file fl[NODES * FILES];
    make_files(fl);
    model *a = model_new(NULL), *b = model_new(NULL);
    one_writer(a, fl, NODES * FILES);
    two_writers(b, fl, NODES * FILES);
    model_diff d = mdiff_compare(a, b);
    assert_true(d.series > 0 && d.phases > 0);
    if (d.mismatches)
        fail_msg("%lld mismatches, first: %s", (long long)d.mismatches, d.first);
    assert_int_equal(model_node_count(a), NODES + 1);
    assert_int_equal(model_node_count(b), NODES + 1);
    for (size_t i = 0; i < model_node_count(a); i++)
        assert_string_equal(model_node_id(model_node_at(a, i)), model_node_id(model_node_at(b, i)));
    assert_int_equal(model_generation(a), model_generation(b));
    assert_int_equal(model_system_generation(a), model_system_generation(b));
    assert_int_equal(model_event_generation(a), model_event_generation(b));
    assert_int_equal(model_first_us(a), model_first_us(b));
    assert_int_equal(model_last_us(a), model_last_us(b));
    assert_int_equal(model_last_sample_us(a), model_last_sample_us(b));
    assert_int_equal(model_last_event_us(a), model_last_event_us(b));
    job_phases pa, pb;
    model_get_job_phases(a, &pa);
    model_get_job_phases(b, &pb);
    assert_memory_equal(&pa, &pb, sizeof pa);
    assert_true(pa.has_steps);
    model_drops da, db;
    model_get_drops(a, &da);
    model_get_drops(b, &db);
    assert_int_equal(da.bad_time, 1);
    assert_memory_equal(&da, &db, sizeof da);
    /* The CPU total came out of every node's cores in both. */
    const series *ta = model_node_cpu_total(model_find_node(a, "algo-3"));
    const series *tb = model_node_cpu_total(model_find_node(b, "algo-3"));
    assert_non_null(ta);
    assert_non_null(tb);
    series_summary sa, sb;
    series_get_summary(ta, &sa);
    series_get_summary(tb, &sb);
    assert_int_equal(sa.count, sb.count);
    assert_true(sa.count > 0);
    model_free(a);
    model_free(b);
}

/* A writer makes no more series on its node than its room; the one past
 * it is counted as a series-cap drop. */
static void test_room(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    model_shard *w = model_shard_new(m);
    assert_int_equal(model_shard_bind(w, "algo-1", 6, 2), 0);
    const char *names[] = {"gpu0", "gpu1", "gpu2"};
    int rc[3];
    for (int k = 0; k < 3; k++) {
        sm_sample s = {.type = sm_str_c("gpu"), .dimension = sm_str_c("GPUUtilization"),
                       .name = sm_str_c(names[k]), .node = sm_str_c("algo-1"),
                       .value = 1, .ts_us = TS0};
        rc[k] = model_shard_add_sample_ref(w, &s, NULL);
    }
    assert_int_equal(rc[0], 0);
    assert_int_equal(rc[1], 0);
    assert_int_equal(rc[2], 1);
    model_drops d;
    model_shard_get_drops(w, &d);
    assert_int_equal(d.series_cap, 1);
    assert_int_equal(model_reserve_nodes(m, 1), 0);
    model_fold_shard(m, w);
    assert_int_equal(model_node_count(m), 1);
    assert_int_equal(model_node_series_count(model_node_at(m, 0)), 2);
    assert_int_equal(model_series_room(m), MODEL_SERIES_MAX - 2);
    model_shard_free(w);
    model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fold_equals_one_writer),
        cmocka_unit_test(test_room),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
