/* model_cpu: a node's total CPU = mean over its cores at each timestamp.
 *
 * Core samples of one timestamp are summed in a pending group; the group
 * is emitted into the "total" series once, when it is complete:
 *   - once the node's core count is known, when the group holds that many
 *     samples (no lag, whatever order files arrive in);
 *   - before that, when a later timestamp follows it in the same file
 *     (model_set_stream), which establishes the core count;
 *   - as a fallback, when NODE_CPU_PENDING newer groups are open (a group
 *     that lost a core to a corrupt line is emitted with what it has);
 *   - at a flush (the end of a scan), all of them, but in a live read the
 *     newest one only when it holds the core count (more may come).
 * Assumption, true of smdebug's writer: every core of one timestamp is in
 * the same file. Files themselves may arrive in any order, and a file read
 * in several chunks may split a group: it simply stays pending. */
#include <stdint.h>

#include "model/core/model_node.h"

static cpu_group *group_find(model_node *n, int64_t ts)
{
    for (size_t i = n->npending; i-- > 0;)
        if (n->pending[i].ts == ts)
            return &n->pending[i];
    return NULL;
}

static void group_remove(model_node *n, cpu_group *g)
{
    *g = n->pending[--n->npending];
}

/* Emits g into the total. On OOM the group stays pending and is retried
 * when it is evicted. */
static int group_emit(model_node *n, cpu_group *g)
{
    if (series_add(n->cpu_total, g->ts, g->sum / g->count) != 0)
        return -1;
    if (g->count > n->expected_cores)
        n->expected_cores = g->count;
    group_remove(n, g);
    return 0;
}

/* Emits g, or drops it when there is no memory even for one sample; 1
 * when it went into the total. */
static size_t emit_or_drop(model_node *n, cpu_group *g)
{
    if (group_emit(n, g) == 0)
        return 1;
    group_remove(n, g);
    return 0;
}

static void evict_oldest(model_node *n)
{
    cpu_group *old = &n->pending[0];
    for (size_t i = 1; i < n->npending; i++)
        if (n->pending[i].seq < old->seq)
            old = &n->pending[i];
    emit_or_drop(n, old);
}

/* The slot of stream id, taking the least recently used one for a new
 * stream (its last time then unknown). */
static cpu_stream *stream_slot(model_node *n, uint64_t id)
{
    cpu_stream *last = &n->streams[n->last_stream];
    if (last->valid && last->id == id)
        return last;   /* consecutive lines come from one file */
    cpu_stream *lru = &n->streams[0];
    for (size_t i = 0; i < NODE_CPU_STREAMS; i++) {
        cpu_stream *s = &n->streams[i];
        if (s->valid && s->id == id) {
            s->used = ++n->stream_clock;
            n->last_stream = (uint8_t)i;
            return s;
        }
        if (!s->valid || s->used < lru->used)
            lru = s;
    }
    *lru = (cpu_stream){id, 0, ++n->stream_clock, 0};
    n->last_stream = (uint8_t)(lru - n->streams);
    return lru;
}

void model_node_cpu_note(model_node *n, uint64_t stream, int64_t ts, double v)
{
    cpu_stream *st = stream_slot(n, stream);
    cpu_group *g = group_find(n, ts);
    if (!g) {
        if (n->expected_cores == 0 && st->valid && ts > st->last_ts) {
            cpu_group *prev = group_find(n, st->last_ts);
            if (prev)
                group_emit(n, prev);
        }
        if (n->npending == NODE_CPU_PENDING)
            evict_oldest(n);
        g = &n->pending[n->npending++];
        *g = (cpu_group){ts, 0.0, 0, n->group_seq++};
    }
    g->sum += v;
    g->count++;
    st->last_ts = ts;
    st->valid = 1;
    if (n->expected_cores && g->count >= n->expected_cores)
        group_emit(n, g);
}

/* Emits pending groups: with keep_newest, the newest only once it holds
 * the node's core count. That count may become known only in this flush
 * (from the older groups), after the newest group was already complete:
 * a newest file read first, holding one timestamp, leaves it so. */
size_t model_node_cpu_flush(model_node *n, int keep_newest)
{
    size_t emitted = 0;
    int64_t newest = INT64_MIN;
    for (size_t i = 0; i < n->npending; i++)
        if (n->pending[i].ts > newest)
            newest = n->pending[i].ts;
    for (size_t i = n->npending; i-- > 0;)
        if (!keep_newest || n->pending[i].ts != newest)
            emitted += emit_or_drop(n, &n->pending[i]);
    /* what is left (with keep_newest, the newest group alone), if whole */
    for (size_t i = n->npending; i-- > 0;)
        if (n->expected_cores && n->pending[i].count >= n->expected_cores)
            emitted += emit_or_drop(n, &n->pending[i]);
    if (emitted)
        n->gen++;   /* the total changed: views keyed on the node redraw */
    return emitted;
}
