/* trace_decode: the per-file state machine over parsed event lines (the
 * line readers are in trace_line.c). All state changes happen after a line
 * parsed, and every allocation is made before anything is changed, so a
 * corrupt line or an OOM leaves the decoder as it was. */
#include "io/decode/trace_decode.h"

#include <stdlib.h>
#include <string.h>

#include "io/decode/trace_carry.h"
#include "io/decode/trace_line.h"
#include "model/util/vec.h"

#define MAX_OPEN 4096     /* open B events per (pid, tid) */
#define MAX_STACKS 4096   /* distinct (pid, tid) with open B events */
#define MAX_PIDS 4096     /* named pids */
#define MAX_NAME 4096     /* bytes kept of a name */

typedef struct pid_name {
    int64_t pid;
    char *s;
    size_t len;
} pid_name;

typedef struct open_b {
    int64_t start, step;
    char *name;
    size_t len;
} open_b;

typedef struct bstack {
    int64_t pid, tid;
    open_b *v;
    size_t n, cap;
} bstack;

struct trace_dec {
    char *node;
    char *process;          /* the writer id, "" when unknown */
    size_t node_len, process_len;
    trace_carry *carry;     /* B/E pairs across the writer's files, or NULL */
    int writer;             /* the writer's handle in carry */
    int64_t base;
    pid_name *pn;
    size_t npn, cappn;
    bstack *st;
    size_t nst, capst;
    size_t open, dropped;
    int reference;
};

trace_dec *trace_decode_new(const char *node)
{
    trace_dec *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->node = strdup(node ? node : "");
    d->process = strdup("");
    if (!d->node || !d->process) {
        trace_decode_free(d);
        return NULL;
    }
    d->node_len = strlen(d->node);
    return d;
}

int trace_decode_set_writer(trace_dec *d, const char *process, trace_carry *carry, int kind)
{
    char *p = strdup(process ? process : "");
    int w = carry && p && p[0] ? trace_carry_writer(carry, p, kind) : -1;
    if (!p || (carry && p[0] && w < 0)) {
        free(p);
        return -1;
    }
    free(d->process);
    d->process = p;
    d->process_len = strlen(p);
    d->carry = w >= 0 ? carry : NULL;
    d->writer = w;
    return 0;
}

void trace_decode_free(trace_dec *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->npn; i++)
        free(d->pn[i].s);
    for (size_t i = 0; i < d->nst; i++) {
        for (size_t j = 0; j < d->st[i].n; j++)
            free(d->st[i].v[j].name);
        free(d->st[i].v);
    }
    free(d->pn);
    free(d->st);
    free(d->node);
    free(d->process);
    free(d);
}

int64_t trace_decode_base_us(const trace_dec *d)
{
    return d->base;
}

size_t trace_decode_open_count(const trace_dec *d)
{
    return d->open;
}

size_t trace_decode_dropped_count(const trace_dec *d)
{
    return d->dropped;
}

void trace_decode_set_reference(trace_dec *d, int on)
{
    d->reference = on;
}

static char *copy_name(sm_str s, size_t *len)
{
    *len = s.len < MAX_NAME ? s.len : MAX_NAME;
    char *c = malloc(*len + 1);
    if (c) {
        memcpy(c, s.ptr, *len);
        c[*len] = '\0';
    }
    return c;
}

static pid_name *find_pid(trace_dec *d, int64_t pid)
{
    for (size_t i = 0; i < d->npn; i++)
        if (d->pn[i].pid == pid)
            return &d->pn[i];
    return NULL;
}

static int set_phase(trace_dec *d, int64_t pid, sm_str name)
{
    pid_name *p = find_pid(d, pid);
    if (!p && d->npn == MAX_PIDS) {
        d->dropped++;
        return 0;
    }
    size_t len;
    char *c = copy_name(name, &len);
    if (!c || (!p && vec_grow(&d->pn, &d->cappn, d->npn + 1, sizeof *d->pn, 8) != 0)) {
        free(c);
        return -1;
    }
    if (!p)
        p = &d->pn[d->npn++];
    else
        free(p->s);
    *p = (pid_name){pid, c, len};
    return 0;
}

static int on_metadata(trace_dec *d, const tl_event *e)
{
    if (!sm_str_eq(e->name, "process_name"))
        return 0;   /* process_sort_index, thread_name, ...: not needed */
    if (e->has_args_name && set_phase(d, e->pid, e->args_name) != 0)
        return -1;
    if (e->has_start)
        d->base = e->start;
    return 0;
}

static sm_str pid_phase(trace_dec *d, int64_t pid)
{
    pid_name *p = find_pid(d, pid);
    return p ? (sm_str){p->s, p->len} : (sm_str){"", 0};
}

static void emit_as(trace_dec *d, sm_str phase, int64_t pid, int64_t tid, sm_str name,
                    int64_t start, int64_t dur, int64_t step, trace_sink sink, void *ud)
{
    sm_event ev = {
        .node = {d->node, d->node_len},
        .process = {d->process, d->process_len},
        .phase = phase,
        .name = name,
        .start_us = start,
        .dur_us = dur,
        .step = step,
        .pid = pid,
        .tid = tid,
    };
    if (sink)
        sink(ud, &ev);
}

static void emit(trace_dec *d, int64_t pid, int64_t tid, sm_str name, int64_t start,
                 int64_t dur, int64_t step, trace_sink sink, void *ud)
{
    emit_as(d, pid_phase(d, pid), pid, tid, name, start, dur, step, sink, ud);
}

static sm_str item_str(const char *s)
{
    return s ? sm_str_c(s) : (sm_str){"", 0};
}

/* Emits the pair of a B and an E that met in the carry: the B's name,
 * phase and step unless it lacks them. */
static void emit_pair(trace_dec *d, const tcarry_item *b, const tcarry_item *e,
                      trace_sink sink, void *ud)
{
    sm_str name = b->name ? item_str(b->name) : item_str(e->name);
    sm_str phase = b->phase ? item_str(b->phase) : item_str(e->phase);
    int64_t dur;
    if (__builtin_sub_overflow(e->t, b->t, &dur) || dur < 0)
        dur = 0;
    emit_as(d, phase, b->pid, b->tid, name, b->t, dur, b->step != -1 ? b->step : e->step,
            sink, ud);
}

static char *dup_or_null(sm_str s)
{
    size_t len;
    return s.len ? copy_name(s, &len) : NULL;
}

/* An E whose B this file never saw: it closes a B carried from an earlier
 * file of the writer, or waits in the carry for that file. */
static void orphan_e(trace_dec *d, const tl_event *e, int64_t end, trace_sink sink, void *ud)
{
    if (!d->carry)
        return;   /* e.g. the B was in an earlier file */
    tcarry_item mine = {d->writer, e->pid, e->tid, end, e->step,
                        dup_or_null(e->name), dup_or_null(pid_phase(d, e->pid))};
    tcarry_item b;
    if (trace_carry_take_b(d->carry, d->writer, e->pid, e->tid, end, &b)) {
        emit_pair(d, &b, &mine, sink, ud);
        trace_carry_item_clear(&b);
        trace_carry_item_clear(&mine);
        return;
    }
    trace_carry_put_e(d->carry, &mine);
}

static bstack *find_stack(trace_dec *d, int64_t pid, int64_t tid)
{
    for (size_t i = 0; i < d->nst; i++)
        if (d->st[i].pid == pid && d->st[i].tid == tid)
            return &d->st[i];
    return NULL;
}

static int push_b(trace_dec *d, const tl_event *e, int64_t start)
{
    bstack *s = find_stack(d, e->pid, e->tid);
    if ((!s && d->nst == MAX_STACKS) || (s && s->n == MAX_OPEN)) {
        d->dropped++;
        return 0;
    }
    if (!s) {
        if (vec_grow(&d->st, &d->capst, d->nst + 1, sizeof *d->st, 8) != 0)
            return -1;
        s = &d->st[d->nst++];
        *s = (bstack){.pid = e->pid, .tid = e->tid};
    }
    size_t len;
    char *name = copy_name(e->name, &len);
    if (!name || vec_grow(&s->v, &s->cap, s->n + 1, sizeof *s->v, 8) != 0) {
        free(name);
        return -1;   /* an empty new stack stays: harmless, reused later */
    }
    s->v[s->n++] = (open_b){start, e->step, name, len};
    d->open++;
    return 0;
}

static void pop_e(trace_dec *d, const tl_event *e, int64_t end, trace_sink sink, void *ud)
{
    bstack *s = find_stack(d, e->pid, e->tid);
    if (!s || s->n == 0) {
        orphan_e(d, e, end, sink, ud);
        return;
    }
    open_b *b = &s->v[--s->n];
    d->open--;
    int64_t dur;
    if (__builtin_sub_overflow(end, b->start, &dur) || dur < 0)
        dur = 0;
    sm_str name = b->len ? (sm_str){b->name, b->len} : e->name;
    emit(d, e->pid, e->tid, name, b->start, dur, b->step != -1 ? b->step : e->step, sink, ud);
    free(b->name);
}

static int on_event(trace_dec *d, const tl_event *e, trace_sink sink, void *ud)
{
    char ph = e->ph.len == 1 ? e->ph.ptr[0] : 0;
    if (ph == 'M')
        return on_metadata(d, e);
    if (ph != 'X' && ph != 'B' && ph != 'E')
        return 0;   /* instant, counter, flow, ...: no duration to show */
    int64_t start;
    if (!e->has_ts || __builtin_add_overflow(d->base, e->ts, &start))
        return -1;
    if (ph == 'B')
        return push_b(d, e, start);
    if (ph == 'E') {
        pop_e(d, e, start, sink, ud);
        return 0;
    }
    int64_t dur = e->has_dur ? e->dur : 0;
    if (dur < 0)
        return -1;
    emit(d, e->pid, e->tid, e->name, start, dur, e->step, sink, ud);
    return 0;
}

static int is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Every trailing ',' goes, not just the separator: close() takes one off
 * the last line, and a line must be judged the same in the open .tmp
 * ("x,," or ",") as in the closed file ("x," or ""), or the live scanner
 * counts a corrupt line the finished file does not have. */
static void trim(const char **pp, size_t *lenp)
{
    while (*lenp && is_ws(**pp))
        (*pp)++, (*lenp)--;
    while (*lenp && (is_ws((*pp)[*lenp - 1]) || (*pp)[*lenp - 1] == ','))
        (*lenp)--;
}

/* Strips whitespace, the separating ',' and the array brackets the writer
 * puts on lines of their own (other writers put them around the first and
 * last event: "[{...}," and "{...}]"). An event object never ends in ']',
 * so stripping one only turns an already broken line into another. */
static void trim_line(const char **pp, size_t *lenp)
{
    trim(pp, lenp);
    if (*lenp && **pp == '[') {
        (*pp)++, (*lenp)--;
        trim(pp, lenp);
    }
    if (*lenp && (*pp)[*lenp - 1] == ']') {
        (*lenp)--;
        trim(pp, lenp);
    }
}

int trace_decode_line(trace_dec *d, const char *line, size_t len, trace_sink sink, void *ud)
{
    trim_line(&line, &len);
    if (len == 0)
        return 0;
    tl_event e;
    void *root = NULL;
    int rc = d->reference ? TL_FALLBACK : trace_line_parse_fast(line, len, &e);
    if (rc == TL_FALLBACK)
        rc = trace_line_parse_jansson(line, len, &e, &root);
    if (rc == TL_OK)
        rc = on_event(d, &e, sink, ud);
    trace_line_release(root);
    return rc == TL_OK ? 0 : -1;
}

/* Hands one open B of stack s to the carry: it meets an E that came
 * already, or waits there. The B's name moves into the carry. */
static void hand_over_b(trace_dec *d, const bstack *s, open_b *b, trace_sink sink, void *ud)
{
    tcarry_item mine = {d->writer, s->pid, s->tid, b->start, b->step,
                        b->len ? b->name : NULL, dup_or_null(pid_phase(d, s->pid))};
    if (!b->len)
        free(b->name);
    b->name = NULL;
    tcarry_item e;
    if (!trace_carry_take_e(d->carry, d->writer, s->pid, s->tid, b->start, &e)) {
        trace_carry_put_b(d->carry, &mine);
        return;
    }
    emit_pair(d, &mine, &e, sink, ud);
    trace_carry_item_clear(&e);
    trace_carry_item_clear(&mine);
}

void trace_decode_close_file(trace_dec *d, trace_sink sink, void *ud)
{
    if (!d->carry)
        return;
    for (size_t i = 0; i < d->nst; i++) {
        bstack *s = &d->st[i];
        while (s->n) {   /* top of the stack first: see trace_carry.h */
            d->open--;
            hand_over_b(d, s, &s->v[--s->n], sink, ud);
        }
    }
}

int trace_decode_parse(const char *line, size_t len, tl_event *out)
{
    trim_line(&line, &len);
    if (len == 0)
        return 0;
    return trace_line_parse_fast(line, len, out) == TL_OK ? 1 : -1;
}

int trace_decode_event(trace_dec *d, const tl_event *ev, trace_sink sink, void *ud)
{
    if (d->reference)
        return 1;
    return on_event(d, ev, sink, ud) == TL_OK ? 0 : -1;
}
