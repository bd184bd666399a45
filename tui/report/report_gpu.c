/* report_gpu: the "gpu" array of `report --json`, one row per PyTorch
 * profiler rank (model_gpu.h), each summed over all its traces: HTA's
 * temporal and kernel-type breakdowns, comm/compute overlap, idle by
 * cause, launch statistics, top kernels and CPU ops, GPU memory. Names
 * come from the traces: unescaped and sanitized (kineto_str_sanitize). */
#include "tui/report/report_gpu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/kineto_decode.h"
#include "model/core/model_gpu.h"

#define TOP_N 10

static json_t *num_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *name_json(const gpu_stat *s)
{
    char buf[1024];
    kineto_str_sanitize((sm_str){s->name, s->len}, buf, sizeof buf);
    return json_string(buf);
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
                        json_pack("{s:I, s:I, s:I}", "host_wait_us", (json_int_t)g->host_wait_us,
                                  "kernel_wait_us", (json_int_t)g->kernel_wait_us, "other_us",
                                  (json_int_t)g->other_idle_us));
    json_object_set_new(o, "launch",
                        json_pack("{s:I, s:I, s:o, s:o}", "count", (json_int_t)g->launch.count,
                                  "short_kernels", (json_int_t)g->launch.short_kernels,
                                  "delay_p50_us", num_or_null(g->launch.delay_p50_us),
                                  "delay_p95_us", num_or_null(g->launch.delay_p95_us)));
    json_object_set_new(o, "top_kernels", top_rows(gpu_rank_kernels(row->gpu), 1));
    json_object_set_new(o, "top_ops", top_rows(gpu_rank_ops(row->gpu), 0));
    json_object_set_new(o, "top_python", top_rows(gpu_rank_python(row->gpu), 0));
    json_object_set_new(o, "memory",
                        json_pack("{s:f, s:f, s:I}", "peak_allocated_mb",
                                  g->memory.peak_allocated_mb, "peak_reserved_mb",
                                  g->memory.peak_reserved_mb, "oom_events",
                                  (json_int_t)g->memory.oom_events));
    return o;
}

json_t *report_gpu_json(const model *m)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < model_gpu_count(m); i++)
        json_array_append_new(a, row_json(model_gpu_at(m, i)));
    return a;
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
}
