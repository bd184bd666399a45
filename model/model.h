/* model: everything smtop knows about one training job.
 *
 * Nodes (sorted naturally: algo-2 before algo-10) → series per (type,
 * dimension, name) and phase_stats per event label; node aggregates (total
 * CPU = mean over cores at each timestamp, per-GPU utilization and memory,
 * host memory); job phases. Fed by the decoders (io/) through
 * model_add_sample / model_add_event; read by views (tui/).
 *
 * No I/O, no curses, no locking: the caller serialises access (the loader
 * thread holds the app's lock while it ingests a chunk, a view holds it
 * while it reads). Pointers returned by getters stay valid until
 * model_free (nodes, series and phase_stats are never removed), but their
 * contents change on the next add. */
#ifndef SMTOP_MODEL_H
#define SMTOP_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "model/steps/phase_stats.h"
#include "model/records.h"
#include "model/series/series.h"

typedef struct model model;
typedef struct model_node model_node;

/* The time filter (--since/--until): a system sample is kept when
 * since <= t < until; a framework event when it overlaps the window, i.e.
 * ends at or after since (one ending exactly at since is kept) and starts
 * before until. */
typedef struct model_config {
    int64_t since_us;   /* 0 = no bound */
    int64_t until_us;   /* 0 = no bound */
} model_config;

/* Job phases from SPEC: initialization = first record → first step start,
 * training = first step start → last step end, finalization = last step
 * end → last record. All 0 when unknown (e.g. no steps seen). */
typedef struct job_phases {
    int64_t first_us, first_step_us, last_step_end_us, last_us;
    int64_t init_us, training_us, final_us;
    int has_steps;
} job_phases;

/* Bounds on what the data may make the model hold. A time outside the
 * window is a unit error or garbage (a millisecond timestamp read as
 * seconds is year 58864); believing it would move the live window and the
 * job's phases there. The caps bound memory against files with millions
 * of distinct metric names or node ids (10^6 names took 5 GB). */
#define MODEL_TIME_MIN_US SM_TIME_MIN_US
#define MODEL_TIME_MAX_US SM_TIME_MAX_US
#define MODEL_NODE_MAX 16384
#define MODEL_NODE_SERIES_MAX 4096             /* series per node, total CPU included */
#define MODEL_SERIES_MAX 131072                /* series over all nodes */

/* 1 when t_us lies in [MODEL_TIME_MIN_US, MODEL_TIME_MAX_US). */
int model_time_plausible(int64_t t_us);

/* Records the model refused because of the bounds above, since it was
 * made. Callers compare two readings to say which file they came from. */
typedef struct model_drops {
    int64_t bad_time;       /* samples/events with a time outside the window */
    int64_t bad_time_us;    /* the latest such time (an event's start or end) */
    int64_t series_cap;     /* samples of a series past a cap, not created */
    int64_t node_cap;       /* records of a node past MODEL_NODE_MAX */
} model_drops;

void model_get_drops(const model *m, model_drops *out);

model *model_new(const model_config *cfg); /* cfg may be NULL; NULL on OOM */
void model_free(model *m);
/* The time filter m was made with (zeros: none). */
model_config model_get_config(const model *m);

/* Ingest one record. Returns 0, 1 when the record was ignored (outside the
 * time filter, a non-finite value, a sample named like the derived CPU
 * total, or refused by a bound: see model_get_drops), -1 on OOM (record
 * dropped; an event may then have counted in its node and not in its
 * process). An event counts in its node and, when it names its writer
 * (e->process), in that process too. */
int model_add_sample(model *m, const sm_sample *s);
/* Where a sample went (its node and series), for a caller that adds many
 * samples of the same few series, e.g. a file's. Zero it for a key not
 * seen yet; model_add_sample_ref then finds the series as model_add_sample
 * does and fills it, later samples of the same (node, type, dimension,
 * name) go straight there. Same results as model_add_sample. A ref stays
 * valid while the model lives: nodes and series are never freed before
 * it. The caller must only hand it samples of the key it was filled for. */
typedef rec_ref model_ref;   /* records.h: a line decoder keeps one per key */
int model_add_sample_ref(model *m, const sm_sample *s, model_ref *ref);
/* Series by series: a caller holding a run of samples (a file's) may add
 * them grouped by key, each key's in their order, through
 * model_add_sample_defer, which does all model_add_sample_ref does but
 * feed a core's sample into the node's CPU total. Then, for every sample
 * it returned 0 for, model_note_cpu in the run's own order, before any
 * other sample is added: the total sums a timestamp's cores in the order
 * they came. Same results as model_add_sample in the run's order, with
 * each series' data hot while its samples go in (issue 15). A sample
 * with a time outside model_time_plausible must go through
 * model_add_sample in its place instead (the drop keeps the last one). */
int model_add_sample_defer(model *m, const sm_sample *s, model_ref *ref);
void model_note_cpu(model *m, const model_ref *ref, const sm_sample *s);
int model_add_event(model *m, const sm_event *e);

/* Declares a batch boundary. Total-CPU groups still waiting for more cores
 * are emitted: all of them when `final` (no more data will come), else all
 * but each node's newest (the file being written may still add cores to
 * it). The scanner calls this after every pass and at the end. Bumps
 * the generations only when it emitted something. */
void model_flush(model *m, int final);

/* Declares which stream (one file: any id the caller keeps for it) the
 * samples that follow come from; 0 until set. A node's core count is
 * learnt from one timestamp's cores followed by a later timestamp, which
 * proves the group complete only within one file: the scanner reads
 * newest files first, so the next minute's file may come between two
 * reads of this one. The scanner calls it before each read of a system
 * file. */
void model_set_stream(model *m, uint64_t id);

/* ---- node writers (issue 28) ------------------------------------------
 *
 * Several threads may add to one model at once, each through a writer of
 * its own bound to one node at a time, no two to the same node, while no
 * one else touches the model (the caller holds its lock; model_add_* and
 * the getters wait). A writer's adds do to its node exactly what
 * model_add_* would; what they do to the job (times, generations, series
 * and node counts) stays in the writer until model_fold_shard, by sums,
 * minima and maxima, so the model ends as one writer would have left it
 * whatever the threads' timing. A record naming another node than the
 * bound one is kept aside (returns 0) and added, in order, by
 * model_shard_apply_deferred. Drops (model_drops) are counted in the
 * writer (model_shard_get_drops) and are the caller's to add
 * (model_add_drops), file by file in the order a single writer would
 * have read them, so the latest bad time is that writer's. */
typedef struct model_shard model_shard;
model_shard *model_shard_new(model *m);   /* NULL on OOM */
/* The model's own writer, what model_add_* use: unbound, it adds to any
 * node and counts straight into the model. Lives as long as m. */
model_shard *model_writer(model *m);
void model_shard_free(model_shard *w);    /* NULL is fine; after the fold */
/* Binds w to node id (len bytes) until the next bind: it may make at most
 * `room` new series there (see model_series_room). 0, or -1 on OOM. */
int model_shard_bind(model_shard *w, const char *id, size_t len, size_t room);
/* As model_set_stream, for w's adds. */
void model_shard_set_stream(model_shard *w, uint64_t id);
/* Labels the records w keeps aside from now on (a file's position). */
void model_shard_set_tag(model_shard *w, uint64_t tag);
/* As model_add_sample_ref, model_add_sample_defer, model_note_cpu and
 * model_add_event, through w. */
int model_shard_add_sample_ref(model_shard *w, const sm_sample *s, model_ref *ref);
int model_shard_add_sample_defer(model_shard *w, const sm_sample *s, model_ref *ref);
void model_shard_note_cpu(model_shard *w, const model_ref *ref, const sm_sample *s);
/* A run of one key's samples, whose series an earlier add through ref
 * found (ref->ent set): proto's strings with times ts[i] and values v[i],
 * i < n <= MODEL_RUN_MAX, added as n calls of
 * model_shard_add_sample_defer would add them, in order; taken[i] is 1
 * for each that went in (that call's 0). One call a run instead of one a
 * sample (issue 28: the series' figures are folded block by block). */
#define MODEL_RUN_MAX REC_RUN_MAX
void model_shard_add_run(model_shard *w, const model_ref *ref, const sm_sample *proto,
                         const int64_t *ts, const double *v, size_t n, unsigned char *taken);
int model_shard_add_event(model_shard *w, const sm_event *e);
/* The drops w counted since it was made. */
void model_shard_get_drops(const model_shard *w, model_drops *out);
/* Series the model may still make (MODEL_SERIES_MAX over all nodes). */
size_t model_series_room(const model *m);
/* Room for n more nodes, so that model_fold_shard cannot fail. 0, or -1
 * on OOM. */
int model_reserve_nodes(model *m, size_t n);
/* Folds w's job-wide state into m and registers the nodes it made (room
 * reserved with model_reserve_nodes); w is then as new, unbound. */
void model_fold_shard(model *m, model_shard *w);
/* Adds d's counts to m's drops; its bad_time_us becomes m's latest when
 * d counts any. */
void model_add_drops(model *m, const model_drops *d);
/* Adds, in order, the records w kept aside while its tag was `tag`
 * (through m's own writer, each with the stream it came with). */
void model_shard_apply_deferred(model *m, model_shard *w, uint64_t tag);

/* Where the system samples come from when not from Debugger's files
 * (the default, ""): "CloudWatch", published every interval_us. Rules
 * read it to count their sample windows over the same time span
 * (rules.h), views to say which source a chart shows. name is copied
 * (at most 47 bytes); NULL or "" goes back to the default. */
void model_set_system_source(model *m, const char *name, int64_t interval_us);
/* The name ("" for Debugger's files) and, when interval_us is not NULL,
 * its interval (0 for Debugger's files: the data tell). */
const char *model_system_source(const model *m, int64_t *interval_us);

/* How many GPUs one GPU series stands for: 1 for Debugger's (one per
 * device), a host's GPUs for CloudWatch's host mean; GPU-hours count
 * them all (device_usage). n < 1 is 1. */
void model_set_gpus_per_series(model *m, int n);
int model_gpus_per_series(const model *m);

/* How many PyTorch profiler traces the job's passes read, and how many
 * they could not (named in the warnings): set by the job after each pass
 * (job_scan), so the verdict can say that its GPU figures lack some. */
void model_set_trace_files(model *m, int64_t read, int64_t unread);
void model_get_trace_files(const model *m, int64_t *read, int64_t *unread);

/* Time span of everything ingested (system samples and events). 0 when empty. */
int64_t model_first_us(const model *m);
int64_t model_last_us(const model *m);
/* The span of the system samples over every node: 1 with *first_us and
 * *last_us, or 0 (both untouched) when there are none. Walks every
 * series: for a check after a pass, not per frame. */
int model_sample_span(const model *m, int64_t *first_us, int64_t *last_us);
/* Time of the newest system sample / event separately (0 when none). */
int64_t model_last_sample_us(const model *m);
int64_t model_last_event_us(const model *m);
void model_get_job_phases(const model *m, job_phases *out);

/* Bumped on every successful add, and by a model_flush that completed
 * CPU-total samples; never by a flush (a scan pass) that changed nothing,
 * so caches keyed on it recompute only for new data. */
uint64_t model_generation(const model *m);
/* The same, split by input: system samples (and the CPU total derived
 * from them) versus framework events. A reader that depends on one part
 * only skips the other's changes. model_generation changes whenever
 * either does. */
uint64_t model_system_generation(const model *m);
uint64_t model_event_generation(const model *m);

/* Does now the lazy work the model's const readers would do (every
 * series' and phase's staged data merged, percentiles cached, exact
 * buffers sorted), which changes no answer. Until the model is next
 * written, its readers then write nothing, so several threads may read
 * it at once (the report's rules, issue 28); the Kineto ranks' summaries
 * (model_gpu_*) excepted: they still sort on read. */
void model_settle(model *m);
/* model_settle's work for node i alone (i < model_node_count): distinct
 * nodes may be settled at once on several threads, as a node's series
 * and phases are its own. */
void model_settle_node(model *m, size_t i);

size_t model_node_count(const model *m);
const model_node *model_node_at(const model *m, size_t i);
const model_node *model_find_node(const model *m, const char *id);

const char *model_node_id(const model_node *n);
uint64_t model_node_generation(const model_node *n);

/* Raw series in (type, dimension, natural name) order. */
size_t model_node_series_count(const model_node *n);
const series *model_node_series_at(const model_node *n, size_t i);
const series *model_node_find_series(const model_node *n, const char *type,
                                     const char *dimension, const char *name);

/* Aggregates; NULL when the node has no such data. */
const series *model_node_cpu_total(const model_node *n);   /* type "cpu", dim "CPUUtilization", name "total" */
size_t model_node_cpu_count(const model_node *n);          /* cores seen */
const series *model_node_cpu_core(const model_node *n, size_t i); /* natural order cpu0, cpu1, ... */
size_t model_node_gpu_count(const model_node *n);          /* GPUs seen (util or memory) */
const char *model_node_gpu_name(const model_node *n, size_t i);   /* "gpu0" */
const series *model_node_gpu_util(const model_node *n, size_t i);
const series *model_node_gpu_mem(const model_node *n, size_t i);
const series *model_node_host_mem(const model_node *n);    /* type "memory" */
/* I/O and network series: every series of that type, in order. */
size_t model_node_io_count(const model_node *n);
const series *model_node_io_at(const model_node *n, size_t i);
size_t model_node_net_count(const model_node *n);
const series *model_node_net_at(const model_node *n, size_t i);

/* Framework-event statistics: one per label (the pid's phase name for
 * Step/Forward/Backward, the event name for data-loader events), in order
 * steps first (TRAIN, EVAL, GLOBAL, others), then forward, backward,
 * data loader, other. */
size_t model_node_phase_count(const model_node *n);
const phase_stats *model_node_phase_at(const model_node *n, size_t i);
const phase_stats *model_node_find_phase(const model_node *n, const char *label);

/* Processes: the trace writers of a node, in natural order of their ids
 * ("0-algo-1" .. "7-algo-1", the writer id of smdebug's file names). A
 * process is a model_node that answers model_node_id (the writer id),
 * model_node_generation and the framework-event getters (node_phase_*,
 * model_node_find_phase) for its own events alone; it has no series, no
 * processes, and is not among model_node_at's nodes. A node's phases pool
 * the events of all its processes (and of events naming no writer). At
 * most NODE_PROC_MAX (256) processes per node: the events of further
 * writers count in the node only. */
size_t model_node_process_count(const model_node *n);
const model_node *model_node_process_at(const model_node *n, size_t i);
const model_node *model_node_find_process(const model_node *n, const char *id);
/* The node a process belongs to; n itself for a node. */
const model_node *model_node_parent(const model_node *n);
/* A node by id, else a process of any node by writer id; NULL if neither. */
const model_node *model_find_writer(const model *m, const char *id);

/* Names of unknown extra keys seen in this node's system lines
 * (e.g. "GPUTemperature"), in first-seen order. */
size_t model_node_extra_key_count(const model_node *n);
const char *model_node_extra_key_at(const model_node *n, size_t i);

/* Natural ("version") ordering used for node and device names: digit runs
 * compare numerically. Exposed for views that sort. */
int model_natural_cmp(const char *a, const char *b);

#endif
