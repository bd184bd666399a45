/* model_internal: the job's state and its writers, shared by model.c (the
 * adds, the getters of job-wide facts) and model_shard.c (writers of their
 * own, for the scanner's node workers). Not used outside model/. */
#ifndef SMTOP_MODEL_INTERNAL_H
#define SMTOP_MODEL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/core/model_node.h"

/* What every add does to the job as a whole. Each is a sum, a minimum or
 * a maximum, so a writer's own copy folds into the model's
 * (model_fold_shard) with the result a single writer would have had. */
typedef struct model_acc {
    uint64_t gen, sys_gen, ev_gen;  /* see model_generation */
    int64_t first_us, last_us, last_sample_us, last_event_us;
    int any;
    int64_t first_step_us, last_step_end_us;
    int has_steps;
    size_t nseries;         /* series made (over all nodes, for the model's own) */
    model_drops drops;
} model_acc;

/* A record a node writer handed on because it names another node than
 * the one it is bound to: a copy, applied by the model's own writer at
 * the end of the batch (model_shard_apply_deferred). */
typedef struct model_deferred {
    uint64_t tag, stream;
    int is_event;
    sm_sample s;
    sm_event ev;
    char *strs;             /* owns every string of s or ev; NULL once applied */
} model_deferred;

struct model_shard {
    model *m;
    model_acc *a;           /* where the adds count: &m->acc, or &own */
    model_acc own;
    uint64_t stream;        /* see model_set_stream */
    model_node *last_node;  /* files are per node: consecutive records hit it */
    int worker;             /* a node writer (model_shard_new) */
    /* A node writer: the node it may touch, found or made on its first
     * record; nodes it made wait in `fresh` for model_fold_shard. */
    char *bind;
    size_t bind_len, bind_cap;
    model_node *bound;
    size_t room;            /* series it may still make */
    ptrvec fresh;
    uint64_t tag;
    model_deferred *def;
    size_t ndef, capdef, def_at;    /* def_at: how many were applied */
};

struct model {
    model_config cfg;
    ptrvec nodes;           /* model_node*, natural order */
    model_acc acc;
    model_shard own;        /* model_add_* write through it */
    struct model_gpus *gpus; /* Kineto ranks (model_gpu.c), NULL until one */
    char sys_source[48];    /* model_set_system_source; "" = Debugger's files */
    int64_t sys_interval_us;
    int gpus_per_series;    /* model_set_gpus_per_series; 0 = 1 */
};

/* Frees what a writer holds (not w itself). */
void model_shard_clear(model_shard *w);
/* Keeps a copy of a record of another node than w's, for
 * model_shard_apply_deferred. 0, or -1 on OOM (the record is lost). */
int model_shard_defer_sample(model_shard *w, const sm_sample *s);
int model_shard_defer_event(model_shard *w, const sm_event *e);

/* The position of id in m->nodes; *found when a node has it. */
size_t model_node_pos(const model *m, const char *id, size_t len, int *found);

#endif
