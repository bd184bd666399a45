/* rule_straggler: a rank or a node whose training steps are slower than
 * its peers'. In data-parallel training every rank runs the same steps, so
 * one whose median TRAIN step is well above the median of the others holds
 * the whole job back (or is held back by its GPU, its data or its host).
 * Peers: the processes (trace writers) of one node, and the nodes of the
 * job (each node's pooled steps). Each peer is compared with the median of
 * the *other* peers, so two ranks suffice to find the slower one. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/rules/rule_impl.h"
#include "model/util/stable_sort.h"

typedef struct peer {
    const model_node *n;
    const phase_stats *ph;
    double p50;
} peer;

/* The TRAIN steps of a node or process, else its first step phase. */
static const phase_stats *train_steps(const model_node *n)
{
    const phase_stats *p = model_node_find_phase(n, "Step:ModeKeys.TRAIN");
    for (size_t i = 0; !p && i < model_node_phase_count(n); i++)
        if (phase_stats_kind(model_node_phase_at(n, i)) == PHASE_STEP)
            p = model_node_phase_at(n, i);
    return p;
}

/* Adds n as a peer when it has at least min_steps steps. */
static void peer_add(peer *v, size_t *k, const model_node *n, double min_steps)
{
    const phase_stats *ph = train_steps(n);
    phase_summary s;
    if (!ph)
        return;
    phase_stats_get_summary(ph, &s);
    if ((double)s.count >= min_steps && s.count > 0 && isfinite(s.p50_us))
        v[(*k)++] = (peer){n, ph, s.p50_us};
}

STABLE_SORT_DEFINE(sort_peers, peer, A.p50 < B.p50)

/* Median of sorted v[0..n) without index skip. */
static double median_without(const peer *v, size_t n, size_t skip)
{
    size_t m = n - 1, lo = (m - 1) / 2, hi = m / 2;
    double a = v[lo < skip ? lo : lo + 1].p50, b = v[hi < skip ? hi : hi + 1].p50;
    return (a + b) / 2.0;
}

/* The newest retained step of a peer: the span an alert's J focuses. */
static void newest_step(const phase_stats *ph, int64_t *t0, int64_t *t1)
{
    phase_event ev;
    *t0 = *t1 = 0;
    if (phase_stats_recent(ph, &ev, 1) == 1) {
        *t0 = ev.start_us;
        *t1 = ev.start_us + ev.dur_us;
    }
}

/* Compares each of v[0..n) with the median of the others (tmp: n peers);
 * `what` names a peer ("rank", "node"). */
static void check_peers(peer *v, peer *tmp, size_t n, const char *what, const double *p,
                        rule_result *o, double *worst)
{
    if (n < 2)
        return;
    sort_peers(v, tmp, n);
    o->datapoints += (int64_t)n;
    for (size_t i = 0; i < n; i++) {
        double med = median_without(v, n, i), over = v[i].p50 / med - 1.0;
        if (!(med > 0) || over * 100.0 <= p[0])
            continue;
        int64_t t0, t1;
        newest_step(v[i].ph, &t0, &t1);
        o->violations++;
        rule_result_example(o, model_node_id(v[i].n), phase_stats_label(v[i].ph), t0, t1, v[i].p50,
                            "p50 %.1f ms, %+.0f%% vs %.1f ms of %zu other %s%s", v[i].p50 / 1e3,
                            over * 100.0, med / 1e3, n - 1, what, n > 2 ? "s" : "");
        if (over > *worst) {
            *worst = over;
            o->worst_pct = over * 100.0;
            o->worst_value = v[i].p50;
            rule_result_worst(o, model_node_id(v[i].n), phase_stats_label(v[i].ph), t0, t1);
            rule_result_message(o, "%s: median step %.1f ms is %.0f%% slower than %zu other %s%s "
                                "(%.1f ms); fires above %g%%", model_node_id(v[i].n), v[i].p50 / 1e3,
                                over * 100.0, n - 1, what, n > 2 ? "s" : "", med / 1e3, p[0]);
        }
    }
}

/* params: threshold (percent slower than the peers' median), min_steps */
int rule_straggler(const model *m, const double *p, rule_result *o)
{
    size_t nn = model_node_count(m), cap = nn;
    for (size_t i = 0; i < nn; i++)
        if (model_node_process_count(model_node_at(m, i)) > cap)
            cap = model_node_process_count(model_node_at(m, i));
    peer *v = malloc((cap ? cap : 1) * 2 * sizeof *v);
    if (!v)
        return -1;
    double worst = 0;
    for (size_t i = 0; i < nn; i++) {
        const model_node *n = model_node_at(m, i);
        size_t k = 0;
        for (size_t r = 0; r < model_node_process_count(n); r++)
            peer_add(v, &k, model_node_process_at(n, r), p[1]);
        check_peers(v, v + cap, k, "rank", p, o, &worst);
    }
    size_t k = 0;
    for (size_t i = 0; i < nn; i++)
        peer_add(v, &k, model_node_at(m, i), p[1]);
    check_peers(v, v + cap, k, "node", p, o, &worst);
    free(v);
    if (o->violations)
        o->status = RULE_TRIGGERED;
    else if (o->datapoints) {
        o->status = RULE_OK;
        rule_result_message(o, "every rank and node within %g%% of its peers' median step", p[0]);
    } else {
        rule_result_message(o, "needs two ranks of a node, or two nodes, with %g TRAIN steps each",
                            p[1]);
    }
    return 0;
}
