/* report_diff_load: the two sides of a diff as report objects — a finished
 * job read to its end (`smtop diff`, the dashboard's --baseline) and a
 * snapshot of a job still being read (the dashboard's Diff pane). One
 * builder for both, so the pane and `smtop diff` compare the same sections. */
#include "tui/report/report_diff.h"

#include "tui/report/report.h"
#include "tui/report/report_python.h"

json_t *report_diff_snapshot(job *j, sm_err *err)
{
    json_t *obj = report_build(j, NULL);
    report_python_opts po;
    report_python_opts_init(&po);
    int rc = obj ? 0 : -1;
    if (rc == 0) {
        pthread_mutex_lock(job_lock(j));
        rc = report_python_add(obj, job_pystats(j), &po, err);
        pthread_mutex_unlock(job_lock(j));
    }
    if (rc == 0)
        rc = report_diff_add_breakdown(obj, j);
    if (rc == 0)
        rc = report_diff_add_kernels(obj, j);
    if (rc != 0) {
        json_decref(obj);
        sm_err_set(err, SM_ERR_NOMEM, "out of memory building the report");
        return NULL;
    }
    return obj;
}

json_t *report_diff_read(job *j, sm_err *err)
{
    if (job_scan(j, err) != 0)
        return NULL;
    job_poll_watch(j);   /* --job: CloudWatch, when the files hold no system metrics */
    job_finish(j);
    return report_diff_snapshot(j, err);
}

json_t *report_diff_load(const char *spec, const source_opts *so, sm_err *err)
{
    model_config mc = {0};
    job *j = job_open(spec, so, &mc, err);
    json_t *obj = j ? report_diff_read(j, err) : NULL;
    job_close(j);
    return obj;
}
