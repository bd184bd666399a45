/* model_node: one node's series, aggregates and phases (internal to
 * model/; views use the getters in model.h). */
#ifndef SMTOP_MODEL_NODE_H
#define SMTOP_MODEL_NODE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "model/util/idmap.h"
#include "model/model.h"

#define NODE_CPU_PENDING 64     /* open CPU timestamp groups per node */
#define NODE_EXTRA_MAX 32       /* distinct extra key names kept per node */
#define NODE_EXTRA_NAME_MAX 128
#define NODE_PHASE_MAX 64       /* labels per node before "(other)" */
#define NODE_PROC_MAX 256       /* processes (trace writers) kept per node */
/* Cores a node keeps at full resolution: past that, every core's series
 * is lean (series_make_lean: summary, usage bands and 10 s buckets, no raw
 * tier) and the node's total carries the full resolution. 32 cores with
 * raw tiers were 60 % of a node's memory. */
#define NODE_CORES_FULL_MAX 8

/* A series plus the key the hash lookup compares against. */
typedef struct ser_ent {
    series *s;
    const char *t, *d, *n;  /* the series' own type, dimension, name */
    uint32_t lt, ld, ln;
    int core;           /* a CPU core (feeds the total) */
    struct ser_ent *next;   /* the series whose sample followed this one's
                             * last time: lines cycle through the same
                             * metrics at every timestamp */
} ser_ent;

typedef struct gpu_ent {
    const char *name;   /* owned by one of the series */
    const series *util, *mem;
} gpu_ent;

#define NODE_CPU_STREAMS 4      /* files per node whose last core time is kept */

/* Cores of one timestamp, summed until the group is complete. */
typedef struct cpu_group {
    int64_t ts;
    double sum;
    uint32_t count;
    uint64_t seq;       /* creation order, for eviction */
} cpu_group;

/* The last core sample's time in one file of the node. */
typedef struct cpu_stream {
    uint64_t id;
    int64_t last_ts;
    uint64_t used;      /* for replacing the least recently used */
    int valid;
} cpu_stream;

typedef struct ptrvec {
    void **v;
    size_t n, cap;
} ptrvec;

struct model_node {
    char *id;
    size_t id_len;
    uint64_t gen;
    idmap series_map;
    ptrvec series;      /* ser_ent*, sorted (type, dimension, natural name) */
    ser_ent *last_hit;
    ptrvec cores, io, net;  /* series*, natural order */
    gpu_ent *gpus;
    size_t ngpus, gpus_cap;
    series *cpu_total, *host_mem;
    cpu_group pending[NODE_CPU_PENDING];
    size_t npending;
    uint64_t group_seq;
    uint32_t expected_cores;    /* 0 until the first group closes */
    cpu_stream streams[NODE_CPU_STREAMS];
    uint64_t stream_clock;
    uint8_t last_stream;        /* index of the slot used last */
    idmap phase_map;
    ptrvec phases;      /* phase_stats*, in model.h's display order */
    char *extra[NODE_EXTRA_MAX];
    size_t nextra;
    /* Processes (model_process.c): a node's trace writers are model_nodes
     * of their own holding only phases. While a node has one writer and
     * no event without one, that process `alias`es the node's phases
     * instead of keeping a copy: single-writer jobs pay nothing. */
    struct model_node *parent;  /* a process: its node; NULL for a node */
    int alias;
    int loose;                  /* the node has events naming no writer */
    ptrvec procs;               /* model_node*, natural order of ids */
    struct model_node *last_proc;   /* the process of the last event */
};

static inline int model_node_bytes_eq(const char *a, const char *b, size_t n)
{
    return sm_bytes_eq(a, b, n);
}

model_node *model_node_new(const char *id, size_t len);  /* NULL on OOM */
void model_node_free(model_node *n);

/* Ingests one sample (already time-filtered, finite). 0, 1 when ignored
 * (it would collide with the derived CPU total), MNODE_CAPPED when it
 * needs a new series past MODEL_NODE_SERIES_MAX or past `room` (new series
 * the model still allows), -1 on OOM with the node unchanged. */
#define MNODE_CAPPED 2
int model_node_add_sample(model_node *n, const sm_sample *s, uint64_t stream, size_t room);
/* The same, and on 0 the series the sample went to in *ent; with cpu 0
 * a core's sample is not fed into the CPU total (model_node_note_core
 * does that later). */
int model_node_add_sample_ent(model_node *n, const sm_sample *s, uint64_t stream, size_t room,
                              void **ent, int cpu);
/* Adds a sample of series ent (from model_node_add_sample_ent, same key)
 * as model_node_add_sample_ent would. */
int model_node_add_to(model_node *n, void *ent, const sm_sample *s, uint64_t stream, int cpu);
/* Adds ts[i], v[i] (i < n, in order) to series ent, with proto's extra
 * keys, as n calls of model_node_add_to with cpu 0 would; taken[i] says
 * which went in (0: refused by the series, or ent is the derived CPU
 * total). Returns how many went in. */
size_t model_node_add_run(model_node *n, void *ent, const sm_sample *proto, const int64_t *ts,
                          const double *v, size_t count, unsigned char *taken);
/* Feeds a sample of series ent into the CPU total when ent is a core. */
void model_node_note_core(model_node *n, const void *ent, const sm_sample *s, uint64_t stream);
/* Feeds one core sample of `stream` into the CPU total (model_cpu.c). */
void model_node_cpu_note(model_node *n, uint64_t stream, int64_t ts, double v);
/* Emits every pending group (when keep_newest, the newest only once it
 * holds the node's core count).
 * Returns how many samples went into the total (the node's generation is
 * bumped when any did). */
size_t model_node_cpu_flush(model_node *n, int keep_newest);
/* Records the extra key names of a sample's raw members (model_extra.c). */
void model_node_note_extra(model_node *n, const char *p, size_t len);
/* Adds one event under its label. Sets *kind. 0, or -1 on OOM. */
int model_node_add_event(model_node *n, const sm_event *e, phase_kind *kind);
/* Adds one event to node n and to its writer's process (model_process.c).
 * Sets *kind. 0, or -1 on OOM (the event may then be counted in the node
 * and not in its process). */
int model_node_add_writer_event(model_node *n, const sm_event *e, phase_kind *kind);
/* The node whose phases n shows: its parent for an aliasing process. */
static inline const model_node *model_node_phases_of(const model_node *n)
{
    return n->alias ? n->parent : n;
}

int model_ptrvec_reserve(ptrvec *pv, size_t extra);
/* Inserts at position i; requires a prior successful reserve. */
void model_ptrvec_insert(ptrvec *pv, size_t i, void *p);

/* model_natural_cmp over slices. */
int model_natural_cmp_n(const char *a, size_t la, const char *b, size_t lb);

/* model_gpu.c's rows, kept in the model (model.c). */
struct model_gpus;
struct model_gpus **model_gpus_ref(model *m);
void model_gpus_free(struct model_gpus *g);
/* A change that no add made (a Kineto rank merged): readers refresh. */
void model_bump_generation(model *m);

#endif
