/* report_rules_text: the rules, device-usage and idle-GPU sections of the
 * text report, rendered from the same JSON object as --json. */
#include <stdio.h>
#include <string.h>

#include "tui/report/report_rules.h"
#include "tui/text/fmt.h"
#include "tui/text/sanitize.h"

static const char *safe(const json_t *o, const char *key, char *buf, size_t cap,
                        int cols)
{
    const char *s = json_string_value(json_object_get(o, key));
    sanitize_str(s ? s : "", buf, cap, cols);
    return buf;
}

static double real(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : 0;
}

static void sagemaker_cell(const json_t *rule, char *buf, size_t cap)
{
    const json_t *sm = json_object_get(rule, "sagemaker");
    if (!sm) {
        snprintf(buf, cap, "-");
        return;
    }
    snprintf(buf, cap, "%s %lld/%lld",
             json_is_true(json_object_get(sm, "triggered")) ? "triggered" : "ok",
             (long long)real(sm, "violations"), (long long)real(sm, "datapoints"));
}

static void print_rules(const json_t *obj, FILE *f)
{
    const json_t *arr = json_object_get(obj, "rules"), *r;
    if (!arr)
        return;
    fprintf(f, "\nrules (SageMaker's verdict from rule-output beside smtop's)\n");
    fprintf(f, "  %-24s %-9s %-6s %15s  %-18s %s\n", "rule", "status", "sev",
            "violations/pts", "sagemaker", "why");
    size_t i;
    json_array_foreach(arr, i, r) {
        char name[64], st[16], sev[16], why[800], sm[40], counts[40];
        const json_t *d = json_object_get(r, "details");
        snprintf(counts, sizeof counts, "%lld/%lld", (long long)real(r, "violations"),
                 (long long)real(r, "datapoints"));
        sagemaker_cell(r, sm, sizeof sm);
        fprintf(f, "  %-24s %-9s %-6s %15s  %-18s %s\n",
                safe(r, "name", name, sizeof name, 24),
                safe(r, "status", st, sizeof st, 9),
                safe(r, "severity", sev, sizeof sev, 6), counts, sm,
                safe(d, "message", why, sizeof why, -1));   /* never cut: a pipe keeps it whole */
    }
    const json_t *errs = json_object_get(obj, "rule_output_errors"), *e;
    json_array_foreach(errs, i, e) {
        char buf[600];
        sanitize_str(json_string_value(e), buf, sizeof buf, -1);
        fprintf(f, "  rule-output: %s\n", buf);
    }
}

static void print_usage(const json_t *obj, FILE *f)
{
    const json_t *arr = json_object_get(obj, "device_usage"), *u;
    if (json_array_size(arr)) {
        fprintf(f, "\ndevice usage (share of samples)\n  %-18s %-8s %8s %8s %8s\n",
                "node", "device", ">90%", "10-90%", "<10%");
        size_t i;
        json_array_foreach(arr, i, u) {
            char n[64], d[32], a[32], b[32], c[32];
            fprintf(f, "  %-18s %-8s %s%% %s%% %s%%\n",
                    safe(u, "node", n, sizeof n, 18), safe(u, "device", d, sizeof d, 8),
                    fmt_fit(a, sizeof a, real(u, "above_90_pct"), 7, 1),
                    fmt_fit(b, sizeof b, real(u, "between_10_90_pct"), 7, 1),
                    fmt_fit(c, sizeof c, real(u, "below_10_pct"), 7, 1));
        }
    }
    arr = json_object_get(obj, "idle_gpu_hours");
    if (json_array_size(arr)) {
        fprintf(f, "\nidle GPU-hours (GPU time under 10%% utilization)\n"
                "  %-18s %5s %10s %10s\n", "node", "gpus", "gpu-hours", "idle");
        size_t i;
        json_array_foreach(arr, i, u) {
            char n[64], h[32], idle[32];
            fprintf(f, "  %-18s %5lld %s %s\n", safe(u, "node", n, sizeof n, 18),
                    (long long)real(u, "gpus"), fmt_fit(h, sizeof h, real(u, "gpu_hours"), 10, 3),
                    fmt_fit(idle, sizeof idle, real(u, "idle_gpu_hours"), 10, 3));
        }
    }
}

/* The verdict's rule lines: every rule that fired, most severe first,
 * with its one-line reason; "none" when none did. */
static void verdict_rules(const json_t *obj, FILE *f)
{
    static const char *const sev[] = {"high", "medium", "low"};
    const json_t *arr = json_object_get(obj, "rules"), *r;
    int any = 0;
    for (size_t s = 0; s < 3; s++) {
        size_t i;
        json_array_foreach(arr, i, r) {
            const char *st = json_string_value(json_object_get(r, "status"));
            const char *sv = json_string_value(json_object_get(r, "severity"));
            if (!st || strcmp(st, "triggered") || !sv || strcmp(sv, sev[s]))
                continue;
            char name[64], why[800];
            fprintf(f, "  %-6s %-22s %s\n", sev[s], safe(r, "name", name, sizeof name, 22),
                    safe(json_object_get(r, "details"), "message", why, sizeof why, -1));
            any = 1;
        }
    }
    if (!any)
        fprintf(f, "  no rule fired\n");
}

/* Idle GPU-hours over the job and the node with the most. */
static void verdict_idle(const json_t *obj, FILE *f)
{
    const json_t *arr = json_object_get(obj, "idle_gpu_hours"), *u, *worst = NULL;
    double total = 0, idle = 0;
    size_t i;
    json_array_foreach(arr, i, u) {
        total += real(u, "gpu_hours");
        idle += real(u, "idle_gpu_hours");
        if (!worst || real(u, "idle_gpu_hours") > real(worst, "idle_gpu_hours"))
            worst = u;
    }
    if (!worst || total <= 0) {
        fprintf(f, "idle GPU:     no GPU metrics\n");
        return;
    }
    char n[64];
    fprintf(f, "idle GPU:     %.2f of %.2f GPU-hours under 10%% utilization (%.0f%%); "
               "most on %s (%.2f)\n", idle, total, 100.0 * idle / total,
            safe(worst, "node", n, sizeof n, 40), real(worst, "idle_gpu_hours"));
}

/* 1 when a verdict finding tells rule `name`. */
static int finding_tells(const json_t *findings, const char *name)
{
    const json_t *x;
    size_t i;
    json_array_foreach(findings, i, x) {
        const char *r = json_string_value(json_object_get(x, "rule"));
        if (r && !strcmp(r, name))
            return 1;
    }
    return 0;
}

/* Every fired rule a finding does not tell, with its cause and fix. */
static void rule_causes(const json_t *obj, const json_t *findings, FILE *f)
{
    const json_t *r;
    size_t i;
    json_array_foreach(json_object_get(obj, "rules"), i, r) {
        const char *name = json_string_value(json_object_get(r, "name"));
        if (!json_is_string(json_object_get(r, "cause")) || finding_tells(findings, name))
            continue;
        char n[64], buf[800];
        fprintf(f, "  %-6s %s\n", json_string_value(json_object_get(r, "severity")),
                safe(r, "name", n, sizeof n, 40));
        fprintf(f, "         cause:   %s\n", safe(r, "cause", buf, sizeof buf, -1));
        fprintf(f, "         fix:     %s\n", safe(r, "fix", buf, sizeof buf, -1));
        fprintf(f, "         look at: %s\n", safe(r, "evidence", buf, sizeof buf, -1));
    }
}

/* The verdict's findings, worst first, each with its cause, fix and where
 * to look (model/view/verdict.h), then the fired rules no finding tells. */
void report_rules_print_causes(const json_t *obj, FILE *f)
{
    const json_t *arr = json_object_get(json_object_get(obj, "verdict"), "findings"), *x;
    fprintf(f, "\n== causes and fixes ==\n");
    if (!json_array_size(arr))
        fprintf(f, "  nothing to fix\n");
    size_t i;
    json_array_foreach(arr, i, x) {
        char text[400], buf[800];
        fprintf(f, "  %-6s %s\n", json_string_value(json_object_get(x, "severity")),
                safe(x, "text", text, sizeof text, -1));
        static const char *const keys[] = {"cause", "fix", "evidence"};
        static const char *const heads[] = {"cause:   ", "fix:     ", "look at: "};
        for (size_t k = 0; k < 3; k++)
            if (json_is_string(json_object_get(x, keys[k])))
                fprintf(f, "         %s%s\n", heads[k], safe(x, keys[k], buf, sizeof buf, -1));
    }
    rule_causes(obj, arr, f);
}

void report_rules_print_verdict(const json_t *obj, FILE *f)
{
    fprintf(f, "rules fired:\n");
    verdict_rules(obj, f);
    verdict_idle(obj, f);
}

void report_rules_print_text(const json_t *obj, FILE *f)
{
    print_rules(obj, f);
    print_usage(obj, f);
}
