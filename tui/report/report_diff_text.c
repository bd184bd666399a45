/* report_diff_text: the diff object as a side-by-side table. Values that
 * came from data (node ids, phase and function names) are sanitized. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tui/report/report_diff.h"
#include "tui/text/fmt.h"
#include "tui/text/sanitize.h"

/* Changes smaller than this (percent) are shown as unchanged. */
#define DIFF_EPS_PCT 0.05

void report_diff_format_value(char *out, size_t cap, double v, int is_us)
{
    if (!isfinite(v))
        snprintf(out, cap, "-");
    else if (is_us)
        snprintf(out, cap, "%.1f ms", v / 1000.0);
    else   /* as wide as any ordinary value at most: 1e308 keeps the table */
        fmt_fit(out, cap, v, 12, 2), memmove(out, out + strspn(out, " "), strlen(out) + 1);
}

int report_diff_mark(const json_t *row, char *out, size_t cap, int utf8)
{
    const json_t *c = json_object_get(row, "change_pct");
    double b, t;
    report_diff_row_values(row, &b, &t);
    if (!json_is_number(c)) {
        snprintf(out, cap, "%s", b == t ? "=" : "(no baseline)");
        return 0;
    }
    double p = json_number_value(c);
    if (fabs(p) < DIFF_EPS_PCT) {
        snprintf(out, cap, "=");
        return 0;
    }
    snprintf(out, cap, "%+.1f %% %s", p,
             utf8 ? (p > 0 ? "\u25b2" : "\u25bc") : (p > 0 ? "+" : "-"));
    return p > 0 ? 1 : -1;
}

static void print_change(const json_t *row, FILE *f, int utf8)
{
    char mark[48];
    report_diff_mark(row, mark, sizeof mark, utf8);
    fprintf(f, "  %s", mark);
}

/* 1 when row's change is below the noise threshold (percent): hidden. */
static int quiet(const json_t *row, double threshold)
{
    const json_t *c = json_object_get(row, "change_pct");
    return json_is_number(c) && fabs(json_number_value(c)) < threshold;
}

/* Returns how many rows the threshold hid. */
static size_t section(const json_t *d, const char *key, const char *title,
                      const char *k1, const char *k2, int is_us, FILE *f, int utf8,
                      double threshold)
{
    const json_t *arr = json_object_get(d, key);
    size_t i, hidden = 0, shown = 0;
    const json_t *r;
    json_array_foreach(arr, i, r)
        hidden += quiet(r, threshold);
    if (json_array_size(arr) == hidden)
        return hidden;
    fprintf(f, "\n%s\n", title);
    json_array_foreach(arr, i, r) {
        if (quiet(r, threshold))
            continue;
        shown++;
        char a[96], b[96], vb[32], vt[32];
        const char *sa = json_string_value(json_object_get(r, k1));
        const char *sb = k2 ? json_string_value(json_object_get(r, k2)) : NULL;
        const char *stat = json_string_value(json_object_get(r, "stat"));
        char both[160];
        int sl = stat ? (int)strcspn(stat, "_") : 0;   /* "p95_us" → "p95" */
        snprintf(both, sizeof both, "%s%s%.*s", sb ? sb : "", stat ? " " : "", sl,
                 stat ? stat : "");
        const char *tn = json_string_value(json_object_get(r, "target_node"));
        char nodes[200];
        if (sa && tn && strcmp(sa, tn)) {   /* each job's own node */
            snprintf(nodes, sizeof nodes, "%s -> %s", sa, tn);
            sa = nodes;
        }
        sanitize_str(sa ? sa : "", a, sizeof a, -1);   /* labels are never cut */
        sanitize_str(both, b, sizeof b, -1);
        if (!strcmp(k1, "process"))   /* a rank: both sides' names */
            report_diff_rank_label(r, a, sizeof a);
        double nb, nt;
        report_diff_row_values(r, &nb, &nt);
        report_diff_format_value(vb, sizeof vb, nb, is_us);
        report_diff_format_value(vt, sizeof vt, nt, is_us);
        if (k2 && !strcmp(k1, "process"))
            fprintf(f, "  %-40s %-24s %12s -> %-12s", a, b, vb, vt);
        else if (k2)
            fprintf(f, "  %-24s %-26s %12s -> %-12s", a, b, vb, vt);
        else
            fprintf(f, "  %-52s %12s -> %-12s", a, vb, vt);
        print_change(r, f, utf8);
        fputc('\n', f);
    }
    (void)shown;
    return hidden;
}

/* The TRAIN p50 rows (else the first step phase's): the job-wide change
 * (median over nodes, target against base) and the node that changed
 * most, in one line a reader meets first. */
static void headline(const json_t *d, FILE *f)
{
    const json_t *arr = json_object_get(d, "steps"), *r, *worst = NULL;
    double base[512], target[512];
    size_t i, n = 0;
    json_array_foreach(arr, i, r) {
        const char *stat = json_string_value(json_object_get(r, "stat"));
        const char *phase = json_string_value(json_object_get(r, "phase"));
        if (!stat || strcmp(stat, "p50_us") || !phase || !strstr(phase, "TRAIN") || n >= 512)
            continue;
        report_diff_row_values(r, &base[n], &target[n]);
        if (!isfinite(base[n]) || !isfinite(target[n]) || base[n] <= 0)
            continue;
        n++;
        const json_t *c = json_object_get(r, "change_pct");
        if (json_is_number(c) && (!worst || fabs(json_number_value(c)) >
                                  fabs(json_number_value(json_object_get(worst, "change_pct")))))
            worst = r;
    }
    if (n == 0) {
        fputs("headline: no TRAIN steps in both jobs to compare\n", f);
        return;
    }
    /* Medians over nodes (insertion sort: a few hundred at most). */
    for (int k = 0; k < 2; k++) {
        double *v = k ? target : base;
        for (size_t a = 1; a < n; a++)
            for (size_t b = a; b > 0 && v[b - 1] > v[b]; b--) {
                double t = v[b];
                v[b] = v[b - 1];
                v[b - 1] = t;
            }
    }
    double mb = (base[(n - 1) / 2] + base[n / 2]) / 2, mt = (target[(n - 1) / 2] + target[n / 2]) / 2;
    fprintf(f, "headline: TRAIN p50 %+.0f %% job-wide", 100.0 * (mt - mb) / mb);
    if (worst) {
        char node[96];
        const char *s = json_string_value(json_object_get(worst, "node"));
        sanitize_str(s ? s : "", node, sizeof node, -1);
        fprintf(f, ", worst %s %+.0f %%", node,
                json_number_value(json_object_get(worst, "change_pct")));
    }
    fputc('\n', f);
}

void report_diff_print_text(const json_t *d, FILE *f, int utf8, double threshold)
{
    char b[256], t[256];
    const char *sb = json_string_value(json_object_get(d, "base"));
    const char *st = json_string_value(json_object_get(d, "target"));
    sanitize_str(sb ? sb : "?", b, sizeof b, 200);
    sanitize_str(st ? st : "?", t, sizeof t, 200);
    fprintf(f, "base:   %s\ntarget: %s\n", b, t);
    headline(d, f);
    size_t hidden = section(d, "steps", "Step time (base -> target)", "node", "phase", 1, f,
                            utf8, threshold);
    hidden += section(d, "utilization", "Mean utilization, %", "node", "metric", 0, f, utf8,
                      threshold);
    hidden += section(d, "breakdown", "Mean time per TRAIN step by category", "node",
                      "category", 1, f, utf8, threshold);
    hidden += section(d, "python", "Top Python functions, tottime s", "function", NULL, 0, f,
                      utf8, threshold);
    hidden += section(d, "gpu", "GPU time by rank, % of the profiled span", "process", "metric",
                      0, f, utf8, threshold);
    hidden += section(d, "gpu_kernel_types", "GPU kernel types by rank, % of GPU time",
                      "process", "type", 0, f, utf8, threshold);
    hidden += section(d, "gpu_steps", "Mean step by rank, GPU time split", "process",
                      "category", 1, f, utf8, threshold);
    hidden += section(d, "gpu_critical_path", "Critical path by rank, % of the path",
                      "process", "class", 0, f, utf8, threshold);
    report_diff_print_kernels(d, f);
    long long ch = (long long)json_integer_value(json_object_get(d, "changed"));
    long long noise = (long long)json_integer_value(json_object_get(d, "noise_rows"));
    if (ch)
        fprintf(f, "\n%lld values changed; %lld under the noise floor left out (0 -> 0, or "
                   "under 1 %% or 0.1 ms); %zu rows under %g %% hidden (--threshold).\n", ch,
                noise, hidden, threshold);
    else
        fprintf(f, "\nNo change: the two jobs show the same figures (%lld under the noise "
                   "floor left out).\n", noise);
}
