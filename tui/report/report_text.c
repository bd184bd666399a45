/* report_text: the human-readable rendering of the report object. Strings
 * from data go through sanitize_text: a report piped to a terminal must not
 * carry escape sequences from a node id either. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "tui/text/fmt.h"
#include "tui/report/report_gpu.h"
#include "tui/report/report.h"
#include "tui/report/report_places.h"
#include "tui/report/report_python.h"
#include "tui/report/report_rules.h"
#include "tui/report/report_unit.h"
#include "tui/text/sanitize.h"
#include "tui/text/timearg.h"

static const char *str(const json_t *o, const char *key, char *buf, size_t cap)
{
    const char *s = json_string_value(json_object_get(o, key));
    sanitize_text(s ? s : "", s ? strlen(s) : 0, buf, cap, (int)cap - 1);
    return buf;
}

static double real(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static void print_header(const json_t *obj, FILE *f)
{
    char buf[512], t0[40], t1[40];
    const json_t *tr = json_object_get(obj, "time_range");
    int64_t s = (int64_t)real(tr, "start_us"), e = (int64_t)real(tr, "end_us");
    fprintf(f, "smtop report: %s\n", str(obj, "source", buf, sizeof buf));
    report_places_print_text(obj, f);
    const json_t *sys = json_object_get(obj, "system_source");
    if (sys)   /* not Debugger's files */
        fprintf(f, "system:       %s, one host mean every %lld s\n", str(sys, "name", buf, sizeof buf),
                (long long)real(sys, "interval_s"));
    if (s && e) {
        char dur[32];
        fmt_duration(dur, sizeof dur, (double)(e - s));
        fprintf(f, "time range:   %s .. %s (%s)\n", timearg_format(s, t0, sizeof t0),
                timearg_format(e, t1, sizeof t1), dur);
    } else {
        fprintf(f, "time range:   no data\n");
    }
    const json_t *sum = json_object_get(obj, "summary");
    if (sum) {
        char p50[48] = "no training steps";
        double nodes = real(sum, "nodes"), sn = real(sum, "step_nodes");
        if (!isnan(real(sum, "step_p50_us"))) {
            char d[32];
            fmt_duration(d, sizeof d, real(sum, "step_p50_us"));
            snprintf(p50, sizeof p50, "step p50 %s", d);
        }
        fprintf(f, "nodes:        %.0f; %s", nodes, p50);
        if (sn > 1)
            fprintf(f, " (median of %.0f nodes' TRAIN p50)", sn);
        fputc('\n', f);
        /* The job list's GPU/CPU/MEM % (jobsum's newest 5 minutes), from
         * the summary the JSON gives, to 0.1 ("-" where the job has none;
         * a huge value in %g form, so the line stays within 80 columns). */
        static const char *const now_keys[] = {"gpu_pct", "cpu_pct", "mem_pct"};
        static const char *const now_names[] = {"GPU", "CPU", "MEM"};
        fprintf(f, "newest 5 min:");
        for (int i = 0; i < 3; i++) {
            double v = real(sum, now_keys[i]);
            char num[48];
            const char *t = "-", *unit = "";
            if (!isnan(v)) {
                for (t = fmt_fit(num, sizeof num, v, 8, 1); *t == ' '; t++)
                    ;
                unit = " %";
            }
            fprintf(f, "%s%s %s%s", i ? "  " : " ", now_names[i], t, unit);
        }
        fputc('\n', f);
    }
    const json_t *w = json_object_get(obj, "warnings");
    double tread = real(w, "traces_read"), tu = real(w, "traces_unread");
    if (tread > 0 || tu > 0)
        fprintf(f, "traces:       %.0f read%s", tread, tu > 0 ? "" : "\n");
    if (tu > 0)
        fprintf(f, ", %.0f not read (see warnings)\n", tu);
    const json_t *jp = json_object_get(obj, "job_phases");
    if (json_is_true(json_object_get(jp, "has_steps"))) {
        char a[32], b[32], c[32];
        fmt_duration(a, sizeof a, real(jp, "init_us"));
        fmt_duration(b, sizeof b, real(jp, "training_us"));
        fmt_duration(c, sizeof c, real(jp, "finalization_us"));
        fprintf(f, "job phases:   initialization %s, training %s, finalization %s\n", a, b, c);
    }
}

/* The node the dashboard's heatmap marks, in the same words. */
static void print_straggler(const json_t *obj, FILE *f)
{
    const json_t *s = json_object_get(obj, "straggler");
    char node[128], a[32], b[32];
    if (!json_is_object(s)) {
        fprintf(f, "straggler:    none (the Straggler rule did not fire: see rules)\n");
        return;
    }
    const char *metric = json_string_value(json_object_get(s, "metric"));
    int steps = metric && !strcmp(metric, "step_p50");
    if (steps) {
        fmt_duration(a, sizeof a, real(s, "value_us"));
        fmt_duration(b, sizeof b, real(s, "median_us"));
    } else {
        fmt_percent(a, sizeof a, real(s, "value_pct"));
        fmt_percent(b, sizeof b, real(s, "median_pct"));
    }
    fprintf(f, "straggler:    %s: %s %s vs median %s (%.0f%% off)\n", str(s, "node", node, sizeof node),
            steps ? "step p50" : "gpu", a, b, real(s, "deviation_pct"));
}

/* A percentile as the report prints it: "~" in front when approximate
 * (the JSON states the bound), right-aligned in width w. */
static const char *pct(char *buf, size_t cap, int w, const json_t *o, const char *key,
                       const char *text)
{
    int approx = json_is_false(json_object_get(o, "exact_percentiles"));
    char v[48], num[40];
    if (!text) {   /* fits with its "~": a huge value never widens the column */
        text = fmt_fit(num, sizeof num, real(o, key), w - approx, 2);
        while (*text == ' ')
            text++;
    }
    snprintf(v, sizeof v, "%s%s", approx ? "~" : "", text);
    snprintf(buf, cap, "%*s", w, v);
    return buf;
}

/* A metric's unit as a reader writes it: "%", "MB/s", "bytes" ("-"
 * when the data names none). */
static const char *unit_text(const json_t *m, char *buf, size_t cap)
{
    static const struct { const char *key, *text; } units[] = {
        {"pct", "%"}, {"bytes", "bytes"}, {"kb", "kB"}, {"mb", "MB"}, {"gb", "GB"},
        {"bytes_per_s", "B/s"}, {"kb_per_s", "kB/s"}, {"mb_per_s", "MB/s"},
        {"gb_per_s", "GB/s"},
    };
    const char *u = json_string_value(json_object_get(m, "unit"));
    snprintf(buf, cap, "-");
    for (size_t i = 0; u && i < sizeof units / sizeof units[0]; i++)
        if (!strcmp(u, units[i].key))
            snprintf(buf, cap, "%s", units[i].text);
    return buf;
}

static void print_nodes(const json_t *obj, FILE *f)
{
    size_t i, k;
    const json_t *node, *m;
    int approx = 0;
    json_array_foreach(json_object_get(obj, "nodes"), i, node) {
        char id[128];
        str(node, "id", id, sizeof id);
        if (!json_array_size(json_object_get(node, "metrics"))) {
            /* A node seen only in framework traces: say so rather than print
             * an empty table that reads like a loader failure. */
            fprintf(f, "\nnode %s: no system metrics (framework trace events only)\n", id);
            continue;
        }
        long long cpus = (long long)real(node, "cpus"), gpus = (long long)real(node, "gpus");
        fprintf(f, "\nnode %s: %lld CPU%s, %lld GPU%s\n", id, cpus, cpus == 1 ? "" : "s", gpus,
                gpus == 1 ? "" : "s");
        fprintf(f, "  %-8s %-22s %-18s %-6s %8s %9s %9s %9s %9s %9s\n", "type", "dimension",
                "name", "unit", "count", "min", "mean", "p50", "p95", "max");
        json_array_foreach(json_object_get(node, "metrics"), k, m) {
            char t[32], d[64], n[64], p50[48], p95[48], lo[48], mean[48], hi[48];
            char k50[48], k95[48], u[16];
            fprintf(f, "  %-8s %-22s %-18s %-6s %8lld %s %s %s %s %s\n",
                    str(m, "type", t, sizeof t), str(m, "dimension", d, sizeof d),
                    str(m, "name", n, sizeof n), unit_text(m, u, sizeof u),
                    (long long)real(m, "count"),
                    fmt_fit(lo, sizeof lo, report_unit_get(m, "min"), 9, 2),
                    fmt_fit(mean, sizeof mean, report_unit_get(m, "mean"), 9, 2),
                    pct(p50, sizeof p50, 9, m, report_unit_key(k50, sizeof k50, m, "p50"), NULL),
                    pct(p95, sizeof p95, 9, m, report_unit_key(k95, sizeof k95, m, "p95"), NULL),
                    fmt_fit(hi, sizeof hi, report_unit_get(m, "max"), 9, 2));
            approx |= json_is_false(json_object_get(m, "exact_percentiles"));
        }
    }
    if (approx)
        fprintf(f, "\n~ past 1024 samples: utilization within 0.05 points, other metrics "
                   "within 1 %% (report --json: percentile_error)\n");
}

/* Writers of `node` among the step rows: how many, and the first. */
static size_t node_writers(const json_t *steps, const char *node, const char **first)
{
    size_t i, n = 0;
    const json_t *s;
    const char *last = NULL;
    *first = NULL;
    json_array_foreach(steps, i, s) {
        const char *p = json_string_value(json_object_get(s, "process"));
        const char *nd = json_string_value(json_object_get(s, "node"));
        if (!p || !nd || strcmp(nd, node) || (last && !strcmp(last, p)))
            continue;
        if (!*first)
            *first = p;
        last = p;   /* rows of one writer are consecutive */
        n++;
    }
    return n;
}

/* The process column of a row: a writer's id; on a node's pooled row the
 * node's only writer, or "all N" over its N writers (their rows follow).
 * NULL: the row repeats the node's only writer and is not printed. */
static const char *process_cell(const json_t *steps, const json_t *s, char *buf, size_t cap)
{
    const char *nd = json_string_value(json_object_get(s, "node"));
    const char *p = json_string_value(json_object_get(s, "process"));
    const char *first;
    size_t n = node_writers(steps, nd ? nd : "", &first);
    if (p)
        return n == 1 ? NULL : str(s, "process", buf, cap);
    if (n == 1) {
        sanitize_text(first, strlen(first), buf, cap, (int)cap - 1);
        return buf;
    }
    snprintf(buf, cap, n ? "all %zu" : "-", n);
    return buf;
}

static void print_steps(const json_t *obj, FILE *f)
{
    const json_t *steps = json_object_get(obj, "steps"), *s;
    if (!json_array_size(steps)) {
        fprintf(f, "\nno framework trace events in this job (system metrics only)\n");
        return;
    }
    /* Columns as wide as the longest name: TF phase names such as
     * "IteratorGetNextOp::DoCompute" would otherwise shift the numbers. */
    size_t i;
    int nw = 12, ww = 9, pw = 26;
    json_array_foreach(steps, i, s) {
        char n[64], w[64], p[64];
        int a = (int)strlen(str(s, "node", n, sizeof n)), b = (int)strlen(str(s, "phase", p, sizeof p));
        int c = (int)strlen(str(s, "process", w, sizeof w));
        nw = a > nw ? a : nw;
        ww = c > ww ? c : ww;
        pw = b > pw ? b : pw;
    }
    fprintf(f, "\n%-*s %-*s %-*s %7s %10s %10s %10s %10s %10s\n", nw, "node", ww, "process",
            pw, "phase", "count", "mean", "p50", "p95", "p99", "max");
    double rel = 0;   /* the widest bound of a printed approximate row */
    json_array_foreach(steps, i, s) {
        char n[64], w[64], p[64], v[5][32], q[3][48];
        const char *proc = process_cell(steps, s, w, sizeof w);
        if (!proc)
            continue;
        fmt_duration(v[0], sizeof v[0], real(s, "mean_us"));
        fmt_duration(v[1], sizeof v[1], real(s, "p50_us"));
        fmt_duration(v[2], sizeof v[2], real(s, "p95_us"));
        fmt_duration(v[3], sizeof v[3], real(s, "p99_us"));
        fmt_duration(v[4], sizeof v[4], real(s, "max_us"));
        fprintf(f, "%-*s %-*s %-*s %7lld %10s %s %s %s %10s\n",
                nw, str(s, "node", n, sizeof n), ww, proc, pw, str(s, "phase", p, sizeof p),
                (long long)real(s, "count"), v[0], pct(q[0], sizeof q[0], 10, s, NULL, v[1]),
                pct(q[1], sizeof q[1], 10, s, NULL, v[2]),
                pct(q[2], sizeof q[2], 10, s, NULL, v[3]), v[4]);
        if (json_is_false(json_object_get(s, "exact_percentiles"))) {
            double r = real(json_object_get(s, "percentile_error"), "rel");
            rel = r > rel ? r : rel;
        }
    }
    if (rel > 0)
        fprintf(f, "\n~ step times past the exact range: within %g %% (report --json: "
                   "percentile_error)\n", 100 * rel);
}

static void print_warnings(const json_t *obj, FILE *f)
{
    const json_t *w = json_object_get(obj, "warnings");
    long long c = (long long)real(w, "corrupt_lines"), p = (long long)real(w, "partial_lines"),
              s = (long long)real(w, "skipped_files"), u = (long long)real(w, "unread_files");
    if (!c && !p && !s && !u && !json_array_size(json_object_get(w, "messages")))
        return;
    fprintf(f, "\nwarnings: %lld corrupt lines, %lld partial lines, %lld skipped files, "
               "%lld files not read\n", c, p, s, u);
    size_t i;
    const json_t *m;
    json_array_foreach(json_object_get(w, "messages"), i, m) {
        char buf[SCANNER_MSG_LEN * 2];
        const char *t = json_string_value(m);
        sanitize_text(t, strlen(t), buf, sizeof buf, (int)sizeof buf - 1);
        fprintf(f, "  %s\n", buf);
    }
}

/* What a reader needs first, in one screen: the rules that fired, the
 * straggler and idle GPU-hours (then the details follow). */
static void print_verdict(const json_t *obj, FILE *f)
{
    char line[1024];
    fprintf(f, "\n== verdict ==\n");
    fprintf(f, "verdict:      %s\n", str(json_object_get(obj, "verdict"), "line", line, sizeof line));
    report_rules_print_verdict(obj, f);
    print_straggler(obj, f);
}

void report_print_summary(const json_t *obj, FILE *f)
{
    print_header(obj, f);
    print_verdict(obj, f);
}

void report_print_text(const json_t *obj, FILE *f)
{
    print_header(obj, f);
    print_verdict(obj, f);
    report_rules_print_causes(obj, f);
    fprintf(f, "\n== details ==\n");
    print_nodes(obj, f);
    print_steps(obj, f);
    report_gpu_print_text(obj, f);
    report_python_print_text(obj, f);
    report_rules_print_text(obj, f);
    print_warnings(obj, f);
}
