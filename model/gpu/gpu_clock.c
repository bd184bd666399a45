/* gpu_clock: see gpu_clock.h. */
#include "model/gpu/gpu_clock.h"

#include <stdlib.h>

#include "model/util/stable_sort.h"

typedef struct at_span {
    int64_t t0, t1;
    size_t i;
} at_span;

STABLE_SORT_DEFINE(sort_spans, at_span, A.t0 < B.t0)

static int near_sys(const gpu_span *s, const gpu_span *sys)
{
    return s->t1_us + GPU_CLOCK_NEAR_SYS_US >= sys->t0_us &&
           s->t0_us <= sys->t1_us + GPU_CLOCK_NEAR_SYS_US;
}

/* Numbers the chains of a (sorted), chain[k] for a[k]; returns the one
 * with the most members, or SIZE_MAX on a tie or when there is one. */
static size_t job_chain(const at_span *a, size_t n, size_t *chain, gpu_span *job)
{
    size_t c = 0, run = 0, best = SIZE_MAX, best_n = 0, ties = 0;
    int64_t end = a[0].t1, lo = a[0].t0;
    gpu_span best_span = {0, 0};
    for (size_t k = 0; k <= n; k++) {
        if (k == n || (k > 0 && a[k].t0 > end + GPU_CLOCK_NEAR_TRACES_US)) {
            if (run > best_n) {
                best = c, best_n = run, ties = 0, best_span = (gpu_span){lo, end};
            } else if (run == best_n) {
                ties++;
            }
            if (k == n)
                break;
            c++, run = 0, lo = a[k].t0, end = a[k].t1;
        }
        chain[k] = c;
        run++;
        end = a[k].t1 > end ? a[k].t1 : end;
    }
    if (c == 0 || ties)
        return SIZE_MAX;
    *job = best_span;
    return best;
}

static int far_by_traces(const gpu_span *sp, size_t n, uint8_t *far, gpu_span *job)
{
    at_span *a = malloc(2 * n * sizeof *a);
    size_t *chain = malloc(n * sizeof *chain);
    if (!a || !chain) {
        free(a);
        free(chain);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        a[i] = (at_span){sp[i].t0_us, sp[i].t1_us, i};
    sort_spans(a, a + n, n);
    size_t best = job_chain(a, n, chain, job);
    int count = 0;
    for (size_t k = 0; k < n; k++) {
        far[a[k].i] = best != SIZE_MAX && chain[k] != best;
        count += far[a[k].i];
    }
    free(a);
    free(chain);
    return count;
}

int gpu_clock_far_off(const gpu_span *sp, size_t n, const gpu_span *sys, uint8_t *far,
                      gpu_span *job)
{
    if (n == 0)
        return 0;
    if (!sys)
        return far_by_traces(sp, n, far, job);
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        far[i] = !near_sys(&sp[i], sys);
        count += far[i];
    }
    if (count)
        *job = *sys;
    return count;
}
