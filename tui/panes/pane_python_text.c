/* pane_python_text: the python pane's pure text helpers (pane_python.h). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "tui/panes/pane_python.h"
#include "tui/text/sanitize.h"

size_t pane_python_func_text(const pystats_func *f, int cols, char *out, size_t cap)
{
    char full[1024], file[768], tail[512];
    if (cap == 0)
        return 0;
    if (cols < 1) {
        out[0] = '\0';
        return 0;
    }
    int builtin = strcmp(f->file, "~") == 0 && f->line == 0;
    if (!builtin) {
        char name[400];
        sanitize_str(f->file, file, sizeof file, -1);
        sanitize_str(f->name, name, sizeof name, -1);
        snprintf(tail, sizeof tail, ":%lld(%s)", (long long)f->line, name);
        int tc = sanitize_cols(tail), fc = sanitize_cols(file);
        if (tc + fc > cols && tc + 2 <= cols) {
            /* Drop whole characters from the left of the path until it fits. */
            const char *p = file;
            while (*p && sanitize_cols(p) > cols - tc - 1) {
                p++;
                while ((*p & 0xC0) == 0x80)
                    p++;
            }
            int n = snprintf(out, cap, "~%s%s", p, tail);
            return (size_t)n < cap ? (size_t)n : cap - 1;
        }
    }
    pystats_func_format(f, full, sizeof full);
    return sanitize_fit(full, out, cap, cols);
}

/* Counts past 10 digits (crafted or saturated data) in short e-notation,
 * so that the column keeps its width. */
static void count_text(int64_t v, char *out, size_t cap)
{
    if (v >= 10000000000LL || v <= -1000000000LL)
        snprintf(out, cap, "%.1e", (double)v);
    else
        snprintf(out, cap, "%lld", (long long)v);
}

void pane_python_calls_text(const pystats_call *c, int counts, char *out, size_t cap)
{
    char nc[32], pc[32];
    count_text(c->ncalls, nc, sizeof nc);
    count_text(c->pcalls, pc, sizeof pc);
    if (!counts)
        snprintf(out, cap, "-");
    else if (c->ncalls != c->pcalls)
        snprintf(out, cap, "%s/%s", nc, pc);
    else
        snprintf(out, cap, "%s", nc);
}

static int contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] &&
               tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return 1;
    }
    return n == 0;
}

int pane_python_filter_match(const pystats_func *f, const char *filter)
{
    return !filter[0] || contains_ci(f->name, filter) || contains_ci(f->file, filter);
}

pystats_sort pane_python_next_sort(pystats_sort k)
{
    return (pystats_sort)(((int)k + 1) % PYSORT_COUNT);
}
