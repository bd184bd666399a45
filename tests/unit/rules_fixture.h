/* rules_fixture: builds models through the real ingestion path
 * (model_fixture.h) for the rule tests. Header-only,
 * included by test_rules*.c. */
#ifndef SMTOP_RULES_FIXTURE_H
#define SMTOP_RULES_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "model/model.h"
#include "model/rules/rules.h"
#include "model_fixture.h"

#define T0 1600000000000000LL    /* a multiple of 5 min, in µs */
#define DT 500000LL              /* 500 ms sampling */

/* One sampling tick on node: `cpus` cores at cpu %, and GPU i at gpu[i] %
 * utilization / mem[i] % memory (NULL arrays: no GPU metric of that kind). */
static inline void fx_tick(model *m, const char *node, int64_t k, int cpus,
                           double cpu, int gpus, const double *gpu,
                           const double *mem)
{
    int64_t ts = T0 + k * DT;
    char name[16];
    for (int c = 0; c < cpus; c++) {
        snprintf(name, sizeof name, "cpu%d", c);
        fx_sample(m, node, "cpu", "CPUUtilization", name, ts, cpu);
    }
    for (int g = 0; g < gpus; g++) {
        snprintf(name, sizeof name, "gpu%d", g);
        if (gpu)
            fx_sample(m, node, "gpu", "GPUUtilization", name, ts, gpu[g]);
        if (mem)
            fx_sample(m, node, "gpu", "GPUMemoryUtilization", name, ts, mem[g]);
    }
}

/* Evaluates r over m and returns the result of `name`. Tests switch
 * between models, so the cache is dropped first. */
static inline const rule_result *fx_eval(rules *r, const model *m,
                                         const char *name)
{
    rules_invalidate(r);
    assert_int_equal(rules_evaluate(r, m), 1);
    int i = rules_find(name);
    assert_true(i >= 0);
    return rules_result_at(r, (size_t)i);
}

static inline void fx_set(rules *r, const char *spec)
{
    sm_err e = {0};
    if (rules_apply_override(r, spec, &e) != 0)
        fail_msg("override %s: %s", spec, e.msg);
}

#endif
