/* rules: the rule table (names, parameters with SageMaker's defaults, the
 * function that evaluates each) and the rules object holding parameter
 * values and the latest results. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/rules/rule_impl.h"
#include "model/rules/rule_kineto_pred.h"
#include "model/util/suggest.h"

#define PCT(n, d) {.name = (n), .def = (d), .min = 0, .max = 100}
#define COUNT(n, d) {.name = (n), .def = (d), .min = 0, .max = 1e9}
#define WINDOW(n, d) {.name = (n), .def = (d), .min = 1, .max = 1e7, .samples = 1}
#define SAMPLES(n, d) {.name = (n), .def = (d), .min = 0, .max = 1e9, .samples = 1}

static const rule_desc RULES[] = {
    {.name = "LowGPUUtilization", .unit = "windows", .origin = "ProfilerReport",
     .fix = "remove what the GPU waits for (the traces name it), then a bigger batch until its p95 passes the threshold",
     .look = "System (1): the node's gpu chart; Heatmap (2): gpu%",
     .example_key = "gpu_pct", .inputs = RULE_IN_SYS,
     .severity = RULE_SEV_HIGH,
     .summary = "per GPU and window: p95 < threshold_p95, or p5 < threshold_p5",
     .n_params = 4, .evaluate_inc = rule_low_gpu_utilization,
     .free_state = rule_gpu_state_free,
     .params = {PCT("threshold_p95", 70), PCT("threshold_p5", 10),
                WINDOW("window", 500), SAMPLES("patience", 1000)}},
    {.name = "CPUBottleneck", .unit = "samples", .origin = "ProfilerReport",
     .fix = "move data work off the training process: DataLoader(num_workers=N, pin_memory=True, prefetch_factor=2), or pre-process the data once before training",
     .look = "System (1): the node's cpu and gpu charts (c: per core)",
     .example_key = "cpu_pct", .inputs = RULE_IN_SYS,
     .severity = RULE_SEV_HIGH,
     .summary = "share of samples with GPU < gpu_threshold and CPU > cpu_threshold above threshold %",
     .n_params = 4, .evaluate_inc = rule_cpu_bottleneck,
     .free_state = rule_joint_state_free,
     .params = {PCT("threshold", 50), PCT("gpu_threshold", 10),
                PCT("cpu_threshold", 90), SAMPLES("patience", 1000)}},
    {.name = "IOBottleneck", .unit = "samples", .origin = "ProfilerReport",
     .fix = "pre-fetch the data (DataLoader(num_workers=N, prefetch_factor)) and read it in larger binary shards, or from a faster store (FSx for Lustre, fast file mode)",
     .look = "System (1): the node's I/O and gpu charts",
     .example_key = "io_pct", .inputs = RULE_IN_SYS,
     .severity = RULE_SEV_HIGH,
     .summary = "share of samples with GPU < gpu_threshold and I/O wait > io_threshold above threshold %",
     .n_params = 4, .evaluate_inc = rule_io_bottleneck,
     .free_state = rule_joint_state_free,
     .params = {PCT("threshold", 50), PCT("gpu_threshold", 10),
                PCT("io_threshold", 50), SAMPLES("patience", 1000)}},
    {.name = "BatchSize", .unit = "windows", .origin = "ProfilerReport",
     .fix = "a bigger batch (scale the learning rate with it), or a smaller instance for this model",
     .look = "System (1): cpu, gpu and gmem charts all low",
     .example_key = "gpu_pct", .inputs = RULE_IN_SYS,
     .severity = RULE_SEV_LOW,
     .summary = "per window: p95 of CPU, GPU and GPU memory all below thresholds",
     .n_params = 5, .evaluate_inc = rule_batch_size,
     .free_state = rule_gpu_state_free,
     .params = {PCT("cpu", 70), PCT("gpu", 70), PCT("gpu_memory", 70),
                WINDOW("window", 500), SAMPLES("patience", 1000)}},
    {.name = "GPUMemoryIncrease", .unit = "windows", .origin = "ProfilerReport",
     .fix = "look for tensors kept across steps (a loss summed without .item(), growing lists); if the model needs the memory, a larger GPU",
     .look = "System (1): the gmem chart of the device",
     .example_key = "gpu_memory_pct", .inputs = RULE_IN_SYS,
     .severity = RULE_SEV_MED,
     .summary = "moving average of GPU memory rises more than increase points",
     .n_params = 3, .evaluate_inc = rule_gpu_memory_increase,
     .free_state = rule_gpu_memory_increase_free,
     .params = {PCT("increase", 5), WINDOW("window", 10), SAMPLES("patience", 1000)}},
    {.name = "StepOutlier", .unit = "steps", .origin = "ProfilerReport",
     .fix = "look at what ran in the slow steps (Timeline, f on the step): a data stall, a checkpoint or an evaluation; move it off the step or out of the loop",
     .look = "Steps (3): o O walk the outliers, f focuses one",
     .example_key = "duration_us", .inputs = RULE_IN_EV,
     .severity = RULE_SEV_MED,
     .summary = "more than n_outliers steps slower than mean + stddev sigma (after 100 steps)",
     .n_params = 2, .evaluate = rule_step_outlier,
     .params = {{.name = "stddev", .def = 3, .min = 0, .max = 1000},
                COUNT("n_outliers", 10)}},
    {.name = "Straggler", .unit = "ranks or nodes", .origin = "smtop",
     .fix = "look at the slow rank's host and data shard: DDP waits for the slowest rank every step",
     .look = "Steps (3): r R pick the rank; System (1): its node",
     .example_key = "p50_us", .inputs = RULE_IN_EV,
     .severity = RULE_SEV_MED,
     .summary = "a rank (or node) whose median TRAIN step is threshold % above its peers'",
     .n_params = 2, .evaluate = rule_straggler,
     .params = {{.name = "threshold", .def = 10, .min = 0, .max = 1e6},
                COUNT("min_steps", 10)}},
    {.name = "LoadBalancing", .unit = "GPU pairs", .origin = "ProfilerReport",
     .fix = "spread the work evenly over the GPUs: one rank per GPU with DDP (torchrun --nproc_per_node=GPUs) instead of DataParallel",
     .look = "Heatmap (2): the node's GPUs side by side",
     .example_key = "distance", .inputs = RULE_IN_SYS,
     .severity = RULE_SEV_MED,
     .summary = "distance between GPU utilization histograms above threshold",
     .n_params = 2, .evaluate_inc = rule_load_balancing,
     .free_state = rule_load_balancing_free,
     .params = {{.name = "threshold", .def = 0.5, .min = 0, .max = 1},
                SAMPLES("patience", 1000)}},
    {.name = "Dataloader", .unit = "nodes", .origin = "ProfilerReport; TensorBoard profiler (data > 5 % of a step)",
     .fix = "DataLoader(num_workers=N, pin_memory=True, persistent_workers=True)",
     .look = "Timeline (5), v: the loader view (data per step, workers)",
     .example_key = "workers_per_core_pct", .inputs = RULE_IN_SYS | RULE_IN_EV,
     .severity = RULE_SEV_LOW,
     .summary = "parallel data loaders below min % or above max % of cores (smdebug); "
                "data loading min_data_pct % or more of the TRAIN steps (PyTorch profiler)",
     .n_params = 3, .evaluate = rule_dataloader,
     .params = {{.name = "min_threshold", .def = 70, .min = 0, .max = 100000},
                {.name = "max_threshold", .def = 200, .min = 0, .max = 100000},
                PCT("min_data_pct", 5)}},
    {.name = "MaxInitializationTime", .unit = "jobs", .origin = "ProfilerReport",
     .fix = "start training sooner: stream the data (fast file mode, FSx for Lustre) instead of downloading it all, and load the model once",
     .look = "Steps (3): the first step's time; System (1): I/O during start-up",
     .example_key = "init_min", .inputs = RULE_IN_SYS | RULE_IN_EV,
     .severity = RULE_SEV_MED,
     .summary = "no first step after threshold minutes",
     .n_params = 1, .evaluate = rule_max_initialization_time,
     .params = {{.name = "threshold", .def = 20, .min = 0, .max = 1e6}}},
    {.name = "OverallSystemUsage", .unit = "metrics", .origin = "ProfilerReport",
     .fix = "",
     .look = "report: details",
     .inputs = RULE_IN_SYS,
     .severity = RULE_SEV_INFO,
     .summary = "never fires: per-node p50/p95/p99/max of each metric",
     .n_params = 0, .evaluate = rule_overall_system_usage},
    {.name = "OverallFrameworkMetrics", .unit = "phases", .origin = "ProfilerReport",
     .fix = "",
     .look = "report: details",
     .inputs = RULE_IN_EV,
     .severity = RULE_SEV_INFO,
     .summary = "never fires: time in each framework phase",
     .n_params = 0, .evaluate = rule_overall_framework_metrics},
    /* The PyTorch profiler's rules: a predicate over one rank's summary
     * (rule_kineto_pred.c) run on every rank, one datapoint each
     * (rule_kineto.c). */
    {.name = "GPUIdleHostBound", .unit = "ranks", .origin = "HTA (idle time breakdown)",
     .fix = "take the host's work off the GPU's path: what ran while the GPU waited names it (report: idle causes); a bigger batch amortises it",
     .look = "Top (4), o: GPU idle: host, critical path; Timeline (5): the GPU split per step",
     .example_key = "idle_pct", .inputs = RULE_IN_EV | RULE_IN_RANKS,
     .severity = RULE_SEV_HIGH,
     .summary = "Kineto: GPU idle above threshold % of its span, more than host_wait % "
                "of it waiting for kernel launches",
     .n_params = 2, .evaluate_rank = rule_kineto_pred_idle_host_bound, .worse_up = 1,
     .params = {PCT("threshold", 50), PCT("host_wait", 50)}},
    {.name = "CommNotOverlapped", .unit = "ranks", .origin = "HTA (comm/comp overlap); TensorBoard profiler (communication > 10 %)",
     .fix = "overlap the all-reduce with the backward: DDP(bucket_cap_mb=25 or less), no find_unused_parameters; or all-reduce less often (gradient accumulation under no_sync()) or a bigger batch",
     .look = "Timeline (5): comm per step; Top (4), o: kernels",
     .example_key = "overlap_pct", .inputs = RULE_IN_EV | RULE_IN_RANKS,
     .severity = RULE_SEV_MED,
     .summary = "Kineto: communication at least min_comm % of GPU time, under threshold % "
                "of it overlapped with computation",
     .n_params = 2, .evaluate_rank = rule_kineto_pred_comm_not_overlapped, .worse_up = 0,
     .params = {PCT("threshold", 30), PCT("min_comm", 10)}},
    {.name = "KernelLaunchOverhead", .unit = "ranks", .origin = "HTA (kernel launch statistics)",
     .fix = "fewer, larger kernels: torch.compile(mode=\"reduce-overhead\") or CUDA graphs, fused optimizers (AdamW(fused=True)), a bigger batch",
     .look = "Top (4), o: kernels (count); report: gpu[].launch",
     .example_key = "short_pct", .inputs = RULE_IN_EV | RULE_IN_RANKS,
     .severity = RULE_SEV_MED,
     .summary = "Kineto: more than threshold % of kernels shorter than their launch call "
                "(after min_launches launches)",
     .n_params = 2, .evaluate_rank = rule_kineto_pred_launch_overhead, .worse_up = 1,
     .params = {PCT("threshold", 50), COUNT("min_launches", 100)}},
    {.name = "GPUMemoryNearCapacity", .unit = "ranks", .origin = "TensorBoard profiler (peak memory > 90 %)",
     .fix = "activation checkpointing (torch.utils.checkpoint), bf16 autocast, or a smaller micro-batch with gradient accumulation",
     .look = "report: gpu[].memory; the rank's [memory] peak",
     .example_key = "reserved_pct", .inputs = RULE_IN_EV | RULE_IN_RANKS,
     .severity = RULE_SEV_HIGH,
     .summary = "Kineto: peak reserved GPU memory above threshold % of totalGlobalMem, "
                "or an OutOfMemory event",
     .n_params = 1, .evaluate_rank = rule_kineto_pred_memory_near_capacity, .worse_up = 1,
     .params = {PCT("threshold", 90)}},
    /* How the job is set up, where its traces show it (rule_kineto_setup.c). */
    {.name = "GlooWithCUDA", .unit = "ranks", .origin = "TensorBoard profiler (DDP without NCCL)",
     .fix = "init_process_group(\"nccl\"): NCCL all-reduces on the GPU during the backward, "
            "no copies through the host",
     .look = "report: gpu[].backend; Top (4), o: kernels (Memcpy ... Pinned), Kineto ops (record_param_comms)",
     .example_key = "all_reduce_calls", .inputs = RULE_IN_EV | RULE_IN_RANKS,
     .severity = RULE_SEV_HIGH,
     .summary = "Kineto: a rank runs DDP over gloo (distributedInfo.backend) with CUDA tensors",
     .n_params = 0, .evaluate = rule_gloo_with_cuda},
    {.name = "RanksShareGPU", .unit = "nodes", .origin = "smtop",
     .fix = "one rank per GPU: torch.cuda.set_device(local_rank) before init_process_group, "
            "torchrun --nproc_per_node=<GPUs>",
     .look = "report: gpu[] (each rank's device); System (1): the node's GPUs",
     .example_key = "ranks", .inputs = RULE_IN_SYS | RULE_IN_EV | RULE_IN_RANKS,
     .severity = RULE_SEV_HIGH,
     .summary = "Kineto: two or more ranks of a node run on one GPU",
     .n_params = 0, .evaluate = rule_ranks_share_gpu},
    {.name = "TensorCoresUnused", .unit = "ranks",
     .origin = "TensorBoard profiler (Tensor Cores eligible: AMP)",
     .fix = "bf16 autocast (with torch.autocast(\"cuda\", dtype=torch.bfloat16)), or TF32: "
            "torch.backends.cuda.matmul.allow_tf32 = True",
     .look = "Top (4), o: kernels (sgemm/simt names)",
     .example_key = "simt_pct", .inputs = RULE_IN_EV | RULE_IN_RANKS,
     .severity = RULE_SEV_MED,
     .summary = "Kineto: matmul kernels at least min_gemm_pct % of GPU time, threshold % or more "
                "of it without Tensor Cores",
     .n_params = 2, .evaluate = rule_tensor_cores_unused,
     .params = {PCT("threshold", 50), PCT("min_gemm_pct", 10)}},
};
#define NRULES (sizeof RULES / sizeof RULES[0])

/* What one rule's result was computed from: it is recomputed only when
 * one of these moved (see rules_evaluate). */
typedef struct rule_stamp {
    uint64_t sys_gen, ev_gen;   /* the model's, when the rule read them */
    uint64_t param_gen;         /* of this rule's own parameters */
    int64_t interval_us;        /* model_system_source's, for effective_params */
    int valid;
} rule_stamp;

struct rules {
    double params[NRULES][RULE_MAX_PARAMS];
    rule_result results[NRULES];
    uint64_t param_gen[NRULES];     /* bumped by a set of this rule's parameter */
    rule_stamp stamp[NRULES];
    void *state[NRULES];            /* an incremental rule's, for last_model */
    uint64_t generation;
    const model *last_model;
    uint64_t runs[NRULES];          /* each rule's runs, for tests and benchmarks */
};

static void reset_result(rules *r, size_t i)
{
    memset(&r->results[i], 0, sizeof r->results[i]);
    r->results[i].name = RULES[i].name;
    r->results[i].example_key = RULES[i].example_key;
    r->results[i].severity = RULES[i].severity;
    r->results[i].status = RULE_NO_DATA;
}

rules *rules_new(void)
{
    rules *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    for (size_t i = 0; i < NRULES; i++)
        for (size_t p = 0; p < RULES[i].n_params; p++)
            r->params[i][p] = RULES[i].params[p].def;
    for (size_t i = 0; i < NRULES; i++) {
        reset_result(r, i);
        strcpy(r->results[i].message, "not evaluated yet");
    }
    return r;
}

/* Drops rule i's incremental state: it re-derives from scratch. */
static void state_reset(rules *r, size_t i)
{
    if (r->state[i] && RULES[i].free_state)
        RULES[i].free_state(r->state[i]);
    r->state[i] = NULL;
}

void rules_free(rules *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < NRULES; i++)
        state_reset(r, i);
    free(r);
}

size_t rules_count(void) { return NRULES; }
const char *rules_name_at(size_t i) { return i < NRULES ? RULES[i].name : NULL; }
const char *rules_summary_at(size_t i) { return i < NRULES ? RULES[i].summary : NULL; }
const char *rules_fix_at(size_t i) { return i < NRULES ? RULES[i].fix : NULL; }
const char *rules_origin_at(size_t i) { return i < NRULES ? RULES[i].origin : NULL; }
const char *rules_unit_at(size_t i) { return i < NRULES ? RULES[i].unit : NULL; }
const char *rules_look_at(size_t i) { return i < NRULES ? RULES[i].look : NULL; }

int rules_find(const char *name)
{
    for (size_t i = 0; name && i < NRULES; i++)
        if (strcasecmp(RULES[i].name, name) == 0)
            return (int)i;
    return -1;
}

size_t rules_param_count(size_t i) { return i < NRULES ? RULES[i].n_params : 0; }

const char *rules_param_name(size_t i, size_t p)
{
    return p < rules_param_count(i) ? RULES[i].params[p].name : NULL;
}

double rules_param_default(size_t i, size_t p)
{
    return p < rules_param_count(i) ? RULES[i].params[p].def : 0;
}

double rules_param_value(const rules *r, size_t i, size_t p)
{
    return p < rules_param_count(i) ? r->params[i][p] : 0;
}

const char *rules_nearest(const char *typed)
{
    const char *names[NRULES];
    for (size_t i = 0; i < NRULES; i++)
        names[i] = RULES[i].name;
    return suggest_nearest(typed, names, NRULES);
}

int rules_set_param(rules *r, const char *rule, const char *param,
                    double value, sm_err *err)
{
    int i = rules_find(rule);
    const char *near = i < 0 ? rules_nearest(rule) : NULL;
    if (near)
        return sm_err_set(err, SM_ERR_USAGE, "unknown rule '%s': did you mean %s?", rule, near);
    if (i < 0)
        return sm_err_set(err, SM_ERR_USAGE, "unknown rule '%s' (try "
                          "LowGPUUtilization, CPUBottleneck, StepOutlier, ...)", rule);
    const rule_desc *d = &RULES[i];
    for (size_t p = 0; p < d->n_params; p++) {
        if (strcasecmp(d->params[p].name, param) != 0)
            continue;
        if (!(value >= d->params[p].min && value <= d->params[p].max))
            return sm_err_set(err, SM_ERR_USAGE, "%s.%s = %g is out of range "
                              "[%g, %g]", d->name, d->params[p].name, value,
                              d->params[p].min, d->params[p].max);
        r->params[i][p] = value;
        r->param_gen[i]++;   /* only this rule re-derives */
        r->generation++;
        return 0;
    }
    char names[160] = "";
    const char *pnames[RULE_MAX_PARAMS] = {NULL};
    for (size_t p = 0; p < d->n_params; p++) {
        strncat(names, p ? ", " : "", sizeof names - strlen(names) - 1);
        strncat(names, d->params[p].name, sizeof names - strlen(names) - 1);
        pnames[p] = d->params[p].name;
    }
    const char *pnear = suggest_nearest(param, pnames, d->n_params);
    if (pnear)
        return sm_err_set(err, SM_ERR_USAGE, "rule %s has no parameter '%s': did you mean "
                          "%s.%s?", d->name, param, d->name, pnear);
    return sm_err_set(err, SM_ERR_USAGE, "rule %s has no parameter '%s' "
                      "(parameters: %s)", d->name, param,
                      d->n_params ? names : "none");
}

uint64_t rules_generation(const rules *r) { return r->generation; }

/* 1 when rule i's result still stands for m: nothing it reads changed. */
static int rule_fresh(const rules *r, size_t i, const model *m)
{
    const rule_stamp *st = &r->stamp[i];
    if (!st->valid || st->param_gen != r->param_gen[i])
        return 0;
    if ((RULES[i].inputs & RULE_IN_SYS) && st->sys_gen != model_system_generation(m))
        return 0;
    if ((RULES[i].inputs & RULE_IN_EV) && st->ev_gen != model_event_generation(m))
        return 0;
    return 1;
}

/* The sampling the sample-count parameters are set for: smdebug's
 * default ProfilingIntervalInMilliseconds. */
#define RULE_BASE_INTERVAL_US 500000

/* Rule i's parameters as they apply to m: over a system source sampled
 * coarser than smdebug (CloudWatch: once a minute), a window or patience
 * of N samples counts the samples of the same time span, at least one
 * (LowGPUUtilization's 500-sample window, 250 s, is 5 CloudWatch
 * minutes; its patience of 1000, 9). Otherwise as set. */
static void effective_params(const rules *r, size_t i, const model *m, double *out)
{
    int64_t iv = 0;
    model_system_source(m, &iv);
    for (size_t p = 0; p < RULES[i].n_params; p++) {
        out[p] = r->params[i][p];
        if (RULES[i].params[p].samples && iv > RULE_BASE_INTERVAL_US) {
            out[p] = ceil(out[p] * RULE_BASE_INTERVAL_US / (double)iv);
            if (out[p] < 1)
                out[p] = RULES[i].params[p].min > 0 ? 1 : out[p];
        }
    }
}

/* A fired rule's cause, fix and evidence: what the rule named, else its
 * worst violation with the count of what crossed (the message says where
 * and how much), the table's fix, and where to look. Nothing when it did
 * not fire. */
static void rule_advise(const rule_desc *d, rule_result *o)
{
    if (o->status != RULE_TRIGGERED) {
        o->cause[0] = o->fix[0] = o->evidence[0] = '\0';
        return;
    }
    char buf[RULE_CAUSE];
    if (!o->cause[0]) {
        snprintf(buf, sizeof buf, "%.150s (%lld of %lld %s)", o->message,
                 (long long)o->violations, (long long)o->datapoints, d->unit);
        memcpy(o->cause, buf, sizeof o->cause);
    }
    if (!o->fix[0])
        snprintf(o->fix, sizeof o->fix, "%s", d->fix);
    if (!o->evidence[0]) {
        snprintf(buf, sizeof buf, "%s%s%s", d->look, o->node[0] ? "; node " : "", o->node);
        snprintf(o->evidence, sizeof o->evidence, "%.*s", (int)sizeof o->evidence - 1, buf);
    }
}

/* Runs rule i over m into its result. 0, or -1 on OOM (the result then
 * says so and the rule is retried at the next call). Writes rule i's own
 * slots alone: distinct rules may run at once (rules_run_one). */
static int rule_run(rules *r, size_t i, const model *m)
{
    rule_result *o = &r->results[i];
    reset_result(r, i);
    r->runs[i]++;
    int64_t iv = 0;
    model_system_source(m, &iv);
    if (r->stamp[i].param_gen != r->param_gen[i] || r->stamp[i].interval_us != iv)
        state_reset(r, i);   /* derived under other parameters */
    double p[RULE_MAX_PARAMS];
    effective_params(r, i, m, p);
    int rc = RULES[i].evaluate_inc    ? RULES[i].evaluate_inc(m, p, o, &r->state[i])
             : RULES[i].evaluate_rank ? rule_kineto_run(&RULES[i], m, p, o)
                                      : RULES[i].evaluate(m, p, o);
    if (rc < 0) {
        reset_result(r, i);
        strcpy(o->message, "out of memory while evaluating");
    }
    if (o->datapoints == 0)
        o->status = RULE_NO_DATA;
    else if (o->status == RULE_OK && !o->message[0])
        snprintf(o->message, sizeof o->message, "%lld datapoints checked, "
                 "none crossed the thresholds", (long long)o->datapoints);
    rule_advise(&RULES[i], o);
    r->stamp[i] = (rule_stamp){.sys_gen = model_system_generation(m),
                               .ev_gen = model_event_generation(m),
                               .param_gen = r->param_gen[i], .interval_us = iv,
                               .valid = rc == 0};
    return rc;
}

size_t rules_stale(rules *r, const model *m, size_t *out)
{
    if (r->last_model != m)
        rules_invalidate(r);
    r->last_model = m;
    size_t n = 0;
    for (size_t i = 0; i < NRULES; i++)
        if (!rule_fresh(r, i, m))
            out[n++] = i;
    return n;
}

int rules_run_one(rules *r, size_t i, const model *m)
{
    return i < NRULES ? rule_run(r, i, m) : 0;
}

int rules_reads_ranks(size_t i)
{
    return i < NRULES && (RULES[i].inputs & RULE_IN_RANKS);
}

int rules_eval_rank_default(size_t i, const gpu_summary *s, rule_result *out)
{
    if (i >= NRULES || !RULES[i].evaluate_rank)
        return -1;
    double p[RULE_MAX_PARAMS] = {0};
    for (size_t k = 0; k < RULES[i].n_params; k++)
        p[k] = RULES[i].params[k].def;
    memset(out, 0, sizeof *out);
    out->name = RULES[i].name;
    out->example_key = RULES[i].example_key;
    out->severity = RULES[i].severity;
    out->status = RULE_NO_DATA;
    return RULES[i].evaluate_rank(s, p, out);
}

int rules_evaluate(rules *r, const model *m)
{
    size_t stale[NRULES];
    size_t n = rules_stale(r, m, stale);
    int rc = 0;
    for (size_t k = 0; k < n; k++) {
        if (rule_run(r, stale[k], m) < 0)
            rc = -1;
        else if (rc == 0)
            rc = 1;
    }
    return rc;
}

void rules_invalidate(rules *r)
{
    for (size_t i = 0; i < NRULES; i++) {
        r->stamp[i].valid = 0;
        state_reset(r, i);
    }
}

uint64_t rules_evaluation_count(const rules *r)
{
    uint64_t n = 0;
    for (size_t i = 0; i < NRULES; i++)
        n += r->runs[i];
    return n;
}

const rule_result *rules_result_at(const rules *r, size_t i)
{
    return i < NRULES ? &r->results[i] : NULL;
}

size_t rules_triggered_count(const rules *r)
{
    size_t k = 0;
    for (size_t i = 0; i < NRULES; i++)
        k += r->results[i].status == RULE_TRIGGERED;
    return k;
}

const char *rules_status_name(rule_status s)
{
    return s == RULE_TRIGGERED ? "triggered" : s == RULE_OK ? "ok" : "no_data";
}

const char *rules_severity_name(rule_severity s)
{
    static const char *const names[] = {"info", "low", "medium", "high"};
    return (unsigned)s < 4 ? names[s] : "info";
}
