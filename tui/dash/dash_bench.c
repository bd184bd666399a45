/* dash_bench: the hidden `--bench-frames N` mode — scans the job to the
 * end, builds the derived snapshot once (as the loader would after its
 * last pass), then times N full redraws (every pane dirty, one doupdate
 * each) and prints the medians of the frame to stderr (frames take no
 * lock). Lives in the real binary so the benchmark
 * measures the real drawing code; see tests/bench/ and BENCHMARKS.md. */
#include "tui/dash/dash_internal.h"

#include <stdlib.h>
#include <time.h>

static double clock_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double mono_ms(void)
{
    return clock_ms(CLOCK_MONOTONIC);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int dash_bench(dash *d)
{
    sm_err err = {0};
    double t_scan = mono_ms();
    for (int pass = 0; pass < 10000; pass++) {
        if (job_scan(d->j, &err) != 0)
            break;
        scan_stats st;
        scanner_get_stats(job_scanner(d->j), &st);
        if (st.files_pending == 0)
            break;
    }
    t_scan = mono_ms() - t_scan;
    /* One frame lets the panes ask for their products (the Python merge),
     * then the viewbuild builds them: outside the timed frames, as the
     * loader thread does. */
    double t_derive = mono_ms();
    dash_frame(d);
    dash_derive_take(d);
    t_derive = mono_ms() - t_derive;
    long n = d->o->bench_frames;
    /* Wall time, and this thread's CPU time, which stays meaningful on a
     * loaded machine (no loader thread runs in this mode). */
    double *ms = malloc(sizeof *ms * (size_t)n * 2), *cpu = ms + n;
    if (!ms)
        return -1;
    for (long i = 0; i < n; i++) {
        for (size_t k = 0; k < d->npanes; k++)
            d->panes[k].dirty = d->panes[k].border_dirty = 1;
        d->hdr_last[0] = d->st_last[0] = '\0';
        double t = mono_ms(), c = clock_ms(CLOCK_THREAD_CPUTIME_ID);
        dash_frame(d);
        ms[i] = mono_ms() - t;
        cpu[i] = clock_ms(CLOCK_THREAD_CPUTIME_ID) - c;
    }
    qsort(ms, (size_t)n, sizeof *ms, cmp_double);
    qsort(cpu, (size_t)n, sizeof *cpu, cmp_double);
    const viewdata *vd = d->snap ? viewsnap_view(d->snap) : NULL;
    fprintf(stderr, "bench: %zu nodes, %dx%d terminal, scan %.0f ms; %ld full redraws: "
            "wall median %.3f ms, p95 %.3f ms, max %.3f ms; cpu median %.3f ms, p95 %.3f ms\n",
            vd ? viewdata_node_total(vd) : 0, d->lay.cols, d->lay.rows, t_scan, n,
            ms[n / 2], ms[(long)(n * 0.95)], ms[n - 1], cpu[n / 2], cpu[(long)(n * 0.95)]);
    fprintf(stderr, "bench: frames take no model lock; derived products built once in "
            "%.0f ms (outside the frames)\n", t_derive);
    /* Where the time goes: each pane alone (the others stay clean). */
    for (size_t k = 0; k < d->npanes; k++) {
        long reps = n < 200 ? n : 200;
        for (long i = 0; i < reps; i++) {
            d->panes[k].dirty = 1;
            double c = clock_ms(CLOCK_THREAD_CPUTIME_ID);
            dash_frame(d);
            cpu[i] = clock_ms(CLOCK_THREAD_CPUTIME_ID) - c;
        }
        qsort(cpu, (size_t)reps, sizeof *cpu, cmp_double);
        fprintf(stderr, "bench:   %-8s pane alone: cpu median %.3f ms\n",
                d->panes[k].vt->id, cpu[reps / 2]);
    }
    free(ms);
    return 0;
}
