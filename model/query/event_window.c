/* event_window: see event_window.h. */
#include "model/query/event_window.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "model/util/vec.h"

struct event_window {
    ew_event *ev;
    size_t n, cap;
};

/* Case-insensitive substring test; an empty needle matches everything. */
static int label_matches(const char *label, const char *needle)
{
    if (!needle || !*needle)
        return 1;
    size_t nl = strlen(needle);
    for (const char *s = label; *s; s++) {
        size_t i = 0;
        while (i < nl && s[i] &&
               tolower((unsigned char)s[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == nl)
            return 1;
    }
    return 0;
}

static int reserve(event_window *w, size_t more)
{
    return vec_grow(&w->ev, &w->cap, w->n + more, sizeof *w->ev, 16);
}

/* Appends phase p's retained events overlapping [t0, t1). -1 on OOM. */
static int add_phase(event_window *w, const phase_stats *p, int64_t t0, int64_t t1,
                     phase_event *buf)
{
    size_t k = phase_stats_in_range(p, t0, t1, buf, PHASE_RECENT_CAP);
    if (k == 0)
        return 0;
    if (reserve(w, k))
        return -1;
    for (size_t i = 0; i < k; i++)
        w->ev[w->n++] = (ew_event){buf[i].start_us, buf[i].dur_us, buf[i].step,
                                   phase_stats_label(p), phase_stats_kind(p)};
    return 0;
}

static int cmp_start(const void *a, const void *b)
{
    const ew_event *x = a, *y = b;
    if (x->start_us != y->start_us)
        return x->start_us < y->start_us ? -1 : 1;
    return strcmp(x->label, y->label);
}

static int cmp_duration(const void *a, const void *b)
{
    const ew_event *x = a, *y = b;
    if (x->dur_us != y->dur_us)
        return x->dur_us > y->dur_us ? -1 : 1;
    return cmp_start(a, b);
}

event_window *event_window_query(const model_node *n, int64_t t0_us, int64_t t1_us,
                                 const char *name)
{
    event_window *w = calloc(1, sizeof *w);
    if (!w || !n || t1_us <= t0_us)
        return w;
    phase_event *buf = malloc(PHASE_RECENT_CAP * sizeof *buf);
    if (!buf) {
        free(w);
        return NULL;
    }
    for (size_t i = 0; i < model_node_phase_count(n); i++) {
        const phase_stats *p = model_node_phase_at(n, i);
        if (!label_matches(phase_stats_label(p), name))
            continue;
        if (add_phase(w, p, t0_us, t1_us, buf)) {
            free(buf);
            event_window_free(w);
            return NULL;
        }
    }
    free(buf);
    event_window_sort(w, EW_BY_START);
    return w;
}

void event_window_free(event_window *w)
{
    if (!w)
        return;
    free(w->ev);
    free(w);
}

size_t event_window_count(const event_window *w)
{
    return w ? w->n : 0;
}

const ew_event *event_window_at(const event_window *w, size_t i)
{
    return w && i < w->n ? &w->ev[i] : NULL;
}

void event_window_sort(event_window *w, ew_order order)
{
    /* qsort with a NULL base is undefined even for zero elements. */
    if (!w || w->n < 2)
        return;
    qsort(w->ev, w->n, sizeof *w->ev, order == EW_BY_DURATION ? cmp_duration : cmp_start);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* A sweep over sorted starts and ends: ends at the same instant as a start
 * are processed first, so back-to-back events do not count as parallel. */
long event_window_max_concurrency(const event_window *w)
{
    size_t n = event_window_count(w);
    if (n == 0)
        return 0;
    int64_t *s = malloc(n * sizeof *s), *e = malloc(n * sizeof *e);
    if (!s || !e) {
        free(s);
        free(e);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        s[i] = w->ev[i].start_us;
        /* a zero-length event still occupies its instant */
        e[i] = w->ev[i].start_us + (w->ev[i].dur_us > 0 ? w->ev[i].dur_us : 1);
    }
    qsort(s, n, sizeof *s, cmp_i64);
    qsort(e, n, sizeof *e, cmp_i64);
    long cur = 0, best = 0;
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        while (j < n && e[j] <= s[i]) {
            j++;
            cur--;
        }
        if (++cur > best)
            best = cur;
    }
    free(s);
    free(e);
    return best;
}
