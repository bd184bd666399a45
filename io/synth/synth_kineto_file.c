/* synth_kineto_file: a profiling cycle's file, as torch.profiler's
 * tensorboard_trace_handler leaves it:
 *
 *   <kin_dir>/<worker>.<time>.pt.trace.json[.gz]
 *
 * worker = "algo-<n>_<pid>" (the host name, then the pid; the handler's
 * worker_name "algo-<n>_<kineto_worker>" when given), time = the
 * handler's time.time_ns() (the legacy form: milliseconds, as older
 * PyTorch named them). A .gz is written in place, so a reader can find
 * half of it (live mode writes the first half, then the rest on the next
 * tick); plain JSON goes to "<name>.tmp" and is renamed when whole.
 *
 * Key order and layout follow the samples: schemaVersion,
 * deviceProperties (every visible GPU), the version keys (modern),
 * distributedInfo (only with several ranks: torch.distributed is not
 * initialised in a one-process job), then traceEvents. The modern form
 * has displayTimeUnit and baseTimeNanoseconds before traceEvents (2025
 * on), the 2024 form after it, the legacy form has neither (its `ts` is
 * epoch µs). The events end with the process/thread names and the
 * profiler's own span and markers, "Record Window End" last. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "io/synth/synth_kineto_internal.h"

#define US 1000LL

static void kin_devices(synth_kin *k, synth_kbuf *b)
{
    int n = k->o->gpus;
    synth_kbuf_lit(b, "  \"deviceProperties\": [");
    for (int d = 0; d < n; d++)
        synth_kbuf_printf(b, "%s\n    {\n      \"id\": %d, \"name\": \"NVIDIA H100 80GB HBM3\", "
                       "\"totalGlobalMem\": %lld,\n      \"computeMajor\": 9, \"computeMinor\": 0,\n"
                       "      \"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048,\n"
                       "      \"regsPerBlock\": 65536, \"warpSize\": 32,\n"
                       "      \"sharedMemPerBlock\": 49152, \"numSms\": 132\n"
                       "    , \"regsPerMultiprocessor\": 65536, \"sharedMemPerBlockOptin\": 232448, "
                       "\"sharedMemPerMultiprocessor\": 233472\n    }",
                    d ? "," : "", d, (long long)k->total_mem);
    if (n)
        synth_kbuf_lit(b, "\n  ],\n");
    else
        synth_kbuf_lit(b, "],\n");
}

static void kin_dist(synth_kin *k, synth_kbuf *b)
{
    if (k->world < 2)
        return;
    int gloo = k->dev < 0 || k->shape == SYNTH_SHAPE_GLOO;
    const char *be = gloo ? "gloo" : "nccl";
    if (k->form == SYNTH_KINETO_LEGACY) {
        synth_kbuf_printf(b, "  \"distributedInfo\": {\"backend\": \"%s\", \"rank\": %d, "
                       "\"world_size\": %d},\n", be, k->grank, k->world);
        return;
    }
    synth_kbuf_printf(b, "  \"distributedInfo\": {\"backend\": \"%s\", \"rank\": %d, \"world_size\": %d, "
                   "\"pg_count\": 1, \"pg_config\": [{\"pg_name\": \"0\", \"pg_desc\": "
                   "\"default_pg\", \"backend_config\": \"%s\", \"pg_size\": %d, \"ranks\": [",
                be, k->grank, k->world, gloo ? "cpu:gloo,cuda:gloo" : "cuda:nccl", k->world);
    for (int r = 0; r < k->world; r++)
        synth_kbuf_printf(b, r ? ", %d" : "%d", r);
    synth_kbuf_lit(b, "]}], \"nccl_version\": \"2.21.5\"},\n");
}

static void kin_clock_keys(synth_kin *k, synth_kbuf *b)
{
    synth_kbuf_printf(b, "  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": %lld",
                (long long)k->base_ns);
}

static void kin_header(synth_kin *k, synth_kbuf *b)
{
    synth_kbuf_lit(b, "{\n  \"schemaVersion\": 1,\n");
    kin_devices(k, b);
    if (k->form == SYNTH_KINETO_MODERN)
        synth_kbuf_lit(b, "  \"cupti_version\": 24, \"cuda_runtime_version\": 12060, "
                    "\"cuda_driver_version\": 12080,\n");
    kin_dist(k, b);
    if (k->form == SYNTH_KINETO_MODERN) {
        kin_clock_keys(k, b);
        synth_kbuf_lit(b, ",\n");
    }
    synth_kbuf_lit(b, "  \"traceEvents\": [\n");
}

/* One metadata event (ph M) naming a process or thread. */
static void kin_meta(synth_kin *k, synth_kbuf *b, const char *what, int pid, int tid, const char *key,
                     const char *sval, long long ival)
{
    synth_kbuf_printf(b, "  {\n    \"name\": \"%s\", \"ph\": \"M\", \"ts\": ", what);
    synth_kin_ts(k, b, k->cycle_start_ns);
    synth_kbuf_printf(b, ", \"pid\": %d, \"tid\": %d,\n    \"args\": {\n      \"%s\": ", pid, tid, key);
    if (sval)
        synth_kbuf_printf(b, "\"%s\"", sval);
    else
        synth_kbuf_printf(b, "%lld", ival);
    synth_kbuf_lit(b, "\n    }\n  },\n");
}

static void kin_names(synth_kin *k, synth_kbuf *b)
{
    char name[64];
    kin_meta(k, b, "process_name", k->pid, 0, "name", "python3.11", 0);
    kin_meta(k, b, "process_labels", k->pid, 0, "labels", "CPU", 0);
    kin_meta(k, b, "process_sort_index", k->pid, 0, "sort_index", NULL, k->pid);
    for (int d = 0; d < k->o->gpus; d++) {
        snprintf(name, sizeof name, "GPU %d", d);
        kin_meta(k, b, "process_name", d, 0, "name", "python3.11", 0);
        kin_meta(k, b, "process_labels", d, 0, "labels", name, 0);
        kin_meta(k, b, "process_sort_index", d, 0, "sort_index", NULL, 16777216LL + d);
    }
    static const int streams[] = {KIN_STREAM_COMPUTE, KIN_STREAM_NCCL, KIN_STREAM_COPY,
                                  KIN_STREAM_GLOO};
    int gloo = k->shape == SYNTH_SHAPE_GLOO && k->world > 1;
    for (size_t s = 0; k->dev >= 0 && s < KIN_STREAMS; s++) {
        if ((streams[s] == KIN_STREAM_NCCL && (k->world < 2 || gloo)) ||
            (streams[s] == KIN_STREAM_GLOO && !gloo))
            continue;
        snprintf(name, sizeof name, "stream %d ", streams[s]);
        kin_meta(k, b, "thread_name", k->dev, streams[s], "name", name, 0);
        kin_meta(k, b, "thread_sort_index", k->dev, streams[s], "sort_index", NULL, streams[s]);
    }
    snprintf(name, sizeof name, "thread %d (pt_main_thread)", k->main_tid);
    kin_meta(k, b, "thread_name", k->pid, k->main_tid, "name", name, 0);
    kin_meta(k, b, "thread_sort_index", k->pid, k->main_tid, "sort_index", NULL, k->main_tid);
    snprintf(name, sizeof name, "thread %d (pt_autograd_0)", k->bwd_tid);
    kin_meta(k, b, "thread_name", k->pid, k->bwd_tid, "name", name, 0);
    kin_meta(k, b, "thread_sort_index", k->pid, k->bwd_tid, "sort_index", NULL, k->bwd_tid);
    for (int g = 0; gloo && g < 2; g++) {
        /* gloo's workers inherit the main thread's name */
        snprintf(name, sizeof name, "thread %d (pt_main_thread)", k->gloo_tid[g]);
        kin_meta(k, b, "thread_name", k->pid, k->gloo_tid[g], "name", name, 0);
        kin_meta(k, b, "thread_sort_index", k->pid, k->gloo_tid[g], "sort_index", NULL,
                 k->gloo_tid[g]);
    }
}

/* The profiler's own span and markers; "Record Window End" closes the
 * array (no comma after it). */
static void kin_tail(synth_kin *k, synth_kbuf *b)
{
    int64_t s = k->cycle_start_ns - 600 * US, e = k->cycle_end_ns + 300 * US;
    synth_kbuf_lit(b, "  {\n    \"ph\": \"X\", \"cat\": \"Trace\", \"ts\": ");
    synth_kin_ts(k, b, s);
    synth_kbuf_lit(b, ", \"dur\": ");
    synth_kin_dur(k, b, e - s);
    synth_kbuf_lit(b, ",\n    \"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\",\n"
                "    \"name\": \"PyTorch Profiler (0)\",\n    \"args\": {\n"
                "      \"Op count\": 0\n    }\n  },\n");
    synth_kbuf_lit(b, "  {\n    \"name\": \"process_sort_index\", \"ph\": \"M\", \"ts\": ");
    synth_kin_ts(k, b, s);
    synth_kbuf_lit(b, ",\n    \"pid\": \"Spans\", \"tid\": 0,\n    \"args\": {\n"
                "      \"sort_index\": 536870912\n    }\n  },\n");
    synth_kbuf_lit(b, "  {\n    \"name\": \"Iteration Start: PyTorch Profiler\", \"ph\": \"i\", "
                "\"s\": \"g\",\n    \"pid\": \"Traces\", \"tid\": \"Trace PyTorch Profiler\", "
                "\"ts\": ");
    synth_kin_ts(k, b, s);
    synth_kbuf_lit(b, "\n  },\n  {\n    \"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\",\n"
                "    \"pid\": \"\", \"tid\": \"\", \"ts\": ");
    synth_kin_ts(k, b, e);
    synth_kbuf_lit(b, "\n  }\n  ],\n");
}

static void kin_footer(synth_kin *k, synth_kbuf *b)
{
    synth_kbuf_printf(b, "  \"traceName\": \"/tmp/tmp%08llx.json\"",
                (unsigned long long)(synth_rng_next(&k->rng) & 0xffffffffULL));
    if (k->form == SYNTH_KINETO_2024) {
        synth_kbuf_lit(b, ",\n");
        kin_clock_keys(k, b);
    } else if (k->form == SYNTH_KINETO_LEGACY) {
        synth_kbuf_lit(b, ",\n  \"displayTimeUnit\": \"ms\"");
    }
    synth_kbuf_lit(b, "\n}");
}

/* ---- writing ------------------------------------------------------------ */

static int kin_gz_finish(synth_kin *k, sm_err *err)
{
    gzFile gz = k->pend_gz;
    k->pend_gz = NULL;
    size_t rest = k->pend.n - k->pend_at;
    int bad = rest && gzwrite(gz, k->pend.p + k->pend_at, (unsigned)rest) != (int)rest;
    bad |= gzclose(gz) != Z_OK;
    if (bad)
        return sm_err_set(err, SM_ERR_IO, "cannot write %s", k->pend_path);
    return 0;
}

int synth_kin_flush(synth_kin *k, sm_err *err)
{
    return k && k->pend_gz ? kin_gz_finish(k, err) : 0;
}

/* Writes k->pend to path: a .gz in place (live: its first half only),
 * plain JSON through path.tmp. */
static int kin_write(synth_kin *k, sm_err *err)
{
    if (k->o->kineto_gzip) {
        gzFile gz = gzopen(k->pend_path, "wb");
        if (!gz)
            return sm_err_set(err, SM_ERR_IO, "cannot create %s: %s", k->pend_path,
                              strerror(errno));
        k->pend_gz = gz;
        k->pend_at = k->o->live ? k->pend.n / 2 : 0;
        if (k->pend_at && (gzwrite(gz, k->pend.p, (unsigned)k->pend_at) != (int)k->pend_at ||
                           gzflush(gz, Z_SYNC_FLUSH) != Z_OK)) {
            k->pend_at = k->pend.n;
            kin_gz_finish(k, NULL);
            return sm_err_set(err, SM_ERR_IO, "cannot write %s", k->pend_path);
        }
        return k->o->live ? 0 : kin_gz_finish(k, err);
    }
    char tmp[4300];
    snprintf(tmp, sizeof tmp, "%s.tmp", k->pend_path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return sm_err_set(err, SM_ERR_IO, "cannot create %s: %s", tmp, strerror(errno));
    int bad = fwrite(k->pend.p, 1, k->pend.n, f) != k->pend.n;
    bad |= fclose(f) != 0;
    if (bad)
        return sm_err_set(err, SM_ERR_IO, "cannot write %s: %s", tmp, strerror(errno));
    if (rename(tmp, k->pend_path) != 0)
        return sm_err_set(err, SM_ERR_IO, "cannot rename %s to %s: %s", tmp, k->pend_path,
                          strerror(errno));
    return 0;
}

int synth_kin_write_cycle(synth_kin *k, sm_err *err)
{
    if (synth_kin_flush(k, err))
        return -1;
    /* the handler runs a little after the cycle's last step */
    int64_t when_ns = k->cycle_end_ns + (300 + (int64_t)(synth_rng_next(&k->rng) % 600)) * 1000 * US;
    long long stamp = k->form == SYNTH_KINETO_LEGACY ? when_ns / 1000000 : when_ns;
    char worker[96];
    if (k->o->kineto_worker)
        snprintf(worker, sizeof worker, "algo-%d_%s", k->t->node + 1, k->o->kineto_worker);
    else
        snprintf(worker, sizeof worker, "algo-%d_%d", k->t->node + 1, k->pid);
    snprintf(k->pend_path, sizeof k->pend_path, "%s/%s.%lld.pt.trace.json%s",
             k->t->job->kin_dir, worker, stamp, k->o->kineto_gzip ? ".gz" : "");
    synth_kbuf *b = &k->pend;
    b->n = 0;
    b->oom = 0;
    kin_header(k, b);
    synth_kbuf_put(b, k->cpu.p ? k->cpu.p : "", k->cpu.n);
    synth_kbuf_put(b, k->gpu.p ? k->gpu.p : "", k->gpu.n);
    kin_names(k, b);
    kin_tail(k, b);
    kin_footer(k, b);
    if (b->oom)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    return kin_write(k, err);
}

int synth_kin_free(synth_kin *k, sm_err *err)
{
    if (!k)
        return 0;
    int rc = synth_kin_flush(k, err);
    synth_kbuf_free(&k->cpu);
    synth_kbuf_free(&k->gpu);
    synth_kbuf_free(&k->pend);
    free(k);
    return rc;
}
