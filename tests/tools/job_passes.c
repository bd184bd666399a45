/* job_passes: opens a training job named to the SageMaker API as the
 * dashboard's --job does (cmd_job_resolve, then every place of its data,
 * io/source/source_job.h; a cached listing may answer the first pass) and
 * runs passes one by one, a dashboard's refreshes without a screen. After
 * each pass it prints what it read and runs HOOK (a shell command), so a
 * test reads the S3 rig's counters of exactly one refresh.
 *   job_passes NAME ENDPOINT PASSES HOOK
 *   → "pass=1 nodes=2 ranks=2 files=40" per pass */
#include <stdio.h>
#include <stdlib.h>

#include "io/run/job.h"
#include "io/scan/scanner.h"
#include "io/source/source_job.h"
#include "model/model.h"
#include "model/core/model_gpu.h"
#include "tui/cmd/cmd_job.h"

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s NAME ENDPOINT PASSES HOOK\n", argv[0]);
        return 2;
    }
    source_opts so;
    source_opts_init(&so);
    so.endpoint_url = argv[2];
    sm_err err = {0};
    jobrow r;
    if (cmd_job_resolve(argv[1], &so, &r, &err) < 0) {
        fprintf(stderr, "job_passes: %s\n", err.msg);
        return 1;
    }
    so.wait_for_data = 1;
    const char *root;
    source *src = source_job_open(&r, &so, &root, &err);
    job *j = src ? job_open_source_at(src, root, &so, NULL, &err) : NULL;
    if (!j) {
        fprintf(stderr, "job_passes: %s\n", err.msg);
        return 1;
    }
    int passes = atoi(argv[3]), rc = 0;
    for (int p = 1; p <= passes && rc == 0; p++) {
        if ((rc = job_scan(j, &err)) != 0) {
            fprintf(stderr, "job_passes: pass %d: %s\n", p, err.msg);
            break;
        }
        scan_stats st;
        scanner_get_stats(job_scanner(j), &st);
        pthread_mutex_lock(job_lock(j));
        size_t nodes = model_node_count(job_model(j));
        size_t ranks = model_gpu_count(job_model(j));
        pthread_mutex_unlock(job_lock(j));
        printf("pass=%d nodes=%zu ranks=%zu files=%lld\n", p, nodes, ranks,
               (long long)st.files_known);
        fflush(stdout);
        if (system(argv[4]) != 0)
            fprintf(stderr, "job_passes: hook failed\n");
    }
    job_close(j);
    return rc ? 1 : 0;
}
