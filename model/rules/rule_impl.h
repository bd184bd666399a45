/* rule_impl: what the rule implementations (model/rule_*.c) share — the
 * rule descriptor table entry, helpers to record violations, and the
 * per-node aligned time grid the system-metric rules evaluate on.
 * Internal to model/; views use rules.h. */
#ifndef SMTOP_RULE_IMPL_H
#define SMTOP_RULE_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "model/gpu/gpu_rank.h"
#include "model/model.h"
#include "model/rules/rules.h"

typedef struct rule_param_def {
    const char *name;
    double def, min, max;
    /* 1: a count of system samples (a window, a patience), set for
     * smdebug's 500 ms sampling: over a coarser source it counts the
     * same time span (rules.h) */
    int samples;
} rule_param_def;

/* Evaluates one rule over m with params p (table order) into out, which
 * arrives zeroed except name/severity. Returns 0, -1 on OOM. */
typedef int (*rule_eval_fn)(const model *m, const double *p, rule_result *out);
/* The same for a rule that keeps state between evaluations of one model
 * with the same parameters (*state starts NULL; rules.c frees it with
 * the rule's free_state when the model or a parameter changes). The
 * result must equal what a fresh state would give. */
typedef int (*rule_eval_inc_fn)(const model *m, const double *p, rule_result *out,
                                void **state);

/* What a rule reads, so a change to the other part does not re-run it. */
#define RULE_IN_SYS 1u      /* system series (model_system_generation) */
#define RULE_IN_EV 2u       /* framework events (model_event_generation) */
/* The Kineto ranks' summaries, which sort on read (model_settle leaves
 * them): such a rule runs on the calling thread (rules_run_one). */
#define RULE_IN_RANKS 4u

/* A rule's verdict on one rank's summary: fills out (status, one
 * datapoint, an example, a message); RULE_NO_DATA when the summary lacks
 * what it needs. 0, or -1 on a bad argument. */
typedef int (*rule_rank_fn)(const gpu_summary *s, const double *p, rule_result *out);

typedef struct rule_desc {
    const char *name;
    const char *summary;
    const char *fix;        /* the knob to turn when it fires (rules_fix_at) */
    const char *origin;     /* where its thresholds come from */
    const char *unit;       /* what one datapoint is ("windows") */
    const char *look;       /* where the evidence shows (pane, key) */
    rule_severity severity;
    const char *example_key; /* names the unit of examples[].value */
    unsigned inputs;        /* RULE_IN_* */
    size_t n_params;
    rule_param_def params[RULE_MAX_PARAMS];
    rule_eval_fn evaluate;
    rule_eval_inc_fn evaluate_inc;     /* instead of evaluate, when set */
    void (*free_state)(void *state);
    /* Instead of evaluate: the rule's verdict on one PyTorch profiler
     * rank (rule_kineto_pred.h), run on every rank (rule_kineto_run), and
     * which way its example value is worse (1: larger). */
    rule_rank_fn evaluate_rank;
    int worse_up;
} rule_desc;

/* Rule implementations (one per table row). */
int rule_low_gpu_utilization(const model *m, const double *p, rule_result *o,
                             void **state);
int rule_cpu_bottleneck(const model *m, const double *p, rule_result *o, void **state);
int rule_io_bottleneck(const model *m, const double *p, rule_result *o, void **state);
/* Frees the state of the two above (model/rules/rule_joint.c). */
void rule_joint_state_free(void *state);
int rule_batch_size(const model *m, const double *p, rule_result *o, void **state);
/* Frees the state of the two above (model/rules/rule_sysgpu.c). */
void rule_gpu_state_free(void *state);
int rule_gpu_memory_increase(const model *m, const double *p, rule_result *o,
                             void **state);
void rule_gpu_memory_increase_free(void *state);
int rule_step_outlier(const model *m, const double *p, rule_result *o);
int rule_straggler(const model *m, const double *p, rule_result *o);
int rule_load_balancing(const model *m, const double *p, rule_result *o, void **state);
void rule_load_balancing_free(void *state);
int rule_dataloader(const model *m, const double *p, rule_result *o);
int rule_max_initialization_time(const model *m, const double *p, rule_result *o);
int rule_overall_system_usage(const model *m, const double *p, rule_result *o);
int rule_overall_framework_metrics(const model *m, const double *p, rule_result *o);
/* The PyTorch profiler's rules over every rank (model/rules/rule_kineto.c). */
/* A rule with evaluate_rank, run on every rank the model holds: a rank
 * is one datapoint, its worst is the result's node and device
 * (rule_kineto.c). 0, or -1 on a bad argument. */
int rule_kineto_run(const rule_desc *d, const model *m, const double *p, rule_result *o);
/* How the job is set up, from its traces (model/rules/rule_kineto_setup.c). */
int rule_gloo_with_cuda(const model *m, const double *p, rule_result *o);
int rule_ranks_share_gpu(const model *m, const double *p, rule_result *o);
int rule_tensor_cores_unused(const model *m, const double *p, rule_result *o);
/* 1 when GPU kernel `name` (a gemm) runs on Tensor Cores by its name. */
int rule_kernel_tensor_core(const char *name);

/* --- result helpers (model/rules/rule_util.c) --- */

/* Appends an example (dropped silently past RULE_MAX_EXAMPLES: the counts
 * stay exact, only the list is bounded). */
void rule_result_example(rule_result *o, const char *node, const char *device,
                         int64_t t0, int64_t t1, double value, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
/* Records (node, device, span) as the worst violation. */
void rule_result_worst(rule_result *o, const char *node, const char *device,
                       int64_t t0, int64_t t1);
void rule_result_message(rule_result *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The fired rule's cause and fix, named from the job's figures; a rule
 * that sets neither gets its message and datapoint count as the cause and
 * its table row's fix (rules.c). */
void rule_result_cause(rule_result *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void rule_result_fix(rule_result *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The rule could not judge because the job is shorter than it needs:
 * too_short set, message RULE_TOO_SHORT "199 samples < patience 1000". */
void rule_result_short(rule_result *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The most samples any node's series holds: GPU utilization (gpu 1, any
 * GPU), GPU memory (gpu 2), or the CPU total (gpu 0). */
int64_t rule_samples_most(const model *m, int gpu);

/* Linear-interpolated percentile (numpy's default) of values v[0..n) with
 * integer weights w (each value counted w times; w NULL = all 1). Sorts a
 * copy in scratch pairs (caller-provided, n entries). NAN when empty. */
typedef struct rule_vw { double v, w; } rule_vw;
double rule_percentile(rule_vw *vw, size_t n, double p);
/* rule_percentile of entries a previous rule_percentile call left sorted
 * (another p of the same data, without sorting it again). */
double rule_percentile_sorted(const rule_vw *vw, size_t n, double p);

/* --- aligned grid (model/rules/rule_grid.c) --- */

/* Upper bound on grid cells, so a long job costs bounded memory: past it
 * a cell spans several sampling intervals. */
#define RGRID_MAX_CELLS 32768

typedef struct rgrid {
    int64_t t0_us, width_us;
    size_t n;
} rgrid;

/* The sampling interval of s in µs: the median of its newest raw gaps
 * snapped to the nearest of SageMaker's intervals (100 ms .. 60 s); 0
 * when it has fewer than two raw samples. */
int64_t rule_sample_interval(const series *s);

/* Plans a grid covering every sample of the given series (NULLs skipped):
 * cell width = the finest sampling interval (rule_sample_interval) among them (or wider when
 * more than RGRID_MAX_CELLS cells would be needed), cells centred on the
 * first sample's tick. Returns 0, or -1 when no series has data. */
int rule_grid_plan(const series *const *ss, size_t n, rgrid *g);

/* One series on a grid: val[i] = mean of the samples in cell i, cnt[i] =
 * how many (0 = no data, val NAN). */
typedef struct rcol {
    double *val;
    double *cnt;
} rcol;

/* Fills col (allocating it) from s over g. -1 on OOM (col left empty). */
int rule_col_fill(rcol *col, const series *s, const rgrid *g);
/* Fills cells [from, g->n) of col, allocated for at least g->n cells,
 * exactly as rule_col_fill does (the same additions in the same order, so the
 * same doubles), visiting only the points of those cells. */
void rule_col_fill_from(rcol *col, const series *s, const rgrid *g, size_t from);
/* Cell-wise mean of several series (cells where none has data stay empty).
 * -1 on OOM. n may be 0 (empty column). */
int rule_col_fill_mean(rcol *col, const series *const *ss, size_t n, const rgrid *g);
/* Fills cells [from, g->n) of col, allocated for at least g->n cells,
 * exactly as rule_col_fill_mean does. -1 on OOM (col unchanged). */
int rule_col_fill_mean_from(rcol *col, const series *const *ss, size_t n, const rgrid *g,
                            size_t from);
void rule_col_free(rcol *col);

/* The cell holding time t, clamped to [0, g->n]. */
size_t rule_grid_cell_at(const rgrid *g, int64_t t);
/* Time span of cells [a, b]. */
int64_t rule_grid_cell_t0(const rgrid *g, size_t i);
int64_t rule_grid_cell_t1(const rgrid *g, size_t i);

/* Index of the first cell after `patience` samples (counting the cells
 * where present[i] != 0, by their sample count cnt[i]); n when patience is
 * never exhausted. */
size_t rule_grid_skip_patience(const rgrid *g, const double *cnt,
                               const unsigned char *present, double patience);

/* --- what changed in a series since a rule last read it (rule_cursor.c) ---
 *
 * A live job appends: new samples come after the newest one, and the
 * series rolls its oldest raw samples into 10 s buckets (and, when that
 * tier is full, its oldest buckets into 5 min ones). A grid cell holds the
 * points whose time falls in it, so after an append only these cells can
 * differ: from the previous newest sample on, and around the raw (and
 * tier-1) boundary, which moved. A cursor remembers the series' extent and
 * boundaries, so a rule re-derives those cells only. */
typedef struct rcursor {
    const series *s;
    int64_t count, last_us;
    int64_t first_pt;       /* time of the oldest stored point */
    int64_t raw_from;       /* oldest raw sample; INT64_MAX when none */
    int64_t t1_from;        /* oldest 10 s bucket; INT64_MAX when none */
} rcursor;

/* Times [t0, t1) whose cells may have changed, and why. */
typedef enum rspan_kind {
    RSPAN_NEW = 0,      /* samples after the previous newest */
    RSPAN_RAW,          /* raw samples rolled into 10 s buckets */
    RSPAN_T1            /* 10 s buckets rolled into 5 min ones */
} rspan_kind;

typedef struct rspan {
    int64_t t0, t1;
    rspan_kind kind;
} rspan;

#define RCURSOR_SPANS 3

/* Reads s's current state into c (walks the rolled-up tiers once). */
void rule_cursor_init(rcursor *c, const series *s);
/* What changed in c->s since c was taken: writes up to RCURSOR_SPANS
 * spans to out and returns their count (0: nothing), and moves c to the
 * present. -1 when the change is not an append the spans bound (a sample
 * older than the newest, the oldest point dropped, too many new samples
 * at once): the caller recomputes everything and re-inits c. */
int rule_cursor_advance(rcursor *c, rspan *out);

/* --- a checkpointed unit of a rule (rule_cursor.c) ---
 *
 * A rule that walks a unit's grid cells in order (a GPU, a node) can
 * keep its walk's state at a cell no later append can change ("stable":
 * before the raw boundary's span, and before the 10 s tier's once that
 * tier rolls) and resume from there, reading only the newer cells. A
 * watch holds the unit's series cursors, its grid and that cell. */
typedef struct rwatch {
    const series **ss;
    rcursor *cur;
    unsigned char *t1_rolls;    /* that series' 10 s tier is full and rolling */
    size_t n;
    rgrid g;
    size_t stable;              /* the checkpoint is at this cell */
    int valid;
} rwatch;

/* Brings w to the present of series ss[0..n) on grid g (planned over
 * them): 1 when the checkpoint at w->stable still stands (every change
 * lies at or after it, the grid only grew), 0 when the unit starts over
 * (w->stable = 0, cursors taken anew), -1 on OOM (w left invalid). */
int rule_watch_advance(rwatch *w, const series *const *ss, size_t n, const rgrid *g);
/* The cell of g the checkpoint can move up to after an advance: no later
 * append changes a cell before it. Never below w->stable. */
size_t rule_watch_keep(const rwatch *w, const rgrid *g);
/* Takes the new grid (call once the walk is done) and marks w valid. */
void rule_watch_done(rwatch *w, const rgrid *g);
void rule_watch_free(rwatch *w);

/* Units of a rule's state found by a key (a series, a node), in the order
 * first asked for. Each unit is `size` bytes and starts with its key. */
typedef struct runits {
    unsigned char *u;
    size_t n, cap, next, size;
} runits;

/* A rule's state *state as a table of `size`-byte units, made on first
 * use. NULL on OOM. */
runits *rule_units_get(void **state, size_t size);
/* The unit of key (a new zeroed one when unknown, key set). NULL on OOM. */
void *rule_units_of(runits *t, const void *key);
/* Calls fin on every unit (when not NULL) and frees the table (t may be
 * NULL). */
void rule_units_free(runits *t, void (*fin)(void *unit));

#endif
