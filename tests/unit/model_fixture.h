/* model_fixture: adding one sample or one trace event to a model in a
 * test, through the real ingestion calls (model_add_sample /
 * model_add_event). Header-only, test code; include after <cmocka.h>
 * (failures are cmocka assertions). rules_fixture.h builds on it. */
#ifndef SMTOP_MODEL_FIXTURE_H
#define SMTOP_MODEL_FIXTURE_H

#include <stdint.h>

#include "model/model.h"

static inline void fx_sample(model *m, const char *node, const char *type,
                             const char *dim, const char *name, int64_t ts,
                             double v)
{
    sm_sample s = {.type = sm_str_c(type), .dimension = sm_str_c(dim),
                   .name = sm_str_c(name), .node = sm_str_c(node),
                   .value = v, .ts_us = ts};
    assert_int_equal(model_add_sample(m, &s), 0);
}

static inline void fx_event(model *m, const char *node, const char *phase,
                            const char *name, int64_t step, int64_t start,
                            int64_t dur, int64_t tid)
{
    sm_event e = {.node = sm_str_c(node), .phase = sm_str_c(phase),
                  .name = sm_str_c(name), .start_us = start, .dur_us = dur,
                  .step = step, .pid = 1, .tid = tid};
    assert_int_equal(model_add_event(m, &e), 0);
}

/* A training step (Step:ModeKeys.TRAIN) on node. */
static inline void fx_step(model *m, const char *node, int64_t step, int64_t start,
                           int64_t dur)
{
    fx_event(m, node, "Step:ModeKeys.TRAIN", "Step", step, start, dur, 0);
}

#endif
