/* synth_kineto_internal: what the Kineto writer's two files share (not
 * public): the events of a cycle (synth_kineto.c) and its file
 * (synth_kineto_file.c). */
#ifndef SMTOP_SYNTH_KINETO_INTERNAL_H
#define SMTOP_SYNTH_KINETO_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "io/synth/synth_internal.h"

/* A growing text buffer; `oom` sticks once an append failed. */
typedef struct synth_kbuf {
    char *p;
    size_t n, cap;
    int oom;
} synth_kbuf;

void synth_kbuf_printf(synth_kbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void synth_kbuf_put(synth_kbuf *b, const char *s, size_t n);
void synth_kbuf_free(synth_kbuf *b);
/* Appends a string literal. */
#define synth_kbuf_lit(b, s) synth_kbuf_put((b), (s), sizeof(s) - 1)

/* Kineto's GPU streams: the default one, the one NCCL uses, the copy one. */
enum { KIN_STREAM_COMPUTE = 7, KIN_STREAM_NCCL = 20, KIN_STREAM_COPY = 24 };

struct synth_kin {
    const synth_trace *t;
    const synth_opts *o;
    synth_rng rng;
    int form;                 /* SYNTH_KINETO_* */
    int grank, world;         /* global rank, ranks in all */
    int dev;                  /* the rank's GPU (local rank mod GPUs); -1 none */
    int pid, main_tid, bwd_tid;
    int64_t base_ns;          /* baseTimeNanoseconds (not in the legacy form) */
    int64_t ext_id, corr, ev_idx, py_id, rec_id;
    int64_t stream_free[3];   /* compute, NCCL, copy: when each is next free */
    int64_t alloc, reserved, reserved_cap;   /* GPU memory, bytes */
    int64_t total_mem;        /* the device's totalGlobalMem */
    synth_kbuf cpu, gpu;            /* the cycle's host events, then its GPU events */
    int in_cycle;
    int64_t cycle_start_ns, cycle_end_ns;
    /* a .gz written only in part (live mode): the rest and where it goes */
    void *pend_gz;            /* gzFile */
    synth_kbuf pend;
    size_t pend_at;
    char pend_path[4200];
};

/* Writes the finished cycle's file (synth_kineto_file.c). 0, or -1 with
 * err naming the path. */
int synth_kin_write_cycle(synth_kin *k, sm_err *err);
/* The `ts` of absolute time ns in k's form, and a duration, into b. */
void synth_kin_ts(const synth_kin *k, synth_kbuf *b, int64_t ns);
void synth_kin_dur(const synth_kin *k, synth_kbuf *b, int64_t ns);

#endif
