/* verdict: see verdict.h. Each source looks at one kind of evidence and
 * adds at most a few findings; SOURCES lists them in the order a reader
 * should meet them when their severities tie. */
#include "model/view/verdict.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>

#include "model/rules/device_usage.h"
#include "model/view/gpuview.h"
#include "model/view/rank_name.h"
#include "model/util/stable_sort.h"

typedef struct verdict_in {
    const model *m;
    const rule_result *res;
    size_t nres;
} verdict_in;

/* A source: adds its findings to v; -1 on OOM. */
typedef int (*verdict_source)(const verdict_in *in, verdict *v);

static void add(verdict *v, const char *source, rule_severity sev, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void add(verdict *v, const char *source, rule_severity sev, const char *fmt, ...)
{
    if (v->n >= VERDICT_MAX)
        return;
    verdict_finding *f = &v->f[v->n++];
    f->source = source;
    f->severity = sev;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->text, sizeof f->text, fmt, ap);
    va_end(ap);
}

static const rule_result *rule_named(const verdict_in *in, const char *name)
{
    int i = rules_find(name);
    return i >= 0 && (size_t)i < in->nres ? &in->res[i] : NULL;
}

/* The share of GPU time under 10 % utilization over the whole job: the
 * cost a reader pays for most, so it leads its severity. */
static int source_idle_gpu(const verdict_in *in, verdict *v)
{
    size_t n = model_node_count(in->m);
    if (n == 0)
        return 0;
    idle_gpu_hours *ih = calloc(n, sizeof *ih);
    if (!ih)
        return -1;
    long k = device_usage_idle_gpu(in->m, ih, n);
    double total = 0, idle = 0;
    for (long i = 0; i < k && (size_t)i < n; i++) {
        total += ih[i].gpu_hours;
        idle += ih[i].idle_gpu_hours;
    }
    free(ih);
    if (k < 0)
        return -1;
    double pct = total > 0 ? 100.0 * idle / total : 0;
    if (pct >= VERDICT_IDLE_PCT)
        add(v, "idle_gpu", pct >= 50 ? RULE_SEV_HIGH : pct >= 25 ? RULE_SEV_MED : RULE_SEV_LOW,
            "GPU idle %.0f %%", pct);
    return 0;
}

/* A node's id, or a writer as "rank 2 of algo-1" where its node's writers
 * are numbered as ranks (model/view/rank_name.h), else its id. */
static const char *writer_name(const model *m, const char *id, char *out, size_t cap)
{
    const model_node *w = model_find_writer(m, id), *n = w ? model_node_parent(w) : NULL;
    size_t k = n && n != w ? model_node_process_count(n) : 0, at = k;
    const char *ids[64];
    if (k < 2 || k > 64) {
        snprintf(out, cap, "%.40s", id);
        return out;
    }
    for (size_t i = 0; i < k; i++) {
        ids[i] = model_node_id(model_node_process_at(n, i));
        at = model_node_process_at(n, i) == w ? i : at;
    }
    long rank = rank_of_writer(ids, k, at);
    if (rank >= 0)
        snprintf(out, cap, "rank %ld of %.40s", rank, model_node_id(n));
    else
        snprintf(out, cap, "%.40s", id);
    return out;
}

/* The Straggler rule's worst rank or node: the one straggler definition
 * (its threshold is the user's, through :set and --rule). */
static int source_straggler(const verdict_in *in, verdict *v)
{
    const rule_result *r = rule_named(in, "Straggler");
    if (!r || r->status != RULE_TRIGGERED)
        return 0;
    char who[128];
    add(v, "straggler", r->severity, "straggler %s +%.0f %%",
        writer_name(in->m, r->node, who, sizeof who), r->worst_pct);
    return 0;
}

static int source_outlier_steps(const verdict_in *in, verdict *v)
{
    const rule_result *r = rule_named(in, "StepOutlier");
    if (!r || r->status != RULE_TRIGGERED || r->datapoints <= 0)
        return 0;
    double pct = 100.0 * (double)r->violations / (double)r->datapoints;
    if (pct >= 0.5)
        add(v, "outlier_steps", r->severity, "%.0f %% outlier steps", pct);
    else
        add(v, "outlier_steps", r->severity, "%lld outlier steps", (long long)r->violations);
    return 0;
}

/* Every other rule that fired, in a few words each. The rules the
 * sources above already tell (and LowGPUUtilization once idle time is
 * told) are not repeated. */
static const struct {
    const char *rule, *words;
} PHRASES[] = {
    {"LowGPUUtilization", "low GPU utilization"},
    {"CPUBottleneck", "CPU bottleneck"},
    {"IOBottleneck", "I/O bottleneck"},
    {"BatchSize", "batch size too small"},
    {"GPUMemoryIncrease", "GPU memory growing"},
    {"LoadBalancing", "GPUs unevenly loaded"},
    {"Dataloader", "data-loader workers off"},
    {"MaxInitializationTime", "slow start"},
};

static int told(const verdict *v, const char *source)
{
    for (size_t i = 0; i < v->n; i++)
        if (!strcmp(v->f[i].source, source))
            return 1;
    return 0;
}

static int source_rules(const verdict_in *in, verdict *v)
{
    for (size_t i = 0; i < sizeof PHRASES / sizeof PHRASES[0]; i++) {
        const rule_result *r = rule_named(in, PHRASES[i].rule);
        if (!r || r->status != RULE_TRIGGERED)
            continue;
        if (!strcmp(PHRASES[i].rule, "LowGPUUtilization") && told(v, "idle_gpu"))
            continue;
        add(v, "rule", r->severity, "%s %lld/%lld", PHRASES[i].words,
            (long long)r->violations, (long long)r->datapoints);
    }
    return 0;
}

/* The PyTorch profiler's GPU findings (gpuview_findings): the traces'
 * idle share unless the system metrics told one already (then only a
 * host-bound cause), communication not overlapped, launch overhead,
 * memory near capacity. Without Kineto ranks, none. */
static int source_kineto(const verdict_in *in, verdict *v)
{
    gpuview_finding f[VERDICT_MAX];
    double idle_min = told(v, "idle_gpu") ? INFINITY : VERDICT_IDLE_PCT;
    size_t n = gpuview_findings(in->m, in->res, in->nres, idle_min, f, VERDICT_MAX);
    for (size_t i = 0; i < n; i++)
        add(v, "kineto", f[i].severity, "%s", f[i].text);
    return 0;
}

/* The sources, in the order ties are told. A new analysis (the PyTorch
 * profiler's GPU findings: idle or host-bound GPU, communication not
 * overlapped, launch overhead, memory near capacity) is one function
 * here reading what the model holds for it. */
static const verdict_source SOURCES[] = {
    source_idle_gpu,
    source_kineto,
    source_straggler,
    source_outlier_steps,
    source_rules,
};

STABLE_SORT_DEFINE(sort_findings, verdict_finding, A.severity > B.severity)

int verdict_build(const model *m, const rule_result *res, size_t nres, verdict *out)
{
    memset(out, 0, sizeof *out);
    verdict_in in = {m, res, nres};
    out->has_data = model_node_count(m) > 0 && model_last_us(m) > 0;
    for (size_t i = 0; i < nres; i++) {
        out->rules_ok += res[i].status == RULE_OK;
        out->rules_no_data += res[i].status == RULE_NO_DATA && res[i].severity != RULE_SEV_INFO;
    }
    int rc = 0;
    for (size_t i = 0; i < sizeof SOURCES / sizeof SOURCES[0] && rc == 0; i++)
        rc = SOURCES[i](&in, out);
    verdict_finding tmp[VERDICT_MAX];
    sort_findings(out->f, tmp, out->n);
    return rc;
}

/* Columns of s: its UTF-8 code points. */
static int cols(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

char *verdict_format(const verdict *v, const char *sep, int max_cols, char *out, size_t cap)
{
    if (cap == 0)
        return out;
    out[0] = '\0';
    if (!v->has_data) {
        snprintf(out, cap, "no data yet");
        return out;
    }
    if (v->n == 0) {
        snprintf(out, cap, "no problem found (%zu rule%s ok%s)", v->rules_ok,
                 v->rules_ok == 1 ? "" : "s", v->rules_no_data ? ", some lack data" : "");
        return out;
    }
    size_t len = 0;
    int used = 0, limit = max_cols > 0 ? max_cols : 1 << 30;
    for (size_t i = 0; i < v->n; i++) {
        char more[32];
        int rest = (int)(v->n - i - 1);
        snprintf(more, sizeof more, "%s+%d more", sep, rest);
        int w = (i ? cols(sep) : 0) + cols(v->f[i].text);
        /* The last one needs no room for "+N more" after it. */
        if (used + w + (rest ? cols(more) : 0) > limit && i > 0) {
            snprintf(more, sizeof more, "%s+%d more", sep, (int)(v->n - i));
            if (len + strlen(more) < cap)
                snprintf(out + len, cap - len, "%s", more);
            return out;
        }
        int k = snprintf(out + len, cap - len, "%s%s", i ? sep : "", v->f[i].text);
        if (k < 0 || len + (size_t)k >= cap)
            return out;
        len += (size_t)k;
        used += w;
    }
    return out;
}

rule_severity verdict_worst(const verdict *v)
{
    return v->n ? v->f[0].severity : RULE_SEV_INFO;
}
