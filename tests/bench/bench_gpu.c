/* bench_gpu: what model/gpu's analysis costs per event, against a plain
 * pass over the same records in the same run (issue 25's speed goal is the
 * decoder's; the analysis behind it must not be the bottleneck).
 *
 * Loads the given Kineto traces once through the test tree's reference
 * loader into memory (events with their own copies of the strings), then
 * times, each REPS times (median, thread CPU time):
 *   plain     every record read once: its name hashed (idmap_hash) and
 *             its times summed: the least any consumer of the records does;
 *   analysis  gpu_trace_new, gpu_trace_add of every event, gpu_trace_end,
 *             gpu_rank_merge, per file.
 *
 * Build and run (not part of ctest):
 *   cmake --build build --target smtop_model
 *   gcc -O2 -std=c11 -D_GNU_SOURCE -I. tests/bench/bench_gpu.c \
 *       build/libsmtop_model.a -ljansson -lz -lm -o /tmp/bench_gpu
 *   /tmp/bench_gpu 5 ../shared/samples/kineto/NAME/FILE.json.gz ...
 *   (arguments: REPS FILE...) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/gpu/gpu_rank.h"
#include "model/gpu/gpu_trace.h"
#include "model/util/idmap.h"
#include "tests/unit/kineto_jansson.h"

typedef struct file_events {
    sm_kevent *ev;
    size_t n, cap;
    sm_kmeta meta;
} file_events;

static sm_str own(sm_str s)
{
    char *p = malloc(s.len + 1);
    if (!p)
        exit(1);
    memcpy(p, s.ptr, s.len);
    p[s.len] = 0;
    return (sm_str){p, s.len};
}

static int keep(const sm_kevent *ev, void *ctx)
{
    file_events *f = ctx;
    if (f->n == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 4096;
        f->ev = realloc(f->ev, f->cap * sizeof *f->ev);
        if (!f->ev)
            exit(1);
    }
    sm_kevent *e = &f->ev[f->n++];
    *e = *ev;
    e->name = own(ev->name);
    e->pid_str = own(ev->pid_str);
    e->tid_str = own(ev->tid_str);
    e->collective = own(ev->collective);
    return 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static volatile uint64_t sink;

static void plain(const file_events *f, size_t nf)
{
    uint64_t h = 0;
    for (size_t i = 0; i < nf; i++)
        for (size_t k = 0; k < f[i].n; k++)
            h += idmap_hash(&f[i].ev[k].name, 1) + (uint64_t)f[i].ev[k].ts_ns +
                 (uint64_t)f[i].ev[k].dur_ns;
    sink = h;
}

static void analysis(const file_events *f, size_t nf)
{
    gpu_rank *r = gpu_rank_new();
    for (size_t i = 0; i < nf; i++) {
        gpu_trace *t = gpu_trace_new(NULL);
        for (size_t k = 0; k < f[i].n; k++)
            gpu_trace_add(t, &f[i].ev[k]);
        gpu_trace_end(t, &f[i].meta);
        gpu_rank_merge(r, t);
        gpu_trace_free(t);
    }
    sink = (uint64_t)gpu_rank_summary(r)->span_us;
    gpu_rank_free(r);
}

static double median_of(void (*fn)(const file_events *, size_t), const file_events *f,
                        size_t nf, int reps)
{
    double *d = calloc((size_t)reps, sizeof *d);
    for (int i = 0; i < reps; i++) {
        double t0 = now();
        fn(f, nf);
        d[i] = now() - t0;
    }
    qsort(d, (size_t)reps, sizeof *d, cmp_d);
    double m = d[reps / 2];
    free(d);
    return m;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_gpu REPS FILE...\n");
        return 2;
    }
    int reps = atoi(argv[1]);
    size_t nf = (size_t)argc - 2, events = 0;
    file_events *f = calloc(nf, sizeof *f);
    for (size_t i = 0; i < nf; i++) {
        kj_file kf;
        if (kj_load(&kf, argv[i + 2], keep, &f[i]) != 0) {
            fprintf(stderr, "%s\n", kf.err);
            return 1;
        }
        f[i].meta = kf.meta;   /* its strings are not used by the analysis */
        f[i].meta.backend = f[i].meta.host_name = (sm_str){"", 0};
        kj_free(&kf);
        events += f[i].n;
    }
    double p = median_of(plain, f, nf, reps), a = median_of(analysis, f, nf, reps);
    printf("%zu files, %zu events, median of %d\n", nf, events, reps);
    printf("plain     %8.2f ms  %6.1f ns/event\n", p * 1e3, p * 1e9 / (double)events);
    printf("analysis  %8.2f ms  %6.1f ns/event  %.1fx plain, %.2f M events/s\n", a * 1e3,
           a * 1e9 / (double)events, a / p, (double)events / a / 1e6);
    return 0;
}
