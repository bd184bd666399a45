/* decoder_tf: the "tf-trace" row (a TensorFlow detailed-profiling trace,
 * tf_trace.h: its events, placed on the job clock) and the "rule-report"
 * row (SageMaker's ProfilerReport verdicts, rule_report.h). */
#include "io/decode/decoder_impl.h"
#include "io/decode/tf_trace.h"

static int whole_match(const key_info *ki, const void *head, size_t n)
{
    (void)head;
    (void)n;
    return ki->kind == KEY_TF_TRACE || ki->kind == KEY_RULE_REPORT;
}

static void *tf_begin(const key_info *ki, const char *key, sm_err *err)
{
    return decoder_whole_begin(ki, key, err);
}

static void tf_event(void *ud, const sm_event *e)
{
    const rec_sink *out = ud;
    out->event(out->ud, e);   /* a refused event is the sink's to count */
}

/* ki.node is the writer's node and ki.time_us the session's start on the
 * job clock, 0 when the ingest path knows none (smdebug's record, else
 * the same step's start on that node): the trace then fails, named, as
 * tf_trace_load_at says, rather than land in 1970. */
static int tf_end(void *st, int64_t len, const rec_sink *out, sm_err *err)
{
    decoder_whole *w = st;
    (void)len;
    int rc = decoder_whole_ok(w, err);
    if (rc == 0) {
        int64_t base = w->ki.time_us ? w->ki.time_us : TF_TRACE_NO_BASE;
        rc = tf_trace_load_at(w->buf, w->n, w->ki.node, tf_trace_step_from_key(w->key), base,
                              tf_event, (void *)out, err) < 0 ? -1 : 0;
    }
    decoder_whole_drop(w);
    return rc;
}

const decoder decoder_tf_trace = {
    .name = "tf-trace",
    .kind = KEY_TF_TRACE,
    .match = whole_match,
    .begin = tf_begin,
    .feed = decoder_whole_feed,
    .end = tf_end,
    .drop = decoder_whole_drop,
    .streamed = 0,
};

/* SageMaker's own verdicts are read whole, as every file of the job is
 * accounted for, and give no record: smtop evaluates the rules itself
 * (rule_report.h reads them for a caller that shows both). */
static int rule_end(void *st, int64_t len, const rec_sink *out, sm_err *err)
{
    (void)len;
    (void)out;
    int rc = decoder_whole_ok(st, err);
    decoder_whole_drop(st);
    return rc;
}

const decoder decoder_rule_report = {
    .name = "rule-report",
    .kind = KEY_RULE_REPORT,
    .match = whole_match,
    .begin = tf_begin,
    .feed = decoder_whole_feed,
    .end = rule_end,
    .drop = decoder_whole_drop,
    .streamed = 0,
};
