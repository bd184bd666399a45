/* synth_internal: what the synthetic generator's files share (not public).
 *
 * One synth_node per training node holds two generators that advance
 * through time together: the step schedule (synth_trace.c), which also
 * knows whether the node is initializing, training, evaluating or
 * finalizing at a given instant, and the system sampler (synth_system.c),
 * which asks it that before every sample so GPU dips line up with EVAL. */
#ifndef SMTOP_SYNTH_INTERNAL_H
#define SMTOP_SYNTH_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "io/synth/synth.h"

/* ---- synth_util.c ---- */

typedef struct synth_rng {
    uint64_t s;
} synth_rng;

/* Seeds an independent stream per (seed, stream id) via splitmix64. */
void synth_rng_seed(synth_rng *r, uint64_t seed, uint64_t stream);
uint64_t synth_rng_next(synth_rng *r);   /* xorshift64* */
double synth_rng_unit(synth_rng *r);     /* uniform [0, 1) */
double synth_rng_normal(synth_rng *r);   /* N(0, 1), Box-Muller */

/* Writes Python's repr(round(v, 2)) at p ("1.6", "51.1", "0.0", "12.34")
 * and returns the end. Needs 24 bytes. */
char *synth_fmt_value(char *p, double v);
/* Writes t_100ns / 1e7 with 7 fractional digits ("1591748109.2321954"). */
char *synth_fmt_ts(char *p, int64_t t_100ns);
char *synth_fmt_i64(char *p, int64_t v);

/* UTC "YYYYMMDDHH" of t_us into out[11]. */
void synth_fmt_hour(char out[11], int64_t t_us);
/* mkdir -p. 0, or -1 with err naming the directory. */
int synth_mkdirs(const char *path, sm_err *err);
/* fwrite all of buf; -1 with err naming path on failure. */
int synth_write(FILE *f, const void *buf, size_t n, const char *path,
                sm_err *err);

/* ---- the job and its nodes ---- */

enum synth_mode { SYNTH_INIT, SYNTH_TRAIN, SYNTH_EVAL, SYNTH_FINAL };

typedef struct synth_job {
    const synth_opts *o;
    int64_t start_us;        /* first system sample slot */
    int64_t end_us;          /* batch: end of the job; live: INT64_MAX */
    int64_t train_start_us;  /* end of initialization */
    int64_t train_end_us;    /* no step starts at or after this */
    const char *kin_dir;     /* Kineto traces' directory (o->kineto), else NULL */
} synth_job;

typedef struct synth_kin synth_kin;

typedef struct synth_step {
    int eval;
    int64_t num;
    int64_t start_us, data_us, fwd_us, bwd_us, dur_us;
} synth_step;

/* A profiled window of TRAIN steps, summed (synth_pystats.c). */
typedef struct synth_pywin {
    int64_t first_step, last_step;
    int64_t start_us, end_us;
    int64_t data_us, fwd_us, bwd_us, opt_us;
} synth_pywin;

typedef struct synth_trace {
    const synth_job *job;
    synth_rng rng;
    int node;               /* 0-based */
    int rank;               /* 0-based; the writer id names it when ranks > 1 */
    int ospid;              /* the training process's pid, in names and args */
    double scale;           /* step-time multiplier (straggler) */
    synth_step pending;     /* first step not yet written (ends after now) */
    int have_pending, done, last_eval;
    int64_t last_step_end_us;
    int64_t train_num, eval_num;
    int since_eval, eval_left;
    /* the open .tmp file; NULL until the first event after a rotation */
    FILE *f;
    char node_part[48];
    char tmp_path[4096];
    int64_t base_us;        /* start_time_since_epoch_in_micros */
    int64_t close_us;       /* when the previous file was closed */
    int64_t last_end_us;    /* end of the last event in the open file */
    int64_t bytes;
    int phase_pid[5];       /* pid given to each phase in the open file, 0 = none */
    int next_pid;
    synth_pywin py;         /* the Python-profiled window being summed */
    int py_on;
    synth_kin *kin;         /* the rank's Kineto writer (o->kineto), made on first use */
} synth_trace;

typedef struct synth_sys {
    const synth_job *job;
    synth_rng rng;
    int node;
    char node_id[24];       /* "algo-1" */
    int64_t slot;           /* index of the next sample */
    int64_t offset_us;      /* this node's phase within the interval */
    double cpu_mean;        /* training-loop CPU level of the node */
    double *core;           /* per-core factor around cpu_mean */
    double *gpu_off;        /* per-GPU offset of utilization */
    double gpu_mem;         /* steady GPU memory percent */
    FILE *f;                /* current minute file */
    int64_t minute_s;
    char path[4096];
    char *line;             /* one timestamp group */
    size_t line_cap;
} synth_sys;

/* ---- synth_trace.c ---- */

/* Sets up the schedule of rank `rank` of node `node`; opens nothing yet. */
void synth_trace_init(synth_trace *t, const synth_job *job, int node, int rank);
/* Generates (and, if traces are on, writes) every event ending at or before
 * now_us. 0, or -1 with err (write failure). */
int synth_trace_advance(synth_trace *t, int64_t now_us, sm_err *err);
/* The node's phase at t_us; valid once advanced to t_us. */
enum synth_mode synth_trace_mode(const synth_trace *t, int64_t t_us);
/* Flushes the open file to the OS (live mode). */
int synth_trace_flush(synth_trace *t, sm_err *err);
/* Batch end (finish = 1): closes and renames the open file. Live stop
 * (finish = 0): flushes and leaves the .tmp as a killed job would. */
int synth_trace_close(synth_trace *t, int finish, sm_err *err);

/* ---- synth_kineto*.c ---- */

/* The Kineto writer of trace t's rank: *out, or -1 with err (OOM). */
int synth_kin_new(synth_kin **out, const synth_trace *t, sm_err *err);
/* Records step s when a profiling cycle covers it; at a cycle's last step
 * writes the cycle's file (in live mode a .gz only its first half: the
 * next synth_kin_flush writes the rest). 0, or -1 with err. */
int synth_kin_step(synth_kin *k, const synth_step *s, sm_err *err);
/* Finishes a half-written .gz. 0, or -1 with err. */
int synth_kin_flush(synth_kin *k, sm_err *err);
/* Finishes what is pending (an unfinished cycle is dropped, as a profiler
 * stopped mid-cycle writes nothing) and frees k (NULL is fine). */
int synth_kin_free(synth_kin *k, sm_err *err);

/* ---- synth_pystats.c ---- */

/* Writes node's pyinstrument python_stats.json for window w. 0, or -1
 * with err naming the path. */
int synth_pystats_write(const synth_job *job, int node, const synth_pywin *w, sm_err *err);

/* ---- synth_system.c ---- */

/* 0, or -1 with err (out of memory). */
int synth_sys_init(synth_sys *s, const synth_job *job, int node, sm_err *err);
/* Writes every sample whose time is before now_us, advancing `tr` to each
 * sample's time first. flush = 1 flushes after each timestamp group. */
int synth_sys_advance(synth_sys *s, synth_trace *tr, int64_t now_us,
                      int flush, sm_err *err);
/* Closes the minute file (complete lines only) and frees *s. */
int synth_sys_close(synth_sys *s, sm_err *err);

#endif
