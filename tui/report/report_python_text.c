/* report_python_text: the `python` section as a pstats-like table. */
#include <stdio.h>
#include <string.h>

#include "tui/report/report_python.h"
#include "tui/text/fmt.h"
#include "tui/text/sanitize.h"

static double real(const json_t *o, const char *key)
{
    return json_number_value(json_object_get(o, key));
}

static long long integer(const json_t *o, const char *key)
{
    return (long long)json_integer_value(json_object_get(o, key));
}

static void print_row(const json_t *fn, int counts, FILE *f)
{
    char calls[48], fname[1024];
    long long nc = integer(fn, "ncalls"), pc = integer(fn, "pcalls");
    if (!counts)
        snprintf(calls, sizeof calls, "-");
    else if (nc != pc)
        snprintf(calls, sizeof calls, "%lld/%lld", nc, pc);
    else
        snprintf(calls, sizeof calls, "%lld", nc);
    const char *func = json_string_value(json_object_get(fn, "function"));
    sanitize_str(func, fname, sizeof fname, -1);
    char tpc[32] = "-", cpc[32] = "-";   /* no counts, no per-call times */
    if (counts) {
        fmt_fit(tpc, sizeof tpc, real(fn, "tpercall_s"), 9, 3);
        fmt_fit(cpc, sizeof cpc, real(fn, "cpercall_s"), 9, 3);
    }
    char tot[32], cum[32];
    fprintf(f, "%12s %s %9s %s %9s  %s\n", calls, fmt_fit(tot, sizeof tot, real(fn, "tottime_s"), 9, 3),
            tpc, fmt_fit(cum, sizeof cum, real(fn, "cumtime_s"), 9, 3), cpc, fname);
}

/* The PyTorch profiler's python_function frames (with_stack), each
 * rank's top by self time, as report --json's gpu[].top_python. 0 when
 * no rank has any. */
static int print_kineto_python(const json_t *obj, FILE *f)
{
    const json_t *gpu = json_object_get(obj, "gpu"), *r, *fn;
    size_t i, k;
    int any = 0;
    json_array_foreach(gpu, i, r) {
        const json_t *top = json_object_get(r, "top_python");
        if (!json_array_size(top))
            continue;
        if (!any)
            fprintf(f, "\npython (PyTorch profiler with_stack frames, by self time)\n"
                       "%-24s %8s %10s %10s  %s\n", "rank", "calls", "self", "total", "function");
        any = 1;
        char who[160], name[1024], self[32], tot[32];
        snprintf(who, sizeof who, "%.60s %.60s", json_string_value(json_object_get(r, "node")),
                 json_string_value(json_object_get(r, "process")));
        json_array_foreach(top, k, fn) {
            sanitize_str(json_string_value(json_object_get(fn, "name")), name, sizeof name, -1);
            fprintf(f, "%-24.24s %8lld %10s %10s  %s\n", who, integer(fn, "count"),
                    fmt_duration(self, sizeof self, real(fn, "self_us")),
                    fmt_duration(tot, sizeof tot, real(fn, "sum_us")), name);
        }
    }
    return any;
}

void report_python_print_text(const json_t *obj, FILE *f)
{
    const json_t *py = json_object_get(obj, "python");
    if (!json_is_object(py)) {
        if (!print_kineto_python(obj, f))
            fprintf(f, "\nno Python profiler stats in this job\n");
        return;
    }
    const char *prof = json_string_value(json_object_get(py, "profiler"));
    int counts = prof && strcmp(prof, "cprofile") == 0;
    const json_t *wins = json_object_get(py, "windows");
    fprintf(f, "\npython (%s, %zu window%s, sorted by %s)", counts ? "cProfile" : "pyinstrument",
            json_array_size(wins), json_array_size(wins) == 1 ? "" : "s",
            json_string_value(json_object_get(py, "sort")));
    if (counts)
        fprintf(f, ": %lld function calls (%lld primitive calls) in %.3f seconds",
                integer(py, "total_calls"), integer(py, "primitive_calls"),
                real(py, "total_tt_s"));
    fputc('\n', f);
    long long failed = integer(py, "failed_sessions");
    if (failed)
        fprintf(f, "  %lld failed profiling session%s (pyinstrument wrote no frames)\n",
                failed, failed == 1 ? "" : "s");
    const json_t *top = json_object_get(py, "top"), *fn;
    if (!json_array_size(top)) {
        fprintf(f, "  no functions in the selected windows\n");
        return;
    }
    fprintf(f, "%12s %9s %9s %9s %9s  %s\n", "ncalls", "tottime", "percall", "cumtime",
            "percall", "filename:lineno(function)");
    size_t i;
    json_array_foreach(top, i, fn) print_row(fn, counts, f);
}
