/* bench_pass_cpu: what a dashboard's scan passes cost while a job is idle
 * or tailing, without the drawing.
 *
 * Opens JOB as the dashboard does and runs the real loader thread at
 * --interval INTERVAL_S; once the backfill is over (two passes done and
 * nothing pending), takes this process's CPU time (getrusage, user +
 * system) over SECONDS and prints it as a share of one core, with the
 * passes counted in between. Built against whichever tree's libraries the
 * bench script links, so the baseline and the new scanner run the same
 * program.
 *
 *   bench_pass_cpu JOB INTERVAL_S SECONDS  →  "cpu_pct=… passes=… files=…" */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "io/run/job.h"
#include "io/run/loader.h"

static double cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
           (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static double wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s JOB INTERVAL_S SECONDS\n", argv[0]);
        return 2;
    }
    int interval_ms = atoi(argv[2]) * 1000;
    double seconds = atof(argv[3]);
    source_opts so;
    source_opts_init(&so);
    so.wait_for_data = 1;
    sm_err err = {0};
    job *j = job_open(argv[1], &so, NULL, &err);
    loader *ld = j ? loader_start(j, interval_ms, &err) : NULL;
    if (!ld) {
        fprintf(stderr, "bench_pass_cpu: %s\n", err.msg);
        return 1;
    }
    scan_stats st;
    do {
        usleep(50000);
        scanner_get_stats(job_scanner(j), &st);
    } while (st.passes < 2 || st.scanning);
    double c0 = cpu_s(), t0 = wall_s();
    int64_t p0 = st.passes;
    usleep((useconds_t)(seconds * 1e6));
    double c1 = cpu_s(), t1 = wall_s();
    scanner_get_stats(job_scanner(j), &st);
    printf("cpu_pct=%.3f passes=%lld files=%lld\n", 100 * (c1 - c0) / (t1 - t0),
           (long long)(st.passes - p0), (long long)st.files_known);
    fflush(stdout);
    _exit(0);   /* a stop would wait for a pass in progress */
}
