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
#include "model/steps/step_outliers.h"
#include "model/view/gpucause.h"
#include "model/view/gpuview.h"
#include "model/view/rank_name.h"
#include "model/util/stable_sort.h"

typedef struct verdict_in {
    const model *m;
    const rule_result *res;
    size_t nres;
    const rules *r;            /* the user's parameters */
    double step_sigma;         /* StepOutlier.stddev, as the user set it */
} verdict_in;

/* A source: adds its findings to v; -1 on OOM. */
typedef int (*verdict_source)(const verdict_in *in, verdict *v);

/* The last finding's brief (see verdict_finding). */
static void brief(verdict *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void brief(verdict *v, const char *fmt, ...)
{
    if (v->n == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->f[v->n - 1].brief, sizeof v->f[v->n - 1].brief, fmt, ap);
    va_end(ap);
}

static int told(const verdict *v, const char *source)
{
    for (size_t i = 0; i < v->n; i++)
        if (!strcmp(v->f[i].source, source))
            return 1;
    return 0;
}

/* 1 when a finding already told rule (finding.rule). */
static int rule_told(const verdict *v, const char *rule)
{
    for (size_t i = 0; i < v->n; i++)
        if (v->f[i].rule && !strcmp(v->f[i].rule, rule))
            return 1;
    return 0;
}

static const rule_result *rule_named(const verdict_in *in, const char *name)
{
    int i = rules_find(name);
    return i >= 0 && (size_t)i < in->nres ? &in->res[i] : NULL;
}

/* The share of GPU time under 10 % utilization over the whole job, as
 * the system metrics (NVML) sample it, start-up included: in its own words
 * ("GPU < 10 % in 57 % of samples"), so that it never reads as a second
 * idle figure beside the traces' (source_kineto's "GPU idle 86 %"). */
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
    if (pct < VERDICT_IDLE_PCT)
        return 0;
    finding *f = finding_add(v->f, &v->n, VERDICT_MAX, "idle_gpu",
                             pct >= 50 ? RULE_SEV_HIGH : pct >= 25 ? RULE_SEV_MED : RULE_SEV_LOW,
                             "GPU < 10 %% in %.0f %% of samples", pct);
    int traced = told(v, "kineto");
    finding_short(f, NULL, traced ? NULL : "profile a few steps");
    finding_cause(f, "%.2f of %.2f GPU-hours under 10 %% utilization (the system metrics, over the "
                  "whole job, start-up included)", idle, total);
    finding_fix(f, traced ? "the traces name the cause: see the GPU idle finding"
                          : "torch.profiler(schedule=..., on_trace_ready=tensorboard_trace_handler"
                            "(...)) on a few steps names the cause; without one, a bigger batch");
    finding_evidence(f, "System (1): the gpu chart; Heatmap (2): gpu%%; report: idle_gpu_hours");
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
    finding *f = finding_add(v->f, &v->n, VERDICT_MAX, "straggler", r->severity,
                             "straggler %s +%.0f %%", writer_name(in->m, r->node, who, sizeof who),
                             r->worst_pct);
    finding_from_rule(f, r);
    finding_short(f, NULL, "check its host and data shard");
    return 0;
}

/* A unit of StepOutlier (a node, or one of its trace writers) as a reader
 * knows it: the node when it has one writer, else "rank 2 of algo-1". */
static const char *unit_name(const model *m, const model_node *u, char *out, size_t cap)
{
    const model_node *n = model_node_parent(u);
    if (n && n != u && model_node_process_count(n) < 2)
        u = n;
    return writer_name(m, model_node_id(u), out, cap);
}

/* A duration as a reader meets it: three significant digits, the unit
 * that keeps them short ("84.2 ms", "9.02 s", "3.1 min", "21.0 d"). */
static const char *dur_words(double us, char *out, size_t cap)
{
    double v = us;
    const char *unit = "us";
    if (us >= 2 * 86400e6)
        v = us / 86400e6, unit = "d";
    else if (us >= 2 * 3600e6)
        v = us / 3600e6, unit = "h";
    else if (us >= 60e6)
        v = us / 60e6, unit = "min";
    else if (us >= 1e6)
        v = us / 1e6, unit = "s";
    else if (us >= 1e3)
        v = us / 1e3, unit = "ms";
    snprintf(out, cap, "%.*f %s", v >= 99.95 ? 0 : v >= 9.995 ? 1 : 2, v, unit);
    return out;
}

/* "Step:ModeKeys.TRAIN" -> "TRAIN": the mode is what a reader knows. */
static const char *mode_of(const char *label)
{
    const char *dot = strrchr(label, '.');
    return !strncmp(label, "Step:", 5) && dot ? dot + 1 : label;
}

/* The worst unit's outliers: the phase whose outliers cost the largest
 * share of its step time (ties: the first in node order). */
typedef struct slow_pick {
    const model_node *unit;
    const char *label;
    step_outliers o;
    size_t units;       /* units with step phases: a name is given from 2 on */
} slow_pick;

static void pick_unit(const model_node *u, double sigma, phase_event *ev, slow_pick *best)
{
    int counted = 0;
    for (size_t i = 0; i < model_node_phase_count(u); i++) {
        const phase_stats *ph = model_node_phase_at(u, i);
        if (phase_stats_kind(ph) != PHASE_STEP)
            continue;
        best->units += !counted;
        counted = 1;
        step_outliers o;
        step_outliers_find(ph, sigma, ev, PHASE_RECENT_CAP, &o);
        if (o.outliers && (!best->unit || step_outliers_lost_pct(&o) > step_outliers_lost_pct(&best->o))) {
            best->unit = u;
            best->label = phase_stats_label(ph);
            best->o = o;
        }
    }
}

/* Every unit StepOutlier judges (a node without writers, else each
 * writer), as the rule walks them. -1 on OOM. */
static int pick_worst(const verdict_in *in, slow_pick *best)
{
    phase_event *ev = malloc(PHASE_RECENT_CAP * sizeof *ev);
    if (!ev)
        return -1;
    for (size_t ni = 0; ni < model_node_count(in->m); ni++) {
        const model_node *n = model_node_at(in->m, ni);
        if (model_node_process_count(n) == 0)
            pick_unit(n, in->step_sigma, ev, best);
        for (size_t k = 0; k < model_node_process_count(n); k++)
            pick_unit(model_node_process_at(n, k), in->step_sigma, ev, best);
    }
    free(ev);
    return 0;
}

/* What the slow steps cost and what to look at: the Timeline on the step
 * (f focuses it), where a data stall, a checkpoint or an evaluation shows. */
static void outlier_advice(finding *f, const rule_result *r, const slow_pick *best,
                           const char *step)
{
    if (!f)
        return;
    if (r)
        finding_from_rule(f, r);
    finding_short(f, NULL, "look at what ran in the step");
    if (best && best->unit)
        finding_cause(f, "%s took %.1f ms against a p50 of %.1f ms; the %zu outlier steps cost "
                      "%.0f %% of the step time over the p50", step,
                      (double)best->o.slowest.dur_us / 1000, best->o.p50_us / 1000,
                      best->o.outliers, step_outliers_lost_pct(&best->o));
    if (!f->fix[0])
        finding_fix(f, "%s", rules_fix_at((size_t)rules_find("StepOutlier")));
    finding_evidence(f, "Steps (3): o O walk the outliers, f focuses one; Timeline (5): what ran "
                     "in it");
}

/* Step-time outliers by StepOutlier's definition (model/steps/
 * step_outliers.h, the user's stddev): when the rule fired, its share of
 * outlier steps and the slowest; when it did not (a job shorter than its
 * 100 steps, or fewer outliers than it allows), the slowest step once the
 * outliers cost VERDICT_STEP_LOST_PCT % of the step time over the median. */
static int source_outlier_steps(const verdict_in *in, verdict *v)
{
    const rule_result *r = rule_named(in, "StepOutlier");
    slow_pick best = {0};
    if (pick_worst(in, &best) != 0)
        return -1;
    int fired = r && r->status == RULE_TRIGGERED && r->datapoints > 0;
    double lost = best.unit ? step_outliers_lost_pct(&best.o) : 0;
    if (!fired && lost < VERDICT_STEP_LOST_PCT)
        return 0;
    char head[48] = "", name[128], who[136] = "", step[32] = "", took[24], p50[24];
    if (fired) {
        double pct = 100.0 * (double)r->violations / (double)r->datapoints;
        if (pct >= 0.5)
            snprintf(head, sizeof head, "%.0f %% outlier steps", pct);
        else
            snprintf(head, sizeof head, "%lld outlier steps", (long long)r->violations);
    }
    if (!best.unit) {
        outlier_advice(finding_add(v->f, &v->n, VERDICT_MAX, "outlier_steps", r->severity, "%s",
                                   head), r, NULL, "");
        return 0;
    }
    if (best.units > 1)
        snprintf(who, sizeof who, "%s ", unit_name(in->m, best.unit, name, sizeof name));
    if (best.o.slowest.step >= 0)
        snprintf(step, sizeof step, "step %lld", (long long)best.o.slowest.step);
    else
        snprintf(step, sizeof step, "a %s step", mode_of(best.label));
    double x = best.o.p50_us > 0 ? (double)best.o.slowest.dur_us / best.o.p50_us : 0;
    dur_words((double)best.o.slowest.dur_us, took, sizeof took);
    snprintf(p50, sizeof p50, x >= 9.95 ? "%.0f\u00d7" : "%.1f\u00d7", x);
    rule_severity sev = fired ? r->severity
                      : lost >= VERDICT_STEP_HEAVY_PCT ? RULE_SEV_MED : RULE_SEV_LOW;
    finding *f;
    if (fired) {
        f = finding_add(v->f, &v->n, VERDICT_MAX, "outlier_steps", sev,
                        "%s: %s%s took %s, %s the p50", head, who, step, took, p50);
        brief(v, "%s", head);
    } else {
        f = finding_add(v->f, &v->n, VERDICT_MAX, "outlier_steps", sev,
                        "%s%s took %s, %s the p50 (%.0f %% of %s time)", who, step, took, p50,
                        lost, mode_of(best.label));
        brief(v, "%s took %s, %s p50", step, took, p50);
    }
    outlier_advice(f, fired ? r : NULL, &best, step);
    return 0;
}

/* Every other rule that fired, in a few words with its count and what
 * it counted (the rule table's unit), its cause and fix. The rules the
 * sources above already tell (finding.rule, and LowGPUUtilization once
 * an idle share is told) are not repeated. */
static const struct {
    const char *rule, *words, *knob;
    int as_pct;                 /* "in 12 % of samples", not "in 3 of 25 samples" */
} PHRASES[] = {
    {"LowGPUUtilization", "low GPU utilization", "bigger batch", 0},
    {"CPUBottleneck", "CPU bottleneck", "DataLoader num_workers", 1},
    {"IOBottleneck", "I/O bottleneck", "pre-fetch, faster storage", 1},
    {"BatchSize", "batch size too small", "bigger batch", 0},
    {"GPUMemoryIncrease", "GPU memory growing", "free tensors kept across steps", 0},
    {"LoadBalancing", "GPUs unevenly loaded", "one rank per GPU (DDP)", 0},
};

/* Dataloader: the traces' data share, or the workers against the cores. */
static void phrase_dataloader(const verdict_in *in, const rule_result *r, verdict *v)
{
    rules_loader ld;
    finding *f;
    if (rules_loader_share(in->m, &ld)) {
        f = finding_add(v->f, &v->n, VERDICT_MAX, "rule", r->severity,
                        ld.main_thread ? "data loading on the main thread %.0f %% of the step"
                                       : "waiting for data %.0f %% of the step", ld.pct);
        finding_short(f, NULL, "num_workers");
    } else {
        int i = rules_find("Dataloader");
        double lo = i >= 0 ? rules_param_value(in->r, (size_t)i, 0) : 70;
        double mn = INFINITY, mx = -INFINITY;
        for (size_t k = 0; k < r->n_examples; k++) {
            mn = fmin(mn, r->examples[k].value);
            mx = fmax(mx, r->examples[k].value);
        }
        if (!r->n_examples)
            return;
        double worst = mn < lo ? mn : mx;
        f = finding_add(v->f, &v->n, VERDICT_MAX, "rule", r->severity,
                        "too %s data-loader workers (%.0f %% of cores) on %lld of %lld nodes",
                        worst < lo ? "few" : "many", worst, (long long)r->violations,
                        (long long)r->datapoints);
        brief(v, "too %s data-loader workers", worst < lo ? "few" : "many");
        finding_short(f, NULL, worst < lo ? "more num_workers" : "fewer num_workers");
    }
    finding_from_rule(f, r);
}

/* MaxInitializationTime: how long the job took to its first step. */
static void phrase_init(const verdict_in *in, const rule_result *r, verdict *v)
{
    job_phases ph;
    char t[24];
    model_get_job_phases(in->m, &ph);
    finding *f = finding_add(v->f, &v->n, VERDICT_MAX, "rule", r->severity,
                             ph.has_steps ? "slow start: first step after %s"
                                          : "slow start: no step in %s",
                             dur_words((double)(r->t1_us - r->t0_us), t, sizeof t));
    finding_from_rule(f, r);
    finding_short(f, NULL, "stream the data in");
}

static void phrase_one(const verdict_in *in, size_t k, verdict *v)
{
    const rule_result *r = rule_named(in, PHRASES[k].rule);
    if (!r || r->status != RULE_TRIGGERED || r->datapoints <= 0 || rule_told(v, r->name))
        return;
    if (!strcmp(PHRASES[k].rule, "LowGPUUtilization") &&
        (told(v, "idle_gpu") || told(v, "kineto")))
        return;
    int i = rules_find(PHRASES[k].rule);
    const char *unit = i >= 0 ? rules_unit_at((size_t)i) : "datapoints";
    finding *f;
    if (PHRASES[k].as_pct)
        f = finding_add(v->f, &v->n, VERDICT_MAX, "rule", r->severity, "%s in %.0f %% of %s",
                        PHRASES[k].words,
                        100.0 * (double)r->violations / (double)r->datapoints, unit);
    else
        f = finding_add(v->f, &v->n, VERDICT_MAX, "rule", r->severity, "%s in %lld of %lld %s",
                        PHRASES[k].words, (long long)r->violations, (long long)r->datapoints,
                        unit);
    finding_from_rule(f, r);
    finding_short(f, NULL, PHRASES[k].knob);
}

static int source_rules(const verdict_in *in, verdict *v)
{
    for (size_t i = 0; i < sizeof PHRASES / sizeof PHRASES[0]; i++)
        phrase_one(in, i, v);
    const rule_result *r = rule_named(in, "Dataloader");
    if (r && r->status == RULE_TRIGGERED && !rule_told(v, "Dataloader"))
        phrase_dataloader(in, r, v);
    r = rule_named(in, "MaxInitializationTime");
    if (r && r->status == RULE_TRIGGERED)
        phrase_init(in, r, v);
    return 0;
}

/* The PyTorch profiler's findings (gpucause.h): the traces' idle share
 * with what the GPU waited for, and the other Kineto rules that fired,
 * each with its cause and fix. Without Kineto ranks, none. */
static int source_kineto(const verdict_in *in, verdict *v)
{
    finding f[VERDICT_MAX];
    size_t n = gpucause_findings(in->m, in->res, in->nres, in->r, VERDICT_IDLE_PCT, f,
                                 VERDICT_MAX);
    for (size_t i = 0; i < n && v->n < VERDICT_MAX; i++) {
        v->f[v->n] = f[i];
        v->f[v->n++].source = "kineto";   /* the rule it tells stays in .rule */
    }
    return 0;
}

/* The sources, in the order ties are told: the traces' findings name a
 * cause, so they lead the system metrics' idle share. */
static const verdict_source SOURCES[] = {
    source_kineto,
    source_idle_gpu,
    source_straggler,
    source_outlier_steps,
    source_rules,
};

static void lack(verdict *v, const char *what)
{
    size_t len = strlen(v->lacks);
    snprintf(v->lacks + len, sizeof v->lacks - len, "%s%s", len ? ", " : "", what);
}

/* What a rule that could not check lacked, in the words a reader uses:
 * the sources absent from the whole job, and how many rules wait for a
 * longer job. */
static void lacks(const verdict_in *in, verdict *v)
{
    int sys = 0, gpu = 0, steps = 0;
    for (size_t i = 0; i < model_node_count(in->m); i++) {
        const model_node *n = model_node_at(in->m, i);
        sys |= model_node_series_count(n) > 0;
        gpu |= model_node_gpu_count(n) > 0;
        steps |= model_node_phase_count(n) > 0;
    }
    size_t short_rules = 0;
    for (size_t i = 0; i < in->nres; i++)
        short_rules += in->res[i].status == RULE_NO_DATA && in->res[i].too_short;
    gpuview_job j;
    gpuview_job_sum(in->m, &j);
    if (!sys)
        lack(v, "no system metrics");
    else if (!gpu && !j.gpu_ranks)
        lack(v, "no GPU metrics");
    if (!steps)
        lack(v, "no training steps");
    if (j.ranks && !j.gpu_ranks)
        lack(v, "no GPU events in the traces");
    if (short_rules) {
        char t[48];
        snprintf(t, sizeof t, "job too short for %zu rule%s", short_rules, short_rules == 1 ? "" : "s");
        lack(v, t);
    }
}

STABLE_SORT_DEFINE(sort_findings, verdict_finding, A.severity > B.severity)

int verdict_build(const model *m, const rules *r, verdict *out)
{
    memset(out, 0, sizeof *out);
    size_t nres = rules_count();
    rule_result *res = malloc((nres ? nres : 1) * sizeof *res);
    if (!res)
        return -1;
    for (size_t i = 0; i < nres; i++)
        res[i] = *rules_result_at(r, i);
    int so = rules_find("StepOutlier");
    verdict_in in = {m, res, nres, r, so >= 0 ? rules_param_value(r, (size_t)so, 0) : 3};
    out->has_data = model_node_count(m) > 0 && model_last_us(m) > 0;
    for (size_t i = 0; i < nres; i++) {
        out->rules_ok += res[i].status == RULE_OK;
        out->rules_no_data += res[i].status == RULE_NO_DATA && res[i].severity != RULE_SEV_INFO;
    }
    int rc = 0;
    for (size_t i = 0; i < sizeof SOURCES / sizeof SOURCES[0] && rc == 0; i++)
        rc = SOURCES[i](&in, out);
    if (out->rules_no_data)
        lacks(&in, out);
    free(res);
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

/* "no problem found (...)", the longest of its forms that fits limit. */
static void format_ok(const verdict *v, int limit, char *out, size_t cap)
{
    char ok[32];
    snprintf(ok, sizeof ok, "%zu rule%s ok", v->rules_ok, v->rules_ok == 1 ? "" : "s");
    snprintf(out, cap, "no problem found (%s%s%s)", ok,
             v->lacks[0] ? "; " : v->rules_no_data ? ", some lack data" : "", v->lacks);
    if (cols(out) > limit && v->lacks[0])
        snprintf(out, cap, "no problem found (%s, some lack data)", ok);
    if (cols(out) > limit)
        snprintf(out, cap, "no problem found");
}

/* The arrow between a cause and its fix: ASCII beside the ASCII
 * separator (the dashboard's ASCII glyphs), else U+2192. */
static const char *arrow_of(const char *sep)
{
    return strcmp(sep, " | ") ? " \u2192 " : " -> ";
}

/* The cause in fewer words: without its trailing "(...)" ("DataLoader on
 * the main thread (train.py:12 __getitem__)" without the frame); "" when
 * it has none. */
static void why_short(const char *why, char *out, size_t cap)
{
    const char *p = strrchr(why, '(');
    size_t n = strlen(why);
    out[0] = '\0';
    if (p && p > why + 1 && p[-1] == ' ' && why[n - 1] == ')')
        snprintf(out, cap, "%.*s", (int)(p - why - 1), why);
}

/* The lead finding in the longest form that fits room columns, so that
 * the line names its cause and fix first: "text: why → knob", then with
 * the brief, then the cause without its parenthesis, then without the
 * cause, then text or brief alone. */
static const char *lead_form(const verdict_finding *f, const char *arrow, int room, char *buf,
                             size_t cap)
{
    char shorter[FINDING_SHORT];
    why_short(f->why, shorter, sizeof shorter);
    const char *heads[2] = {f->text, f->brief[0] ? f->brief : f->text};
    const char *whys[3] = {f->why, shorter, ""};
    for (int w = 0; w < 3; w++)
        for (int h = 0; h < 2 && f->knob[0]; h++) {
            if (w < 2 && !whys[w][0])
                continue;
            snprintf(buf, cap, "%s%s%s%s%s", heads[h], whys[w][0] ? ": " : "", whys[w], arrow,
                     f->knob);
            if (cols(buf) <= room)
                return buf;
        }
    return cols(f->text) <= room || !f->brief[0] ? f->text : f->brief;
}

/* 1 when line s names f's cause (in full or in fewer words). */
static int names_cause(const verdict_finding *f, const char *s)
{
    char shorter[FINDING_SHORT];
    why_short(f->why, shorter, sizeof shorter);
    return f->why[0] && (strstr(s, f->why) || (shorter[0] && strstr(s, shorter)));
}

int verdict_lead_cols(const verdict *v, const char *sep)
{
    if (!v->has_data || v->n == 0 || !v->f[0].knob[0])
        return 0;
    char buf[VERDICT_TEXT * 3], shorter[FINDING_SHORT];
    const verdict_finding *f = &v->f[0];
    why_short(f->why, shorter, sizeof shorter);
    snprintf(buf, sizeof buf, "%s%s%s%s%s", f->brief[0] ? f->brief : f->text, f->why[0] ? ": " : "",
             shorter[0] ? shorter : f->why, arrow_of(sep), f->knob);
    return cols(buf);
}

char *verdict_format(const verdict *v, const char *sep, int max_cols, char *out, size_t cap)
{
    if (cap == 0)
        return out;
    out[0] = '\0';
    int limit = max_cols > 0 ? max_cols : 1 << 30;
    if (!v->has_data) {
        snprintf(out, cap, "no data yet");
        return out;
    }
    if (v->n == 0) {
        format_ok(v, limit, out, cap);
        return out;
    }
    size_t len = 0;
    int used = 0;
    char lead[VERDICT_TEXT * 3];
    for (size_t i = 0; i < v->n; i++) {
        char more[32];
        int rest = (int)(v->n - i - 1);
        snprintf(more, sizeof more, "%s+%d more", sep, rest);
        /* The last one needs no room for "+N more" after it. */
        int room = limit - used - (rest ? cols(more) : 0) - (i ? cols(sep) : 0);
        const char *t = v->f[i].text;
        if (i == 0) {
            t = lead_form(&v->f[0], arrow_of(sep), room, lead, sizeof lead);
            char alone[sizeof lead];
            const char *a = lead_form(&v->f[0], arrow_of(sep), limit, alone, sizeof alone);
            if (!names_cause(&v->f[0], t) && a == alone && names_cause(&v->f[0], a)) {
                /* naming the cause and the fix comes before saying more follow */
                snprintf(out, cap, "%s", a);
                return out;
            }
        } else if (cols(t) > room && v->f[i].brief[0])
            t = v->f[i].brief;
        if (cols(t) > room && i > 0) {
            snprintf(more, sizeof more, "%s+%d more", sep, (int)(v->n - i));
            if (len + strlen(more) < cap)
                snprintf(out + len, cap - len, "%s", more);
            return out;
        }
        int k = snprintf(out + len, cap - len, "%s%s", i ? sep : "", t);
        if (k < 0 || len + (size_t)k >= cap)
            return out;
        len += (size_t)k;
        used += (i ? cols(sep) : 0) + cols(t);
    }
    return out;
}

rule_severity verdict_worst(const verdict *v)
{
    return v->n ? v->f[0].severity : RULE_SEV_INFO;
}
