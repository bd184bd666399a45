/* synth_system: one node's system-metrics files, one per minute.
 *
 * Per timestamp the group is written in the profiler's order: every cpuN
 * CPUUtilization, then per GPU GPUUtilization and GPUMemoryUtilization,
 * then memory, then i/o and network. The cpu/gpu/memory lines copy the real
 * samples key for key; the i/o ("nvme0n1", ReadThroughputMB/
 * WriteThroughputMB) and network ("eth0", ReceivedMBps/SentMBps) names are
 * plausible, not verified against a real job: the samples have none.
 * Values are repr(round(v, 2)) as Python prints them, timestamps carry 7
 * fractional digits. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/synth/synth_internal.h"

#define MINUTE_US (60 * 1000000LL)

int synth_sys_init(synth_sys *s, const synth_job *job, int node, sm_err *err)
{
    const synth_opts *o = job->o;
    memset(s, 0, sizeof *s);
    s->job = job;
    s->node = node;
    s->minute_s = -1;
    synth_rng_seed(&s->rng, o->seed, 0x5100 + (uint64_t)node);
    snprintf(s->node_id, sizeof s->node_id, "algo-%d", node + 1);
    int64_t iv = (int64_t)o->interval_ms * 1000;
    s->offset_us = (int64_t)(synth_rng_next(&s->rng) % (uint64_t)(iv / 2));
    s->cpu_mean = 25.0 + 20.0 * synth_rng_unit(&s->rng);
    if (node == o->slow_node)
        s->cpu_mean += 15.0; /* the straggler's input pipeline works harder */
    s->gpu_mem = 55.0 + 30.0 * synth_rng_unit(&s->rng);
    s->core = calloc((size_t)o->cpus, sizeof *s->core);
    s->gpu_off = calloc((size_t)o->gpus + 1, sizeof *s->gpu_off);
    s->line_cap = (size_t)(o->cpus + 2 * o->gpus + 5) * 192;
    s->line = malloc(s->line_cap);
    if (!s->core || !s->gpu_off || !s->line) {
        synth_sys_close(s, NULL);
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    }
    for (int c = 0; c < o->cpus; c++) /* every 8th core feeds the data loader */
        s->core[c] = c % 8 == 3 ? 2.0 + 0.6 * synth_rng_unit(&s->rng)
                                : 0.6 + 0.8 * synth_rng_unit(&s->rng);
    for (int g = 0; g < o->gpus; g++)
        s->gpu_off[g] = -3.0 + 5.0 * synth_rng_unit(&s->rng);
    return 0;
}

/* Jitter of a sample's time: hashed, so it costs no generator state. */
static int64_t sys_jitter(const synth_sys *s, int64_t slot, int64_t max)
{
    uint64_t z = (uint64_t)slot * 0x9e3779b97f4a7c15ULL ^ s->job->o->seed ^
                 ((uint64_t)s->node << 48);
    z = (z ^ (z >> 31)) * 0xbf58476d1ce4e5b9ULL;
    return (int64_t)((z ^ (z >> 29)) % (uint64_t)(max > 0 ? max : 1));
}

static int sys_close_minute(synth_sys *s, sm_err *err)
{
    int rc = 0;
    if (s->f && fclose(s->f) != 0)
        rc = sm_err_set(err, SM_ERR_IO, "cannot write %s: %s", s->path,
                        strerror(errno));
    s->f = NULL;
    s->minute_s = -1;
    return rc;
}

static int sys_open_minute(synth_sys *s, int64_t minute_s, sm_err *err)
{
    if (sys_close_minute(s, err))
        return -1;
    const synth_opts *o = s->job->o;
    char dir[4096], hour[11];
    synth_fmt_hour(hour, minute_s * 1000000);
    if (o->hour_dirs)
        snprintf(dir, sizeof dir, "%s/system/incremental/%s", o->out, hour);
    else
        snprintf(dir, sizeof dir, "%s/system/incremental", o->out);
    if (synth_mkdirs(dir, err))
        return -1;
    if (snprintf(s->path, sizeof s->path, "%s/%lld.%s.json", dir,
                 (long long)minute_s, s->node_id) >= (int)sizeof s->path)
        return sm_err_set(err, SM_ERR_USAGE, "output path too long: %s", dir);
    s->f = fopen(s->path, "w");
    if (!s->f)
        return sm_err_set(err, SM_ERR_IO, "cannot create %s: %s", s->path,
                          strerror(errno));
    setvbuf(s->f, NULL, _IOFBF, 1 << 18);
    s->minute_s = minute_s;
    return 0;
}

static inline char *cpy(char *p, const char *str)
{
    size_t n = strlen(str);
    memcpy(p, str, n);
    return p + n;
}

/* {"Type":"cpu","Name":"cpu5","Dimension":"CPUUtilization","Value":1.36<tail> */
static char *sys_line(char *p, const char *type, const char *name, int num,
                      const char *dim, double v, const char *tail, size_t tail_n)
{
    p = cpy(p, "{\"Type\":\"");
    p = cpy(p, type);
    p = cpy(p, "\",\"Name\":\"");
    p = cpy(p, name);
    if (num >= 0)
        p = synth_fmt_i64(p, num);
    p = cpy(p, "\",\"Dimension\":\"");
    p = cpy(p, dim);
    p = cpy(p, "\",\"Value\":");
    p = synth_fmt_value(p, v);
    memcpy(p, tail, tail_n);
    return p + tail_n;
}

static double clamp(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

typedef struct sys_levels {
    double cpu, gpu, gpu_mem, mem, rd, wr, rx, tx;
    double gpu_noise; /* spread of per-GPU utilization */
} sys_levels;

/* The GPU's mean utilization while training: how busy the job's shape
 * keeps it (host-bound and its kin: the GPU waits). */
static double train_gpu(const synth_opts *o)
{
    if (o->host_bound)
        return 11.0;
    switch (o->kineto_shape) {
    case SYNTH_SHAPE_GLOO: return 12.0;
    case SYNTH_SHAPE_MAIN_LOADER: return 22.0;
    case SYNTH_SHAPE_LAUNCH_BOUND: return 14.0;
    case SYNTH_SHAPE_NCCL_EXPOSED: return 80.0;
    default: return 92.0;
    }
}

/* The node's mean levels at t_us in phase m; noise is added per line. */
static sys_levels sys_levels_at(synth_sys *s, enum synth_mode m, int64_t t_us)
{
    const synth_job *j = s->job;
    synth_rng *r = &s->rng;
    double since = (double)(t_us - j->start_us) / 1e6;
    double init_frac = clamp((double)(t_us - j->start_us) /
                             (double)(j->train_start_us - j->start_us), 0, 1);
    double drift = 1.0 + 0.1 * sin(since / 95.0 + s->node);
    int multi = j->o->nodes > 1;
    sys_levels l = {.gpu_noise = 3.0};
    l.mem = 5.0 + 28.0 * (1.0 - exp(-since / 240.0));
    double burst = fmod(since, 30.0) < 3.0 ? 1.0 : 0.0; /* shard prefetch */
    switch (m) {
    case SYNTH_INIT:
        l.cpu = 10.0;
        l.gpu = init_frac > 0.7 ? 6.0 : 0.0;
        l.gpu_mem = s->gpu_mem * init_frac * init_frac;
        l.rd = 180.0 + 40.0 * synth_rng_normal(r); /* dataset download */
        l.rx = 150.0 + 30.0 * synth_rng_normal(r);
        break;
    case SYNTH_TRAIN:
        l.cpu = s->cpu_mean * drift;
        l.gpu = s->node == j->o->slow_node ? 68.0 : train_gpu(j->o);
        l.gpu_mem = j->o->kineto_shape == SYNTH_SHAPE_MEMORY_FULL ? 95.0 : s->gpu_mem;
        l.rd = burst ? 150.0 + 50.0 * synth_rng_normal(r) : 3.0 + 2.0 * fabs(synth_rng_normal(r));
        l.wr = 0.5 + 0.3 * fabs(synth_rng_normal(r));
        l.rx = multi ? 9.0 * l.gpu + 40.0 * synth_rng_normal(r) : 0.3;
        l.tx = multi ? 9.0 * l.gpu + 40.0 * synth_rng_normal(r) : 0.2;
        break;
    case SYNTH_EVAL:
        l.cpu = 0.7 * s->cpu_mean * drift;
        l.gpu = 45.0;
        l.gpu_noise = 8.0;
        l.gpu_mem = s->gpu_mem;
        l.rd = 20.0 + 5.0 * synth_rng_normal(r);
        l.wr = 250.0 + 60.0 * synth_rng_normal(r); /* checkpoint */
        l.rx = l.tx = multi ? 5.0 : 0.2;
        break;
    case SYNTH_FINAL: {
        double f = clamp((double)(t_us - j->train_end_us) /
                         (double)(j->end_us - j->train_end_us), 0, 1);
        l.cpu = 4.0;
        l.gpu_mem = s->gpu_mem * (1.0 - f);
        l.mem *= 1.0 - 0.5 * f;
        l.wr = f < 0.5 ? 300.0 + 50.0 * synth_rng_normal(r) : 0.5; /* model upload */
        l.tx = f < 0.5 ? 120.0 : 0.2;
        l.gpu_noise = 0.5;
        break;
    }
    }
    return l;
}

/* Formats the whole group of one timestamp into s->line; returns its length. */
static size_t sys_group(synth_sys *s, enum synth_mode m, int64_t t_us, int64_t t_100ns)
{
    const synth_opts *o = s->job->o;
    synth_rng *r = &s->rng;
    char tail[96], *q = tail;
    q = cpy(q, ",\"NodeId\":\"");
    q = cpy(q, s->node_id);
    q = cpy(q, "\",\"Timestamp\":");
    q = synth_fmt_ts(q, t_100ns);
    q = cpy(q, "}\n");
    size_t tn = (size_t)(q - tail);
    sys_levels l = sys_levels_at(s, m, t_us);
    char *p = s->line;
    for (int c = 0; c < o->cpus; c++)
        p = sys_line(p, "cpu", "cpu", c, "CPUUtilization",
                     clamp(l.cpu * s->core[c] + 2.5 * synth_rng_normal(r), 0, 100), tail, tn);
    for (int g = 0; g < o->gpus; g++) {
        double u = l.gpu > 0 ? l.gpu + s->gpu_off[g] + l.gpu_noise * synth_rng_normal(r)
                             : fabs(l.gpu_noise * synth_rng_normal(r)) * 0.3;
        p = sys_line(p, "gpu", "gpu", g, "GPUUtilization", clamp(u, 0, 100), tail, tn);
        p = sys_line(p, "gpu", "gpu", g, "GPUMemoryUtilization",
                     clamp(l.gpu_mem + 0.3 * synth_rng_normal(r), 0, 100), tail, tn);
    }
    p = sys_line(p, "memory", "MemoryUsedPercent", -1, "MemoryUsedPercent",
                 clamp(l.mem + 0.2 * synth_rng_normal(r), 0, 100), tail, tn);
    p = sys_line(p, "i/o", "nvme0n1", -1, "ReadThroughputMB", clamp(l.rd, 0, 1e5), tail, tn);
    p = sys_line(p, "i/o", "nvme0n1", -1, "WriteThroughputMB", clamp(l.wr, 0, 1e5), tail, tn);
    p = sys_line(p, "network", "eth0", -1, "ReceivedMBps", clamp(l.rx, 0, 1e5), tail, tn);
    p = sys_line(p, "network", "eth0", -1, "SentMBps", clamp(l.tx, 0, 1e5), tail, tn);
    return (size_t)(p - s->line);
}

int synth_sys_advance(synth_sys *s, synth_trace *tr, int64_t now_us, int flush,
                      sm_err *err)
{
    const synth_job *j = s->job;
    int64_t iv = (int64_t)j->o->interval_ms * 1000;
    int64_t jitter_max = iv / 4 < 2000 ? iv / 4 : 2000;
    for (;;) {
        int64_t slot_us = j->start_us + s->slot * iv;
        if (slot_us >= j->end_us)
            return 0;
        /* the 7th fractional digit is sub-microsecond */
        int64_t t_100ns = (slot_us + s->offset_us) * 10 + sys_jitter(s, s->slot, jitter_max * 10);
        int64_t t_us = t_100ns / 10;
        if (t_us >= now_us)
            return 0;
        if (synth_trace_advance(tr, t_us, err))
            return -1;
        int64_t minute_s = t_us / MINUTE_US * 60;
        if (minute_s != s->minute_s && sys_open_minute(s, minute_s, err))
            return -1;
        size_t n = sys_group(s, synth_trace_mode(tr, t_us), t_us, t_100ns);
        if (synth_write(s->f, s->line, n, s->path, err))
            return -1;
        if (flush && fflush(s->f) != 0)
            return sm_err_set(err, SM_ERR_IO, "cannot write %s: %s", s->path,
                              strerror(errno));
        s->slot++;
    }
}

int synth_sys_close(synth_sys *s, sm_err *err)
{
    int rc = sys_close_minute(s, err);
    free(s->core);
    free(s->gpu_off);
    free(s->line);
    s->core = s->gpu_off = NULL;
    s->line = NULL;
    return rc;
}
