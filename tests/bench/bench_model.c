/* bench_model: ingest cost of model_add_sample, and series_query cost.
 *
 * 10 M samples: 4 nodes x 50 series (40 CPU cores feeding the total,
 * 10 GPUs), ascending timestamps every 500 ms, lines of one node and
 * timestamp consecutive, as in real system files. Prints ns/sample for
 * each of 5 runs and the median; baseline in the same run: a loop that
 * only builds the records (what the decoder hands over).
 *
 * Build and run (not part of ctest):
 *   cmake --build build-model --target smtop_model
 *   gcc -O2 -std=c11 -D_GNU_SOURCE -I. tests/bench/bench_model.c \
 *       build-model/libsmtop_model.a -lm -o /tmp/bench_model && /tmp/bench_model */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/model.h"

#define NODES 4
#define SERIES 50
#ifndef TOTAL
#define TOTAL 10000000L
#endif

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static char names[SERIES][16], nodes[NODES][16];

static void fill(sm_sample *s, int node, int k, int64_t ts)
{
    int cpu = k < 40;
    s->type = sm_str_c(cpu ? "cpu" : "gpu");
    s->dimension = sm_str_c(cpu ? "CPUUtilization" : "GPUUtilization");
    s->name = (sm_str){names[k], strlen(names[k])};
    s->node = (sm_str){nodes[node], strlen(nodes[node])};
    s->value = (double)((k * 7 + ts / 500000) % 100);
    s->ts_us = ts;
    s->extra = (sm_str){NULL, 0};
}

static double run(int ingest, volatile double *sink)
{
    model *m = ingest ? model_new(NULL) : NULL;
    sm_sample s;
    long n = 0;
    double t = now_s();
    for (int64_t step = 0; n < TOTAL; step++)
        for (int nd = 0; nd < NODES; nd++)
            for (int k = 0; k < SERIES && n < TOTAL; k++, n++) {
                fill(&s, nd, k, 1591748100000000LL + step * 500000);
                if (ingest)
                    model_add_sample(m, &s);
                else
                    *sink += s.value;
            }
    double ns = (now_s() - t) * 1e9 / TOTAL;
    if (ingest) {
        const series *tot = model_node_cpu_total(model_node_at(m, 0));
        series_summary sum;
        series_get_summary(tot, &sum);
        *sink += sum.mean;
        /* series_query: 200 bins over the 2048 raw samples of one core. */
        const series *c = model_node_cpu_core(model_node_at(m, 0), 0);
        series_get_summary(c, &sum);
        series_bin bins[200];
        int reps = 20000;
        double q0 = now_s();
        for (int r = 0; r < reps; r++)
            series_query(c, sum.last_us - 2048LL * 500000, sum.last_us + 1, 200, bins);
        printf("  series_query 200 bins / 2048 raw: %.2f us\n", (now_s() - q0) * 1e6 / reps);
        model_free(m);
    }
    return ns;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    volatile double sink = 0;
    for (int k = 0; k < SERIES; k++)
        snprintf(names[k], sizeof names[k], k < 40 ? "cpu%d" : "gpu%d", k < 40 ? k : k - 40);
    for (int i = 0; i < NODES; i++)
        snprintf(nodes[i], sizeof nodes[i], "algo-%d", i + 1);
    double base = run(0, &sink), r[5];
    for (int i = 0; i < 5; i++) {
        r[i] = run(1, &sink);
        printf("run %d: %.1f ns/sample\n", i + 1, r[i]);
    }
    qsort(r, 5, sizeof *r, cmp);
    printf("model_add_sample: median %.1f ns/sample (record-building baseline %.1f ns)\n",
           r[2], base);
    return sink == 12345.0;
}
