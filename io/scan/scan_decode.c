/* scan_decode: see scan_decode.h. */
#include "io/scan/scanner_internal.h"

#include <stdio.h>
#include <stdlib.h>

#include "io/decode/tf_trace.h"
#include "model/steps/phase_stats.h"

static int sink_sample(void *ud, const sm_sample *s)
{
    return model_add_sample(((scan_sink *)ud)->sc->m, s);
}

static int sink_event(void *ud, const sm_event *e)
{
    return model_add_event(((scan_sink *)ud)->sc->m, e);   /* an OOM drops one event */
}

static int sink_pywindow(void *ud, const sm_pywindow *w)
{
    const rec_sink *user = ((scan_sink *)ud)->sc->o.sink;
    return user->pywindow ? user->pywindow(user->ud, w) : 0;
}

static int sink_trace(void *ud, sm_trace_done *t, sm_err *err)
{
    const rec_sink *user = ((scan_sink *)ud)->sc->o.sink;
    if (user->trace)
        return user->trace(user->ud, t, err);
    decoder_kineto_free_done(t);
    return 0;
}

static void sink_note(void *ud, const char *what)
{
    scan_sink *s = ud;
    if (!s->note[0])
        snprintf(s->note, sizeof s->note, "%s", what);
}

void scan_decode_sink(scanner *sc, scan_sink *s)
{
    s->sc = sc;
    s->note[0] = '\0';
    s->out = (rec_sink){.ud = s, .sample = sink_sample, .event = sink_event,
                        .pywindow = sink_pywindow, .trace = sink_trace, .note = sink_note};
}

void scan_decode_say(scanner *sc, const scan_sink *s, const char *rel)
{
    if (s->note[0])
        scan_add_message(sc, rel, s->note);
}

/* Start of `step` among a Step phase's retained events, or NO_BASE. */
static int64_t find_in_phase(const phase_stats *p, int64_t step)
{
    phase_event *buf = malloc(PHASE_RECENT_CAP * sizeof *buf);
    if (!buf)
        return TF_TRACE_NO_BASE;
    size_t n = phase_stats_recent(p, buf, PHASE_RECENT_CAP);
    int64_t t = TF_TRACE_NO_BASE;
    for (size_t i = n; i-- > 0 && t == TF_TRACE_NO_BASE;)
        if (buf[i].step == step)
            t = buf[i].start_us;
    free(buf);
    return t;
}

int64_t scan_decode_step_start(const model *m, const char *node_id, int64_t step)
{
    const model_node *n = model_find_node(m, node_id);
    if (!n || step < 0)
        return TF_TRACE_NO_BASE;
    /* Phases are ordered TRAIN, EVAL, GLOBAL, other modes: first hit wins. */
    for (size_t i = 0; i < model_node_phase_count(n); i++) {
        const phase_stats *p = model_node_phase_at(n, i);
        if (phase_stats_kind(p) != PHASE_STEP)
            continue;
        int64_t t = find_in_phase(p, step);
        if (t != TF_TRACE_NO_BASE)
            return t;
    }
    return TF_TRACE_NO_BASE;
}

int scan_decode_place(scanner *sc, const char *rel, key_info *ki, sm_err *why)
{
    if (ki->kind != KEY_TF_TRACE)
        return 0;
    tf_place pl;
    if (tf_meta_place(sc->tfb, rel, &pl, why) == 0) {
        snprintf(ki->node, sizeof ki->node, "%s", pl.node);
        ki->time_us = pl.base_us;
        return 0;
    }
    /* no record: the profiler is started by the step-begin hook, so the
     * same step's start on the node is off by the hook's latency only */
    int64_t t = scan_decode_step_start(sc->m, ki->node, tf_trace_step_from_key(rel));
    ki->time_us = t == TF_TRACE_NO_BASE ? 0 : t;
    return t == TF_TRACE_NO_BASE ? -1 : 0;
}
