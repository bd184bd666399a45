/* bench_first_frame: how long a dashboard on JOB waits until every node
 * shows its newest minute of system metrics.
 *
 * Opens JOB as the dashboard does (job_open with wait_for_data, a loader
 * thread scanning every 5 s) and, every 2 ms, looks at the model under the
 * job's lock as a frame would: it prints the milliseconds from start until
 * the first node appears, and until NODES nodes each have a sample of some
 * metric at or after NEWEST (epoch seconds: the start of the job's newest minute).
 * Built against whichever tree's libraries the bench script links, so the
 * same program measures the baseline and the new scanner.
 *
 *   bench_first_frame JOB NODES NEWEST_EPOCH_S [TIMEOUT_S]
 *   → "first_data_ms=… all_nodes_ms=…" (all_nodes_ms=-1 on timeout) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "io/run/job.h"
#include "io/run/loader.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Nodes with a series reaching newest_us; *any set when a node exists. */
static size_t nodes_current(job *j, int64_t newest_us, int *any)
{
    model *m = job_model(j);
    size_t n = model_node_count(m), ok = 0;
    *any = n > 0;
    for (size_t i = 0; i < n; i++) {
        const model_node *nd = model_node_at(m, i);
        for (size_t k = 0; k < model_node_series_count(nd); k++) {
            int64_t first, last;
            if (series_extent(model_node_series_at(nd, k), &first, &last) && last >= newest_us) {
                ok++;
                break;
            }
        }
    }
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s JOB NODES NEWEST_EPOCH_S [TIMEOUT_S]\n", argv[0]);
        return 2;
    }
    size_t want = (size_t)atol(argv[2]);
    int64_t newest_us = atoll(argv[3]) * 1000000LL;
    double timeout_ms = (argc > 4 ? atof(argv[4]) : 60) * 1e3;
    double t0 = now_ms();
    source_opts so;
    source_opts_init(&so);
    so.wait_for_data = 1;
    sm_err err = {0};
    job *j = job_open(argv[1], &so, NULL, &err);
    loader *ld = j ? loader_start(j, 5000, &err) : NULL;
    if (!ld) {
        fprintf(stderr, "bench_first_frame: %s\n", err.msg);
        return 1;
    }
    double first = -1, all = -1;
    while (now_ms() - t0 < timeout_ms) {
        int any;
        pthread_mutex_lock(job_lock(j));
        size_t ok = nodes_current(j, newest_us, &any);
        pthread_mutex_unlock(job_lock(j));
        if (any && first < 0)
            first = now_ms() - t0;
        if (ok >= want) {
            all = now_ms() - t0;
            break;
        }
        usleep(2000);
    }
    printf("first_data_ms=%.0f all_nodes_ms=%.0f\n", first, all);
    fflush(stdout);
    /* The loader may be deep in the backfill, which a stop would wait
     * for: the figure is taken, so leave without it. */
    _exit(0);
}
