/* trace_evlog: a copy of every sm_event a trace decoder emits, for the
 * trace decoder and trace carry tests (test_trace_decode.c,
 * test_trace_carry.c). Include after cmocka.h. */
#ifndef SMTOP_TEST_TRACE_EVLOG_H
#define SMTOP_TEST_TRACE_EVLOG_H

#include <stdint.h>
#include <string.h>

#include "model/records.h"

#define MAXEV 1024

typedef struct ev_copy {
    char phase[64], name[64], process[40], node[40];
    int64_t start, dur, step, pid, tid;
} ev_copy;

typedef struct evlog {
    ev_copy ev[MAXEV];
    int n;
} evlog;

static inline void evlog_copy_str(char *dst, size_t cap, sm_str s)
{
    size_t n = s.len < cap - 1 ? s.len : cap - 1;
    memcpy(dst, s.ptr, n);
    dst[n] = '\0';
}

/* A trace_sink: appends e to the evlog ud. */
static inline void sink(void *ud, const sm_event *e)
{
    evlog *l = ud;
    assert_true(l->n < MAXEV);
    assert_true(e->dur_us >= 0);
    ev_copy *c = &l->ev[l->n++];
    memset(c, 0, sizeof *c);   /* whole structs are compared */
    *c = (ev_copy){.start = e->start_us, .dur = e->dur_us, .step = e->step,
                   .pid = e->pid, .tid = e->tid};
    evlog_copy_str(c->phase, sizeof c->phase, e->phase);
    evlog_copy_str(c->name, sizeof c->name, e->name);
    evlog_copy_str(c->process, sizeof c->process, e->process);
    evlog_copy_str(c->node, sizeof c->node, e->node);
}

#endif
