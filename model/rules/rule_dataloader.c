/* rule_dataloader: Dataloader, two ways by what the job recorded.
 *
 * smdebug's framework events (a DataLoader worker's events): how many
 * workers ran at once against the node's cores, ProfilerReport's
 * definition (below min_threshold % or above max_threshold % of them).
 *
 * PyTorch profiler traces (the `enumerate(DataLoader)#…__next__`
 * annotation, which runs on the training thread, not on a worker): the
 * share of the TRAIN steps' time spent in it, the TensorBoard profiler's
 * "DataLoader > 5 % of the step" (min_data_pct). Its iterator says where
 * the batch is made: `_SingleProcessDataLoaderIter` is num_workers=0, the
 * main thread itself; `_MultiProcessingDataLoaderIter` waits for workers.
 * Under min_data_pct the rule is ok, whatever the worker count: data
 * loading is not what the steps wait for. A node's traces decide it; its
 * smdebug events count only where it has no traces. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/rules/rule_impl.h"

#define KINETO_LOADER "enumerate(DataLoader)"
#define MAIN_THREAD_ITER "_SingleProcessDataLoaderIter"

static int ev_start_cmp(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Most data-loader events running at once on a node: the number of
 * parallel loader workers (the model keeps no pids, so concurrency of the
 * retained events stands in for smdebug's pid count). -1 on OOM. */
static int loader_concurrency(const model_node *n, phase_event *ev, int64_t *span)
{
    size_t total = 0, cap = PHASE_RECENT_CAP * 2;
    int64_t *edges = malloc(cap * 2 * sizeof *edges);
    if (!edges)
        return -1;
    span[0] = span[1] = 0;
    for (size_t i = 0; i < model_node_phase_count(n); i++) {
        const phase_stats *ph = model_node_phase_at(n, i);
        if (phase_stats_kind(ph) != PHASE_DATALOADER)
            continue;
        size_t k = phase_stats_recent(ph, ev, PHASE_RECENT_CAP);
        for (size_t j = 0; j < k && total < cap; j++, total++) {
            /* ends sort before starts at the same instant: back-to-back
             * events on one worker are not concurrent */
            edges[2 * total] = ev[j].start_us * 2 + 1;
            edges[2 * total + 1] = (ev[j].start_us + ev[j].dur_us) * 2;
        }
    }
    if (total)   /* qsort(NULL, 0, ...) is undefined */
        qsort(edges, total * 2, sizeof *edges, ev_start_cmp);
    int cur = 0, best = 0;
    for (size_t i = 0; i < total * 2; i++) {
        cur += (edges[i] & 1) ? 1 : -1;
        if (cur > best) {
            best = cur;
            span[0] = edges[i] / 2;
        }
    }
    span[1] = total ? edges[total * 2 - 1] / 2 : 0;
    free(edges);
    return best;
}

/* A node's PyTorch profiler loader time against its TRAIN steps'. */
typedef struct loader_share {
    double loader_us, step_us;   /* summed */
    int64_t steps;
    int main_thread;             /* a _SingleProcessDataLoaderIter seen */
} loader_share;

/* 1 when node n has Kineto loader annotations, their sums in *ls. */
static int kineto_share(const model_node *n, loader_share *ls)
{
    memset(ls, 0, sizeof *ls);
    int any = 0;
    for (size_t i = 0; i < model_node_phase_count(n); i++) {
        const phase_stats *ph = model_node_phase_at(n, i);
        const char *l = phase_stats_label(ph);
        phase_summary s;
        phase_stats_get_summary(ph, &s);
        if (phase_stats_kind(ph) == PHASE_DATALOADER && !strncmp(l, KINETO_LOADER,
                                                                 strlen(KINETO_LOADER))) {
            any = 1;
            ls->loader_us += s.mean_us * (double)s.count;
            ls->main_thread |= strstr(l, MAIN_THREAD_ITER) != NULL;
        } else if (!strcmp(l, "Step:ModeKeys.TRAIN")) {
            ls->step_us += s.mean_us * (double)s.count;
            ls->steps += s.count;
        }
    }
    return any && ls->steps > 0 && ls->step_us > 0;
}

/* Workers to suggest: the node's cores over its training processes, one
 * left for the process itself, at most 8 (past that a loader rarely
 * gains); 4 when the cores are unknown. */
static int suggest_workers(const model_node *n)
{
    size_t cores = model_node_cpu_count(n), procs = model_node_process_count(n);
    if (!cores)
        return 4;
    long w = (long)(cores / (procs ? procs : 1)) - 1;
    return w < 2 ? 2 : w > 8 ? 8 : (int)w;
}

static void kineto_node(const model_node *n, const loader_share *ls, const double *p,
                        rule_result *o)
{
    double pct = 100.0 * ls->loader_us / ls->step_us;
    double per = ls->loader_us / (double)ls->steps, step = ls->step_us / (double)ls->steps;
    o->datapoints++;
    if (pct < p[2]) {
        if (!o->violations)
            rule_result_message(o, "%s: data loading %.2g%% of the TRAIN steps (%.0f us of "
                                "%.1f ms), under %g%%", model_node_id(n), pct, per,
                                step / 1000, p[2]);
        return;
    }
    o->violations++;
    int w = suggest_workers(n);
    if (ls->main_thread) {
        rule_result_message(o, "%s: data loaded on the main thread (num_workers=0), %.0f%% of "
                            "each TRAIN step", model_node_id(n), pct);
        rule_result_cause(o, "the DataLoader makes each batch on the training thread "
                          "(_SingleProcessDataLoaderIter, num_workers=0): %.1f ms of each "
                          "%.1f ms TRAIN step (%.0f%%) on %s, the GPU waiting", per / 1000,
                          step / 1000, pct, model_node_id(n));
        rule_result_fix(o, "DataLoader(num_workers=%d, pin_memory=True, persistent_workers=True)",
                        w);
    } else {
        rule_result_message(o, "%s: waiting for DataLoader workers %.0f%% of each TRAIN step",
                            model_node_id(n), pct);
        rule_result_cause(o, "the training thread waits for the DataLoader's workers "
                          "(_MultiProcessingDataLoaderIter.__next__): %.1f ms of each %.1f ms "
                          "TRAIN step (%.0f%%) on %s", per / 1000, step / 1000, pct,
                          model_node_id(n));
        rule_result_fix(o, "more workers and prefetch: DataLoader(num_workers=%d, "
                        "pin_memory=True, prefetch_factor=4, persistent_workers=True)", w);
    }
    rule_result_worst(o, model_node_id(n), "", 0, 0);
}

/* ProfilerReport's: the most loader events at once against the cores.
 * 0 done, 1 no loader events, -1 OOM. */
static int smdebug_node(const model_node *n, const double *p, rule_result *o, phase_event *ev)
{
    int64_t span[2];
    int conc = loader_concurrency(n, ev, span);
    if (conc <= 0)
        return conc < 0 ? -1 : 1;
    size_t cores = model_node_cpu_count(n);
    if (cores == 0)
        return 2;
    double pct = 100.0 * conc / (double)cores;
    o->datapoints++;
    int low = pct < p[0], high = pct > p[1];
    if (low || high || o->violations == 0)
        rule_result_message(o, "%s: %d parallel data-loader workers on %zu cores "
                            "(%.0f%%; expected %g-%g%%)", model_node_id(n), conc, cores, pct,
                            p[0], p[1]);
    if (!low && !high)
        return 0;
    o->violations++;
    rule_result_example(o, model_node_id(n), "", span[0], span[1], pct,
                        "%d workers / %zu cores = %.0f%% %s %g%%", conc, cores, pct,
                        low ? "<" : ">", low ? p[0] : p[1]);
    rule_result_worst(o, model_node_id(n), "", span[0], span[1]);
    rule_result_cause(o, "%d data-loader workers ran at once on %s's %zu cores (%.0f%%, "
                      "expected %g-%g%%)", conc, model_node_id(n), cores, pct, p[0], p[1]);
    if (low)
        rule_result_fix(o, "more data-loader workers: DataLoader(num_workers=%zu)",
                        cores * (size_t)p[0] / 100 + 1);
    else
        rule_result_fix(o, "fewer data-loader workers: at most %zu in all (%g%% of %zu cores)",
                        (size_t)((double)cores * p[1] / 100), p[1], cores);
    return 0;
}

int rules_loader_share(const model *m, rules_loader *out)
{
    int found = 0;
    for (size_t ni = 0; ni < model_node_count(m); ni++) {
        const model_node *n = model_node_at(m, ni);
        loader_share ls;
        if (!kineto_share(n, &ls))
            continue;
        double pct = 100.0 * ls.loader_us / ls.step_us;
        if (found && pct <= out->pct)
            continue;
        found = 1;
        *out = (rules_loader){model_node_id(n), pct, ls.loader_us / (double)ls.steps,
                              ls.step_us / (double)ls.steps, ls.main_thread};
    }
    return found;
}

/* params: min_threshold, max_threshold (percent of cores), min_data_pct */
int rule_dataloader(const model *m, const double *p, rule_result *o)
{
    phase_event *ev = malloc(PHASE_RECENT_CAP * sizeof *ev);
    if (!ev)
        return -1;
    int any_loader = 0, need_cores = 0;
    for (size_t ni = 0; ni < model_node_count(m); ni++) {
        const model_node *n = model_node_at(m, ni);
        loader_share ls;
        if (kineto_share(n, &ls)) {
            any_loader = 1;
            kineto_node(n, &ls, p, o);
            continue;
        }
        int rc = smdebug_node(n, p, o, ev);
        if (rc < 0) {
            free(ev);
            return -1;
        }
        any_loader |= rc != 1;
        need_cores |= rc == 2;
    }
    free(ev);
    if (o->datapoints)
        o->status = o->violations ? RULE_TRIGGERED : RULE_OK;
    else
        rule_result_message(o, need_cores ? "needs CPU metrics (core count)"
                            : any_loader ? "no TRAIN steps to weigh data loading against"
                                         : "no data-loader events");
    return 0;
}
