/* list_passes: opens an S3 job as the dashboard does (wait_for_data, so a
 * cached listing may answer the first pass) and runs passes one by one,
 * printing after each what a frame would show and whether the pass
 * listed from the cache. Between passes it runs HOOK (a shell command),
 * so a test can read the server's counters at the moment of the first
 * frame.
 *   list_passes URL ENDPOINT PASSES HOOK
 *   → "pass=1 nodes=2 files=72 cached=1" per pass */
#include <stdio.h>
#include <stdlib.h>

#include "io/run/job.h"
#include "io/scan/scanner.h"
#include "model/model.h"

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s URL ENDPOINT PASSES HOOK\n", argv[0]);
        return 2;
    }
    source_opts so;
    source_opts_init(&so);
    so.wait_for_data = 1;
    so.endpoint_url = argv[2];
    sm_err err = {0};
    job *j = job_open(argv[1], &so, NULL, &err);
    if (!j) {
        fprintf(stderr, "list_passes: %s\n", err.msg);
        return 1;
    }
    int passes = atoi(argv[3]), rc = 0;
    for (int p = 1; p <= passes && rc == 0; p++) {
        if ((rc = job_scan(j, &err)) != 0) {
            fprintf(stderr, "list_passes: pass %d: %s\n", p, err.msg);
            break;
        }
        scan_stats st;
        scanner_get_stats(job_scanner(j), &st);
        pthread_mutex_lock(job_lock(j));
        size_t nodes = model_node_count(job_model(j));
        pthread_mutex_unlock(job_lock(j));
        printf("pass=%d nodes=%zu files=%lld cached=%d\n", p, nodes,
               (long long)st.files_known, st.listing_cached);
        fflush(stdout);
        if (p == 1 && system(argv[4]) != 0)
            fprintf(stderr, "list_passes: hook failed\n");
    }
    job_close(j);
    return rc ? 1 : 0;
}
