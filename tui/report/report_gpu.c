/* report_gpu: the "gpu" array of `report --json`, one row per PyTorch
 * profiler rank (model_gpu.h), each summed over all its traces: HTA's
 * temporal and kernel-type breakdowns, comm/compute overlap, idle by
 * cause, launch statistics, top kernels and CPU ops, GPU memory. Names
 * come from the traces, cleaned once when each was kept (gpu_table.h). */
#include "tui/report/report_gpu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/kineto_decode.h"
#include "model/util/sanitize.h"
#include "model/core/model_gpu.h"

#define TOP_N 10

static json_t *num_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* A name as the report has always cut it: at most 1023 bytes. Names are
 * clean since their trace was kept (gpu_table.h). */
#define NAME_BYTES 1023

static json_t *name_json(const gpu_stat *s)
{
    return json_stringn(s->name, sanitize_cut(s->name, s->len, NAME_BYTES));
}

static json_t *kernel_types(const gpu_summary *g)
{
    json_t *a = json_array();
    for (int set = 1; set < 8; set++)
        if (g->ktype_us[set] > 0)
            json_array_append_new(a, json_pack("{s:s, s:I, s:o}", "type", gpu_ktype_name(set),
                                               "sum_us", (json_int_t)g->ktype_us[set], "pct",
                                               num_or_null(g->ktype_pct[set])));
    return a;
}

/* The first TOP_N rows of t by sum (kernels) or self time (ops). */
static json_t *top_rows(const gpu_table *t, int kernels)
{
    size_t n = 0;
    const gpu_stat **s = gpu_table_sorted(t, !kernels, &n);
    json_t *a = json_array();
    for (size_t i = 0; i < n && i < TOP_N; i++) {
        const gpu_stat *r = s[i];
        double mean = r->count ? (double)r->sum_us / (double)r->count : 0;
        json_t *o = kernels
            ? json_pack("{s:o, s:s, s:I, s:I, s:f, s:I}", "name", name_json(r), "type",
                        gpu_ktype_name(r->type), "count", (json_int_t)r->count, "sum_us",
                        (json_int_t)r->sum_us, "mean_us", mean, "max_us", (json_int_t)r->max_us)
            : json_pack("{s:o, s:I, s:I, s:I, s:f}", "name", name_json(r), "count",
                        (json_int_t)r->count, "self_us", (json_int_t)r->self_us, "sum_us",
                        (json_int_t)r->sum_us, "mean_us", mean);
        json_array_append_new(a, o);
    }
    free(s);
    return a;
}

static json_t *name_us_json(const char *name, size_t len)
{
    char buf[1024];
    kineto_str_sanitize((sm_str){name, len}, buf, sizeof buf);
    return json_string(buf);
}

/* HTA's critical path summed over the rank's steps: its length, its
 * split by bound_by class and the events with the most time on it. */
static json_t *critical_path_json(const gpu_summary *g)
{
    json_t *pct = json_object(), *top = json_array();
    for (int b = 0; b < GPU_BOUND_N; b++)
        json_object_set_new(pct, gpu_bound_name(b), num_or_null(g->critical_path.bound_pct[b]));
    for (size_t i = 0; i < g->critical_path.n_top; i++) {
        const gpu_name_us *e = &g->critical_path.top[i];
        json_array_append_new(top, json_pack("{s:o, s:s, s:I}", "name",
                                             name_us_json(e->name, e->len), "kind",
                                             gpu_nt_name(e->table), "us", (json_int_t)e->us));
    }
    return json_pack("{s:I, s:I, s:I, s:o, s:o}", "steps", (json_int_t)g->critical_path.steps,
                     "failed_steps", (json_int_t)g->critical_path.failed, "path_us",
                     (json_int_t)g->critical_path.path_us, "bound_pct", pct, "top_events", top);
}

static json_t *tid_json(int64_t tid)
{
    return tid >= 0 ? json_integer(tid) : json_null();
}

/* What the host did while the GPU waited: each (name, kind, thread) row
 * and each thread's share of the idle time. */
static json_t *idle_causes_json(const gpu_summary *g)
{
    json_t *a = json_array();
    for (size_t i = 0; i < g->idle_attr.n_causes; i++) {
        const gpu_idle_cause *c = &g->idle_attr.causes[i];
        json_array_append_new(a, json_pack("{s:o, s:s, s:o, s:I, s:o}", "name",
                                           name_us_json(c->name, c->len), "kind",
                                           gpu_idle_kind_name(c->kind), "thread", tid_json(c->tid),
                                           "overlap_us", (json_int_t)c->overlap_us, "pct_of_idle",
                                           num_or_null(c->pct_of_idle)));
    }
    return a;
}

static json_t *idle_threads_json(const gpu_summary *g)
{
    json_t *a = json_array();
    for (size_t i = 0; i < g->idle_attr.n_threads; i++) {
        const gpu_thread_share *t = &g->idle_attr.threads[i];
        json_array_append_new(a, json_pack("{s:o, s:I, s:o}", "thread", tid_json(t->tid),
                                           "busy_us", (json_int_t)t->busy_us, "pct_of_idle",
                                           num_or_null(t->pct_of_idle)));
    }
    return a;
}

static json_t *row_json(const model_gpu_row *row)
{
    const gpu_summary *g = gpu_rank_summary(row->gpu);
    json_t *o = json_pack(
        "{s:s, s:s, s:o, s:I, s:I, s:I, s:b, s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:o}",
        "node", row->node, "process", row->process, "rank",
        row->rank >= 0 ? json_integer(row->rank) : json_null(), "traces", (json_int_t)g->traces,
        "unplaced_traces", (json_int_t)row->unplaced, "steps", (json_int_t)g->steps, "has_gpu",
        g->has_gpu, "span_us", (json_int_t)g->span_us, "idle_us", (json_int_t)g->idle_us,
        "compute_us", (json_int_t)g->compute_us, "non_compute_us", (json_int_t)g->non_compute_us,
        "idle_pct", num_or_null(g->idle_pct), "compute_pct", num_or_null(g->compute_pct),
        "non_compute_pct", num_or_null(g->non_compute_pct), "comm_comp_overlap_pct",
        g->has_comm ? num_or_null(g->comm_comp_overlap_pct) : json_null());
    json_object_set_new(o, "kernel_types", kernel_types(g));
    json_object_set_new(o, "idle_breakdown",
                        json_pack("{s:I, s:I, s:I, s:{s:I, s:I, s:I}}",
                                  "host_wait_us", (json_int_t)g->host_wait_us,
                                  "kernel_wait_us", (json_int_t)g->kernel_wait_us,
                                  "other_us", (json_int_t)g->other_idle_us, "rank",
                                  "host_wait_us", (json_int_t)g->idle_host_wait_us,
                                  "kernel_wait_us", (json_int_t)g->idle_kernel_wait_us,
                                  "other_us", (json_int_t)g->idle_other_us));
    json_object_set_new(o, "launch",
                        json_pack("{s:I, s:I, s:o, s:o}", "count", (json_int_t)g->launch.count,
                                  "short_kernels", (json_int_t)g->launch.short_kernels,
                                  "delay_p50_us", num_or_null(g->launch.delay_p50_us),
                                  "delay_p95_us", num_or_null(g->launch.delay_p95_us)));
    json_object_set_new(o, "top_kernels", top_rows(gpu_rank_kernels(row->gpu), 1));
    json_object_set_new(o, "top_ops", top_rows(gpu_rank_ops(row->gpu), 0));
    json_object_set_new(o, "top_python", top_rows(gpu_rank_python(row->gpu), 0));
    json_object_set_new(o, "backend", g->backend && g->backend[0] ? json_string(g->backend)
                                                                  : json_null());
    json_object_set_new(o, "critical_path", critical_path_json(g));
    json_object_set_new(o, "idle_causes", idle_causes_json(g));
    json_object_set_new(o, "idle_threads", idle_threads_json(g));
    json_object_set_new(o, "host_comm_us", json_integer(g->idle_attr.host_comm_us));
    json_object_set_new(o, "memory",
                        json_pack("{s:f, s:f, s:I}", "peak_allocated_mb",
                                  g->memory.peak_allocated_mb, "peak_reserved_mb",
                                  g->memory.peak_reserved_mb, "oom_events",
                                  (json_int_t)g->memory.oom_events));
    return o;
}

/* Rank i's row. Built on the dumping thread alone (report_stream_array,
 * not _par), as the whole array was: the ranks' readers are not among
 * what model_settle makes safe on several threads (HACKING). */
static int rank_part(const void *m, size_t i, json_t *arr)
{
    return json_array_append_new(arr, row_json(model_gpu_at(m, i)));
}

json_t *report_gpu_json(const model *m, report_stream *st)
{
    return report_stream_array(st, model_gpu_count(m), rank_part, m, NULL);
}

static double field(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* "12.3" or "-" for a percentage. */
static const char *pct_cell(char *buf, size_t cap, double v)
{
    if (isfinite(v))
        snprintf(buf, cap, "%.1f", v);
    else
        snprintf(buf, cap, "-");
    return buf;
}

/* "a, b" of up to n names with their share: "aten::mm 41 %". */
static void print_list(FILE *f, const json_t *arr, const char *name_key, const char *val_key,
                       double whole, size_t n)
{
    const json_t *e;
    size_t i;
    json_array_foreach(arr, i, e) {
        if (i >= n)
            break;
        const char *name = json_string_value(json_object_get(e, name_key));
        double v = field(e, val_key);
        fprintf(f, "%s%.60s %.0f %%", i ? ", " : "", name ? name : "?",
                whole > 0 ? 100.0 * v / whole : 0);
    }
}

/* Per rank: the backend, HTA's critical path by class with its top
 * events, and what the host did while the GPU waited, by event and by
 * thread. */
static void print_rank_causes(const json_t *r, FILE *f)
{
    const json_t *cp = json_object_get(r, "critical_path");
    const char *be = json_string_value(json_object_get(r, "backend"));
    fprintf(f, "%s %s: backend %s\n", json_string_value(json_object_get(r, "node")),
            json_string_value(json_object_get(r, "process")), be ? be : "unknown");
    double path = field(cp, "path_us");
    if (path > 0) {
        fprintf(f, "  critical path (HTA, %.0f steps, %.1f ms):", field(cp, "steps"), path / 1000);
        const char *k;
        const json_t *v;
        json_object_foreach(json_object_get(cp, "bound_pct"), k, v)
            if (json_is_number(v) && json_number_value(v) >= 0.5)
                fprintf(f, " %s %.0f %%", k, json_number_value(v));
        fprintf(f, "\n    most time on it: ");
        print_list(f, json_object_get(cp, "top_events"), "name", "us", path, 5);
        fputc('\n', f);
    } else if (field(cp, "failed_steps") > 0) {
        fprintf(f, "  critical path: none found in %.0f steps\n", field(cp, "failed_steps"));
    } else {
        fprintf(f, "  critical path: no step analysed\n");
    }
    const json_t *ic = json_object_get(r, "idle_causes");
    if (!json_array_size(ic)) {
        fprintf(f, "  while the GPU was idle: nothing on the host recorded\n");
        return;
    }
    fprintf(f, "  while the GPU was idle in the steps (share of that time, what, thread):\n");
    const json_t *e;
    size_t i;
    json_array_foreach(ic, i, e) {
        if (i >= 8)
            break;
        const json_t *t = json_object_get(e, "thread");
        char th[32] = "-";
        if (json_is_integer(t))
            snprintf(th, sizeof th, "%lld", (long long)json_integer_value(t));
        fprintf(f, "    %5.1f %%  %-10s thread %-8s %.90s\n", field(e, "pct_of_idle"),
                json_string_value(json_object_get(e, "kind")), th,
                json_string_value(json_object_get(e, "name")));
    }
    fprintf(f, "    by thread: ");
    json_array_foreach(json_object_get(r, "idle_threads"), i, e) {
        const json_t *t = json_object_get(e, "thread");
        fprintf(f, "%s%lld %.0f %%", i ? ", " : "", (long long)json_integer_value(t),
                field(e, "pct_of_idle"));
    }
    fputc('\n', f);
}

void report_gpu_print_text(const json_t *obj, FILE *f)
{
    const json_t *gpu = json_object_get(obj, "gpu"), *r;
    if (!json_array_size(gpu))
        return;
    fprintf(f, "\nGPU (PyTorch profiler traces; HTA's definitions, each trace's last step "
               "left out)\n%-16s %-10s %6s %6s %6s %8s %8s %8s %10s %9s  %s\n", "node",
            "process", "traces", "steps", "idle%", "compute%", "other%", "overlap%",
            "launch p50", "peak MB", "top kernel");
    size_t i;
    json_array_foreach(gpu, i, r) {
        char c[4][16];
        const json_t *top = json_array_get(json_object_get(r, "top_kernels"), 0);
        const char *tk = top ? json_string_value(json_object_get(top, "name")) : "-";
        double p50 = field(json_object_get(r, "launch"), "delay_p50_us");
        char launch[24];
        if (isfinite(p50))
            snprintf(launch, sizeof launch, "%.0f us", p50);
        else
            snprintf(launch, sizeof launch, "-");
        fprintf(f, "%-16.16s %-10.10s %6.0f %6.0f %6s %8s %8s %8s %10s %9.0f  %.60s\n",
                json_string_value(json_object_get(r, "node")),
                json_string_value(json_object_get(r, "process")), field(r, "traces"),
                field(r, "steps"), pct_cell(c[0], sizeof c[0], field(r, "idle_pct")),
                pct_cell(c[1], sizeof c[1], field(r, "compute_pct")),
                pct_cell(c[2], sizeof c[2], field(r, "non_compute_pct")),
                pct_cell(c[3], sizeof c[3], field(r, "comm_comp_overlap_pct")), launch,
                field(json_object_get(r, "memory"), "peak_allocated_mb"), tk ? tk : "-");
    }
    fprintf(f, "\nGPU: what the steps waited for, per rank\n");
    json_array_foreach(gpu, i, r) print_rank_causes(r, f);
}
