/* gpucause: see gpucause.h. The job's Kineto figures summed over its
 * ranks (gjob), then the idle finding's cause from the first of CAUSES
 * that the figures show, then the other fired Kineto rules. */
#include "model/view/gpucause.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/model_gpu.h"
#include "model/util/pct.h"
#include "model/view/gpuview.h"

#define GJOB_CAUSES 48

/* An idle cause summed over the ranks, by name and kind. */
typedef struct gcause {
    const char *name;
    size_t len;
    int kind;
    int64_t us;
} gcause;

typedef struct gjob {
    gpuview_job sum;                 /* idle, span, launches, comm ... */
    int64_t steps_max;               /* the most steps one rank kept */
    int64_t attr_idle_us;            /* idle time the attribution covered */
    int64_t path_us, bound_us[GPU_BOUND_N];
    int64_t launch_path_us;          /* launch calls and delays on the path */
    double host_op_pct;              /* one rank's largest host event, % of its path */
    const gpu_name_us *host_op;      /* that event */
    int64_t gloo_calls, gloo_us;     /* gloo:all_reduce annotations */
    int64_t comm_idle_us;            /* host communication in idle time */
    int64_t pinned_us, busy_us;      /* pinned memcpys, GPU busy time */
    gcause c[GJOB_CAUSES];
    size_t nc;
    char frame[96];                  /* the dataset's __getitem__ frame */
} gjob;

static void add_cause(gjob *j, const gpu_idle_cause *c)
{
    for (size_t i = 0; i < j->nc; i++)
        if (j->c[i].kind == c->kind && j->c[i].len == c->len &&
            !memcmp(j->c[i].name, c->name, c->len)) {
            j->c[i].us += c->overlap_us;
            return;
        }
    if (j->nc < GJOB_CAUSES)
        j->c[j->nc++] = (gcause){c->name, c->len, c->kind, c->overlap_us};
}

/* A launch call on the critical path, the host's part of a launch: the
 * calls HTA's runtime mask counts as launches (CUDA and HIP), as the
 * critical path itself names them (gpu_name_flags). */
static int is_launch(const gpu_name_us *e)
{
    return e->table == GPU_NT_RUNTIME &&
           (gpu_name_flags(e->table, e->name, e->len) & GPU_CF_LAUNCH);
}

static void add_kernels(gjob *j, const gpu_rank *r)
{
    const gpu_table *k = gpu_rank_kernels(r);
    for (size_t i = 0; i < k->n; i++)
        if (k->rows[i].count && strstr(k->rows[i].name, "Pinned"))
            j->pinned_us += k->rows[i].sum_us;
    const gpu_stat *g = gpu_table_find(gpu_rank_annotations(r), "gloo:all_reduce");
    if (g) {
        j->gloo_calls += g->count;
        j->gloo_us += g->sum_us;
    }
    const gpu_table *py = gpu_rank_python(r);
    int64_t best = -1;
    for (size_t i = 0; i < py->n; i++) {
        const gpu_stat *st = &py->rows[i];
        size_t n = st->len;
        if (st->count && n > 13 && !strcmp(st->name + n - 13, ": __getitem__") &&
            strncmp(st->name, "torch/", 6) && st->sum_us > best) {
            best = st->sum_us;
            gpucause_frame_words(st->name, st->len, j->frame, sizeof j->frame);
        }
    }
}

static void add_rank(gjob *j, const gpu_rank *r)
{
    const gpu_summary *s = gpu_rank_summary(r);
    if (s->steps > j->steps_max)
        j->steps_max = s->steps;
    j->busy_us += s->has_gpu ? s->compute_us + s->non_compute_us : 0;
    j->attr_idle_us += s->idle_attr.idle_us;
    j->comm_idle_us += s->idle_attr.host_comm_idle_us;
    j->path_us += s->critical_path.path_us;
    for (int b = 0; b < GPU_BOUND_N; b++)
        j->bound_us[b] += s->critical_path.bound_us[b];
    j->launch_path_us += s->critical_path.bound_us[GPU_BOUND_LAUNCH];
    for (size_t i = 0; i < s->critical_path.n_top; i++) {
        const gpu_name_us *e = &s->critical_path.top[i];
        double pct = pct_of(e->us, s->critical_path.path_us, 0);
        if (is_launch(e))
            j->launch_path_us += e->us;
        else if (e->table != GPU_NT_KERNEL && pct > j->host_op_pct) {
            j->host_op_pct = pct;
            j->host_op = e;
        }
    }
    for (size_t i = 0; i < s->idle_attr.n_causes; i++)
        add_cause(j, &s->idle_attr.causes[i]);
    add_kernels(j, r);
}

static void gjob_build(const model *m, gjob *j)
{
    memset(j, 0, sizeof *j);
    gpuview_job_sum(m, &j->sum);
    for (size_t i = 0; i < model_gpu_count(m); i++)
        add_rank(j, model_gpu_at(m, i)->gpu);
}

static const rule_result *fired(const rule_result *res, size_t nres, const char *name)
{
    int i = rules_find(name);
    return i >= 0 && (size_t)i < nres && res[i].status == RULE_TRIGGERED ? &res[i] : NULL;
}

void gpucause_frame_words(const char *name, size_t len, char *out, size_t cap)
{
    const char *lp = memchr(name, '(', len), *rp = lp ? memchr(lp, ')', len - (size_t)(lp - name)) : NULL;
    if (!lp || !rp || (size_t)(rp - name) + 3 > len || rp[1] != ':' || rp[2] != ' ') {
        snprintf(out, cap, "%.*s", (int)len, name);
        return;
    }
    snprintf(out, cap, "%.*s:%.*s %.*s", (int)(lp - name), name, (int)(rp - lp - 1), lp + 1,
             (int)(len - (size_t)(rp + 3 - name)), rp + 3);
}

/* ---- the idle finding's causes ----------------------------------------------- */

typedef struct cause_in {
    const model *m;
    const gjob *j;
    const rule_result *res;
    size_t nres;
    const rules *r;
} cause_in;

/* Names f's cause and returns 1, or 0 when the data does not show it. */
typedef int (*cause_fn)(const cause_in *in, finding *f);

static const char *table_fix(const rule_result *r, const char *rule)
{
    int i = rules_find(rule);
    return r ? r->fix : i >= 0 ? rules_fix_at((size_t)i) : "";
}

static int cause_gloo(const cause_in *in, finding *f)
{
    const gjob *j = in->j;
    /* the union over the gloo threads: their rows (kind_pct) add up past
     * the idle time when two threads all-reduce at once */
    double comm = pct_of(j->comm_idle_us, j->attr_idle_us, 0);
    const rule_result *g = fired(in->res, in->nres, "GlooWithCUDA");
    if (!g && comm < GPUCAUSE_SHARE_PCT)
        return 0;
    finding_short(f, "gloo all-reduce on the host", "use NCCL");
    char calls[96] = "", during[96] = "";
    if (j->gloo_calls)
        snprintf(calls, sizeof calls, " (%lld gloo:all_reduce, %.1f ms each on average)",
                 (long long)j->gloo_calls, (double)j->gloo_us / (double)j->gloo_calls / 1000);
    if (comm > 0)
        snprintf(during, sizeof during, ", during %.0f %% of the GPU's idle time", comm);
    finding_cause(f, "DDP all-reduces over gloo on the host's gloo threads%s%s; the gradients "
                  "go to pinned memory and back: %.0f %% of the GPU's busy time", calls, during,
                  pct_of(j->pinned_us, j->busy_us, 0));
    finding_fix(f, "%s", table_fix(g, "GlooWithCUDA"));
    finding_evidence(f, "Top (4), o: GPU idle: host ([comm_host] gloo:), kernels (Memcpy DtoH / "
                     "HtoD Pinned); report: gpu[].backend (gloo), gpu[].idle_causes");
    f->rule = "GlooWithCUDA";
    return 1;
}

static int cause_loader(const cause_in *in, finding *f)
{
    rules_loader ld;
    int i = rules_find("Dataloader");
    double min = in->r && i >= 0 ? rules_param_value(in->r, (size_t)i, 2) : 5;
    if (!rules_loader_share(in->m, &ld) || ld.pct < min)
        return 0;
    const rule_result *dl = fired(in->res, in->nres, "Dataloader");
    char why[FINDING_SHORT], in_frame[160] = "";
    if (in->j->frame[0])
        snprintf(in_frame, sizeof in_frame, ", most of it in the dataset's %s", in->j->frame);
    if (ld.main_thread) {
        if (in->j->frame[0])
            snprintf(why, sizeof why, "DataLoader on the main thread (%.38s)", in->j->frame);
        else
            snprintf(why, sizeof why, "DataLoader on the main thread");
        finding_short(f, why, "num_workers");
        finding_cause(f, "the DataLoader makes each batch on the training thread (num_workers=0): "
                      "%.1f ms of each %.1f ms step (%.0f %%) on %s%s", ld.per_step_us / 1000,
                      ld.step_us / 1000, ld.pct, ld.node, in_frame);
    } else {
        finding_short(f, "waiting for DataLoader workers", "more num_workers");
        finding_cause(f, "the training thread waits for the DataLoader's workers: %.1f ms of each "
                      "%.1f ms step (%.0f %%) on %s", ld.per_step_us / 1000, ld.step_us / 1000,
                      ld.pct, ld.node);
    }
    finding_fix(f, "%s", table_fix(dl, "Dataloader"));
    finding_evidence(f, "Top (4), o: GPU idle: host ([dataloader]), Python functions%s%s; "
                     "Timeline (5), v: data per step",
                     in->j->frame[0] ? ": " : "", in->j->frame);
    f->rule = "Dataloader";
    return 1;
}

/* What the steps' critical path says of the launches, after the cause:
 * their share of it, or, when that is small, that it runs through many
 * short host ops, each costing the host more than its kernel costs the
 * GPU (nccl_data: 4 % in launches, the largest op 9 %). */
static void launch_path_words(const gjob *j, double path, finding *f)
{
    size_t n = strlen(f->cause);
    if (j->path_us <= 0)
        return;
    if (path >= GPUCAUSE_LAUNCH_PCT || !j->host_op)
        snprintf(f->cause + n, sizeof f->cause - n,
                 "; the steps' critical path is in launches for %.0f %% of it", path);
    else
        snprintf(f->cause + n, sizeof f->cause - n,
                 "; the steps' critical path runs through many short host ops (the largest, "
                 "%.*s, %.0f %% of it; launches %.0f %%)",
                 (int)(j->host_op->len < 40 ? j->host_op->len : 40), j->host_op->name,
                 j->host_op_pct, path);
}

static int cause_launches(const cause_in *in, finding *f)
{
    const gjob *j = in->j;
    const rule_result *k = fired(in->res, in->nres, "KernelLaunchOverhead");
    double path = pct_of(j->launch_path_us, j->path_us, 0);
    if (!k && path < GPUCAUSE_LAUNCH_PCT)
        return 0;
    /* Short kernels under one long host op: the host is busy in that op,
     * not in launching (the rule counts short kernels either way). */
    if (path < GPUCAUSE_LAUNCH_PCT && j->host_op_pct >= GPUCAUSE_HOST_OP_PCT)
        return 0;
    int64_t per = j->steps_max > 0 ? j->sum.launches / (int64_t)(j->sum.gpu_ranks ? j->sum.gpu_ranks : 1) / j->steps_max : 0;
    finding_short(f, "kernel launches (tiny kernels)", "CUDA graphs / torch.compile");
    finding_cause(f, "%.0f %% of %lld kernels run shorter than their launch call (about %lld "
                  "launches a step)", j->sum.short_pct, (long long)j->sum.launches, (long long)per);
    launch_path_words(j, path, f);
    finding_fix(f, "%s", table_fix(k, "KernelLaunchOverhead"));
    finding_evidence(f, "Top (4), o: critical path, kernels (count); report: gpu[].launch, "
                     "gpu[].critical_path");
    f->rule = "KernelLaunchOverhead";
    return 1;
}

/* The host's busiest work while the GPU waited: the largest cause of a
 * host kind. */
static const gcause *busiest(const gjob *j)
{
    const gcause *best = NULL;
    for (size_t i = 0; i < j->nc; i++)
        if (j->c[i].kind != GPU_IDLE_SYNC && (!best || j->c[i].us > best->us))
            best = &j->c[i];
    return best;
}

static int cause_host(const cause_in *in, finding *f)
{
    const gjob *j = in->j;
    const rule_result *h = fired(in->res, in->nres, "GPUIdleHostBound");
    double cpu = pct_of(j->bound_us[GPU_BOUND_CPU], j->path_us, 0);
    const gcause *b = busiest(j);
    if (!h && cpu < 50)
        return 0;
    char why[FINDING_SHORT];
    if (b)
        snprintf(why, sizeof why, "host busy in %.*s", (int)(b->len < 40 ? b->len : 40), b->name);
    else
        snprintf(why, sizeof why, "host-bound");
    finding_short(f, why, "bigger batch");
    if (b)
        finding_cause(f, "the GPU waits for the host: %.*s (%s) ran during %.0f %% of its idle "
                      "time%s", (int)(b->len < 80 ? b->len : 80), b->name,
                      gpu_idle_kind_name(b->kind), pct_of(b->us, j->attr_idle_us, 0),
                      cpu > 0 ? "; the steps' critical path is cpu_bound" : "");
    else
        finding_cause(f, "the GPU waits for the host to launch its work%s",
                      cpu > 0 ? "; the steps' critical path is cpu_bound" : "");
    if (cpu > 0)
        snprintf(f->cause + strlen(f->cause), sizeof f->cause - strlen(f->cause),
                 " for %.0f %% of it", cpu);
    finding_fix(f, "%s", table_fix(h, "GPUIdleHostBound"));
    finding_evidence(f, "Top (4), o: GPU idle: host, critical path; report: gpu[].idle_causes, "
                     "gpu[].critical_path");
    f->rule = h ? "GPUIdleHostBound" : NULL;
    return 1;
}

/* The TensorBoard profiler's advice under 50 % GPU utilization; under
 * it, an idle share no cause explains is not a finding. */
static int cause_batch(const cause_in *in, finding *f)
{
    if (in->j->sum.idle_pct < GPUCAUSE_BATCH_IDLE_PCT)
        return 0;
    finding_short(f, NULL, "bigger batch");
    finding_cause(f, "nothing on the host explains the idle time: the GPU has too little work a "
                  "step");
    finding_fix(f, "a bigger batch, if memory allows (the TensorBoard profiler's advice under "
                "50 %% GPU utilization)");
    finding_evidence(f, "Timeline (5): the GPU split per step; Top (4), o: GPU idle: host; "
                     "report: gpu[].idle_causes");
    return 1;
}

static const cause_fn CAUSES[] = {cause_gloo, cause_loader, cause_launches, cause_host,
                                  cause_batch};

static void idle_finding(const cause_in *in, double idle_min, finding *v, size_t *n, size_t max)
{
    const gpuview_job *s = &in->j->sum;
    if (isnan(s->idle_pct) || s->idle_pct < idle_min)
        return;
    rule_severity sev = s->idle_pct >= 50 ? RULE_SEV_HIGH : s->idle_pct >= 25 ? RULE_SEV_MED
                                                                                : RULE_SEV_LOW;
    finding *f;
    if (in->j->steps_max > 0)
        f = finding_add(v, n, max, "kineto", sev, "GPU idle %.0f %% of %lld traced step%s",
                        s->idle_pct, (long long)in->j->steps_max,
                        in->j->steps_max == 1 ? "" : "s");
    else   /* traces without ProfilerStep: their GPU span */
        f = finding_add(v, n, max, "kineto", sev, "GPU idle %.0f %% of %.1f s traced",
                        s->idle_pct, (double)s->span_us / 1e6);
    if (!f)
        return;
    snprintf(f->brief, sizeof f->brief, "GPU idle %.0f %%", s->idle_pct);
    size_t i = 0;
    while (i < sizeof CAUSES / sizeof *CAUSES && !CAUSES[i](in, f))
        i++;
    if (i == sizeof CAUSES / sizeof *CAUSES) {
        (*n)--;   /* nothing explains it, and it is too small to act on */
        return;
    }
    size_t at = strlen(f->evidence);
    snprintf(f->evidence + at, sizeof f->evidence - at, "; the idle share is HTA's, over the "
             "traced steps");
}

/* ---- the other Kineto rules ------------------------------------------------- */

typedef struct rule_words {
    const char *rule, *why, *knob;
} rule_words;

static const rule_words WORDS[] = {
    {"GlooWithCUDA", "gloo all-reduce on the host", "use NCCL"},
    {"RanksShareGPU", "ranks take turns on one GPU", "one rank per GPU"},
    {"CommNotOverlapped", "all-reduce after backward", "smaller DDP buckets"},
    {"KernelLaunchOverhead", "tiny kernels", "CUDA graphs / torch.compile"},
    {"GPUMemoryNearCapacity", "activations fill the GPU", "checkpointing / bf16"},
    {"TensorCoresUnused", "fp32 matmuls", "bf16 autocast"},
};

static int told(const finding *v, size_t n, const char *rule)
{
    for (size_t i = 0; i < n; i++)
        if (v[i].rule && !strcmp(v[i].rule, rule))
            return 1;
    return 0;
}

/* The symptom of fired rule w in a few words with its figure. */
static void rule_text(const rule_words *w, const gpuview_job *s, const rule_result *r, char *out,
                      size_t cap)
{
    if (!strcmp(w->rule, "CommNotOverlapped"))
        snprintf(out, cap, "comm not overlapped %.0f %%", 100 - s->comm_overlap_pct);
    else if (!strcmp(w->rule, "KernelLaunchOverhead"))
        snprintf(out, cap, "launch-bound: %.0f %% short kernels", s->short_pct);
    else if (!strcmp(w->rule, "GPUMemoryNearCapacity") && s->oom_events)
        snprintf(out, cap, "GPU out of memory %lld times", (long long)s->oom_events);
    else if (!strcmp(w->rule, "GPUMemoryNearCapacity"))
        snprintf(out, cap, "GPU memory %.0f %% of device", s->reserved_pct);
    else if (!strcmp(w->rule, "GlooWithCUDA"))
        snprintf(out, cap, "DDP over gloo with CUDA tensors");
    else if (!strcmp(w->rule, "RanksShareGPU"))
        snprintf(out, cap, "%.100s", r->message);
    else
        snprintf(out, cap, "matmuls without Tensor Cores %.0f %%", r->worst_value);
}

static void rule_findings(const cause_in *in, finding *v, size_t *n, size_t max)
{
    for (size_t i = 0; i < sizeof WORDS / sizeof *WORDS; i++) {
        const rule_result *r = fired(in->res, in->nres, WORDS[i].rule);
        if (!r || told(v, *n, WORDS[i].rule))
            continue;
        char text[FINDING_TEXT];
        rule_text(&WORDS[i], &in->j->sum, r, text, sizeof text);
        finding *f = finding_add(v, n, max, r->name, r->severity, "%s", text);
        finding_from_rule(f, r);
        finding_short(f, WORDS[i].why, WORDS[i].knob);
    }
}

size_t gpucause_findings(const model *m, const rule_result *res, size_t nres, const rules *r,
                         double idle_min, finding *out, size_t max)
{
    size_t n = 0;
    if (model_gpu_count(m) == 0)
        return 0;
    gjob *j = calloc(1, sizeof *j);
    if (!j)
        return 0;
    gjob_build(m, j);
    cause_in in = {m, j, res, nres, r};
    idle_finding(&in, idle_min, out, &n, max);
    rule_findings(&in, out, &n, max);
    free(j);
    return n;
}
