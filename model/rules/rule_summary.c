/* rule_summary: MaxInitializationTime and the two summary rules. The
 * summaries never fire: their datapoints say how much they summarise and
 * the report renders the per-node numbers from the model itself. */
#include "model/rules/rule_impl.h"

/* params: threshold (minutes) */
int rule_max_initialization_time(const model *m, const double *p, rule_result *o)
{
    job_phases ph;
    model_get_job_phases(m, &ph);
    int64_t limit = (int64_t)(p[0] * 60e6);
    if (model_last_event_us(m) == 0) {
        /* system metrics alone cannot tell when training starts */
        rule_result_message(o, "no framework events: first step unknown");
        return 0;
    }
    o->datapoints = 1;
    if (ph.has_steps) {
        int64_t init = ph.first_step_us - ph.first_us;
        o->status = init > limit ? RULE_TRIGGERED : RULE_OK;
        o->violations = init > limit;
        rule_result_worst(o, "", "", ph.first_us, ph.first_step_us);
        rule_result_message(o, "first step after %.1f min (fires above %g min)",
                            init / 60e6, p[0]);
        if (init > limit)
            rule_result_example(o, "", "", ph.first_us, ph.first_step_us, init / 60e6,
                                "initialization %.1f min > %g min", init / 60e6, p[0]);
        return 0;
    }
    int64_t waited = model_last_us(m) - model_first_us(m);
    if (waited <= limit) {
        o->datapoints = 0;
        rule_result_message(o, "no step yet after %.1f min (fires after %g min)",
                            waited / 60e6, p[0]);
        return 0;
    }
    o->status = RULE_TRIGGERED;
    o->violations = 1;
    rule_result_worst(o, "", "", model_first_us(m), model_last_us(m));
    rule_result_message(o, "no training step after %.1f min (limit %g min)",
                        waited / 60e6, p[0]);
    rule_result_example(o, "", "", model_first_us(m), model_last_us(m), waited / 60e6,
                        "still initializing after %.1f min", waited / 60e6);
    return 0;
}

int rule_overall_system_usage(const model *m, const double *p, rule_result *o)
{
    (void)p;
    size_t nodes = 0;
    for (size_t i = 0; i < model_node_count(m); i++) {
        const model_node *n = model_node_at(m, i);
        size_t k = model_node_series_count(n);
        o->datapoints += (int64_t)k;
        nodes += k > 0;
    }
    if (o->datapoints) {
        o->status = RULE_OK;
        rule_result_message(o, "%lld metric%s on %zu node%s summarised",
                            (long long)o->datapoints, o->datapoints == 1 ? "" : "s", nodes,
                            nodes == 1 ? "" : "s");
    } else {
        rule_result_message(o, "no system metrics");
    }
    return 0;
}

int rule_overall_framework_metrics(const model *m, const double *p, rule_result *o)
{
    (void)p;
    for (size_t i = 0; i < model_node_count(m); i++)
        o->datapoints += (int64_t)model_node_phase_count(model_node_at(m, i));
    if (o->datapoints) {
        o->status = RULE_OK;
        rule_result_message(o, "%lld framework phases summarised",
                            (long long)o->datapoints);
    } else {
        rule_result_message(o, "no framework events");
    }
    return 0;
}
