/* kineto_event: one traceEvents element into an sm_kevent (see
 * kineto_parse.h and the field rules in kineto_decode.h). Keys are
 * matched by length first: an event has 6-9 members and its args up to
 * 15, and most keys are told apart by length alone. */
#include <string.h>

#include "io/decode/kineto_parse.h"

static int key_is(const char *k, size_t kl, const char *lit, size_t n)
{
    return kl == n && sm_bytes_eq(k, lit, n);
}
#define KEY(lit) key_is(k, kl, lit, sizeof lit - 1)

/* At a value: a string's raw body in *s (ptr NULL when not a string). */
static const char *str_value(const char *p, const char *end, sm_str *s, int *esc)
{
    *esc = 0;
    if (*p != '"') {
        s->ptr = NULL;
        s->len = 0;
        return kineto_parse_skip(p, end);
    }
    const char *q = kineto_parse_str_end(p, end, esc);
    if (!q)
        return NULL;
    s->ptr = p + 1;
    s->len = (size_t)(q - p - 1);
    return q + 1;
}

/* At '"' of a member: the key (unescaped into kb when it has escapes;
 * len 0 for one too long to be ours) and p after its ':' and spaces. */
static const char *member_key(const char *p, const char *end, const char **k,
                              size_t *kl, char *kb, size_t kcap)
{
    int esc;
    const char *q;
    if (p >= end || *p != '"' || !(q = kineto_parse_str_end(p, end, &esc)))
        return NULL;
    *k = p + 1;
    *kl = (size_t)(q - p - 1);
    if (esc) {
        size_t n = kineto_parse_unescape_small(*k, *kl, kb, kcap);
        *k = kb;
        *kl = n == (size_t)-1 ? 0 : n;
    }
    p = kineto_parse_ws(q + 1, end);
    if (p >= end || *p != ':')
        return NULL;
    p = kineto_parse_ws(p + 1, end);
    return p < end ? p : NULL;
}

/* After a member's value: past ',' (*more 1) or '}' (*more 0). */
static const char *member_next(const char *p, const char *end, int *more)
{
    p = kineto_parse_ws(p, end);
    if (p >= end)
        return NULL;
    if (*p == ',') {
        *more = 1;
        return kineto_parse_ws(p + 1, end);
    }
    if (*p == '}') {
        *more = 0;
        return p + 1;
    }
    return NULL;
}

static void args_reset(sm_kevent *ev)
{
    ev->correlation = ev->external_id = ev->device = ev->stream = SM_KEV_NONE;
    ev->mem_bytes = ev->mem_total_allocated = ev->mem_total_reserved = SM_KEV_NONE;
    ev->mem_device = ev->msg_bytes = SM_KEV_NONE;
    ev->wait_stream = ev->wait_corr = SM_KEV_NONE;
    ev->collective.ptr = ev->arg_name.ptr = NULL;
    ev->collective.len = ev->arg_name.len = 0;
}

/* One args member's value at p into ev; its end or NULL. */
static const char *arg_value(const char *p, const char *end, const char *k, size_t kl,
                             sm_kevent *ev)
{
    int esc;
    switch (kl) {
    case 4:
        if (KEY("name"))
            return str_value(p, end, &ev->arg_name, &esc);
        break;
    case 5:
        if (KEY("bytes"))
            return kineto_parse_int(p, end, KR_VAL, &ev->msg_bytes);
        if (KEY("Bytes"))
            return kineto_parse_int(p, end, KR_VAL, &ev->mem_bytes);
        break;
    case 6:
        if (KEY("device"))
            return kineto_parse_int(p, end, KR_ID, &ev->device);
        if (KEY("stream"))
            return kineto_parse_int(p, end, KR_ID, &ev->stream);
        break;
    case 9:
        if (KEY("Device Id"))
            return kineto_parse_int(p, end, KR_VAL, &ev->mem_device);
        break;
    case 11:
        if (KEY("correlation"))
            return kineto_parse_int(p, end, KR_ID, &ev->correlation);
        if (KEY("External id"))
            return kineto_parse_int(p, end, KR_ID, &ev->external_id);
        break;
    case 14:
        if (KEY("Total Reserved"))
            return kineto_parse_int(p, end, KR_VAL, &ev->mem_total_reserved);
        if (KEY("wait_on_stream"))
            return kineto_parse_int(p, end, KR_ID, &ev->wait_stream);
        break;
    case 15:
        if (KEY("Total Allocated"))
            return kineto_parse_int(p, end, KR_VAL, &ev->mem_total_allocated);
        if (KEY("Collective name"))
            return str_value(p, end, &ev->collective, &esc);
        break;
    case 33:
        if (KEY("wait_on_cuda_event_record_corr_id"))
            return kineto_parse_int(p, end, KR_ID, &ev->wait_corr);
        break;
    default:
        break;
    }
    return kineto_parse_skip(p, end);
}

/* At args' value: an object's members read, anything else stepped over;
 * either way the args fields are this value's alone (the last args key
 * counts, as in json.load). */
static const char *args_value(const char *p, const char *end, sm_kevent *ev)
{
    args_reset(ev);
    if (*p != '{')
        return kineto_parse_skip(p, end);
    p = kineto_parse_ws(p + 1, end);
    if (p < end && *p == '}')
        return p + 1;
    for (int more = 1; more;) {
        const char *k;
        size_t kl;
        char kb[32];
        if (!(p = member_key(p, end, &k, &kl, kb, sizeof kb)) ||
            !(p = arg_value(p, end, k, kl, ev)) || !(p = member_next(p, end, &more)))
            return NULL;
    }
    return p;
}

/* What the top-level members leave for the end of the event. */
typedef struct evstate {
    int ph_ok, name_esc, cat, cat_py;
    int64_t flow_id, dur;
} evstate;

static void ev_init(sm_kevent *ev, evstate *st)
{
    memset(ev, 0, sizeof *ev);
    ev->ts_ns = ev->dur_ns = ev->pid = ev->tid = SM_KEV_NONE;
    ev->step = -1;
    args_reset(ev);
    memset(st, 0, sizeof *st);
    st->cat = KCAT_OTHER;
    st->flow_id = st->dur = SM_KEV_NONE;
}

static const char *id_value(const char *p, const char *end, int64_t *id, sm_str *s)
{
    int esc;
    if (*p == '"') {
        *id = SM_KEV_NONE;
        return str_value(p, end, s, &esc);
    }
    s->ptr = NULL;
    s->len = 0;
    return kineto_parse_int(p, end, KR_ID, id);
}

static const char *ph_value(const char *p, const char *end, sm_kevent *ev, evstate *st)
{
    sm_str s = {NULL, 0};
    int esc;
    char b[8];
    if (!(p = str_value(p, end, &s, &esc)))
        return NULL;
    if (esc) {
        size_t n = kineto_parse_unescape_small(s.ptr, s.len, b, sizeof b);
        s.ptr = b;
        s.len = n == (size_t)-1 ? 0 : n;
    }
    st->ph_ok = s.ptr && s.len == 1 && s.ptr[0] > 0x20 && s.ptr[0] < 0x7f;
    ev->ph = st->ph_ok ? s.ptr[0] : 0;
    return p;
}

static const char *cat_value(const char *p, const char *end, evstate *st)
{
    sm_str s = {NULL, 0};
    int esc;
    if (!(p = str_value(p, end, &s, &esc)))
        return NULL;
    st->cat = s.ptr ? kineto_parse_cat(s.ptr, s.len) : KCAT_OTHER;
    st->cat_py = st->cat == KCAT_PYTHON_FUNCTION;
    return p;
}

/* One member of the event at p; its end or NULL. *skip set for a
 * python_function cat that is not kept. */
static const char *member(const char *p, const char *end, const char *k, size_t kl,
                          sm_kevent *ev, evstate *st, int keep_python, int *skip)
{
    switch (kl) {
    case 2:
        if (KEY("ph"))
            return ph_value(p, end, ev, st);
        if (KEY("ts"))
            return kineto_parse_int(p, end, KR_NS, &ev->ts_ns);
        if (KEY("id"))
            return kineto_parse_int(p, end, KR_ID, &st->flow_id);
        break;
    case 3:
        if (KEY("cat")) {
            p = cat_value(p, end, st);
            *skip = p && st->cat_py && !keep_python;
            return p;
        }
        if (KEY("pid"))
            return id_value(p, end, &ev->pid, &ev->pid_str);
        if (KEY("tid"))
            return id_value(p, end, &ev->tid, &ev->tid_str);
        if (KEY("dur"))
            return kineto_parse_int(p, end, KR_NS, &st->dur);
        break;
    case 4:
        if (KEY("name"))
            return str_value(p, end, &ev->name, &st->name_esc);
        if (KEY("args"))
            return args_value(p, end, ev);
        break;
    case 33:
        if (KEY("wait_on_cuda_event_record_corr_id"))
            return kineto_parse_int(p, end, KR_ID, &ev->wait_corr);
        break;
    default:
        break;
    }
    return kineto_parse_skip(p, end);
}

/* The name unescaped when it has escapes (short names only: the two
 * memory names and ProfilerStep#N are short), else raw. */
static sm_str plain_name(const sm_kevent *ev, const evstate *st, char *b, size_t cap)
{
    sm_str s = ev->name;
    if (st->name_esc) {
        size_t n = kineto_parse_unescape_small(s.ptr, s.len, b, cap);
        s.ptr = b;
        s.len = n == (size_t)-1 ? 0 : n;
        if (n == (size_t)-1)
            s.ptr = NULL;
    }
    return s;
}

static int64_t step_of(sm_str s)
{
    static const char pre[] = "ProfilerStep#";
    size_t n = sizeof pre - 1;
    if (!s.ptr || s.len <= n || s.len > n + 19 || memcmp(s.ptr, pre, n) != 0)
        return -1;
    uint64_t v = 0;
    for (size_t i = n; i < s.len; i++) {
        unsigned d = (unsigned)(s.ptr[i] - '0');
        if (d > 9)
            return -1;
        v = v * 10 + d;     /* 19 digits: no wrap in 64 bits */
    }
    return v > (uint64_t)INT64_MAX ? -1 : (int64_t)v;
}

static void ev_finish(sm_kevent *ev, const evstate *st)
{
    char b[48];
    sm_str nm = plain_name(ev, st, b, sizeof b);
    int flow = ev->ph == 's' || ev->ph == 'f' || ev->ph == 't';
    ev->dur_ns = ev->ph != 'X' ? SM_KEV_NONE : st->dur == SM_KEV_NONE || st->dur < 0 ? 0 : st->dur;
    if (st->cat_py)
        ev->cat = KCAT_PYTHON_FUNCTION;
    else if (nm.ptr && sm_str_eq(nm, "[memory]"))
        ev->cat = KCAT_MEMORY;
    else if (nm.ptr && sm_str_eq(nm, "[OutOfMemory]"))
        ev->cat = KCAT_OOM;
    else
        ev->cat = (uint8_t)(flow ? KCAT_FLOW : st->cat);
    if (flow)
        ev->correlation = st->flow_id;
    ev->step = step_of(nm);
}

const char *kineto_parse_event(const char *p, const char *end, int keep_python,
                         sm_kevent *ev, int *kind)
{
    p = kineto_parse_ws(p, end);
    if (p >= end)
        return NULL;
    if (*p != '{') {
        *kind = KP_BAD;
        return kineto_parse_skip(p, end);
    }
    evstate st;
    ev_init(ev, &st);
    p = kineto_parse_ws(p + 1, end);
    if (p < end && *p == '}') {
        *kind = KP_BAD;
        return p + 1;
    }
    for (int more = 1; more;) {
        const char *k;
        size_t kl;
        char kb[32];
        int skip = 0;
        if (!(p = member_key(p, end, &k, &kl, kb, sizeof kb)) ||
            !(p = member(p, end, k, kl, ev, &st, keep_python, &skip)))
            return NULL;
        if (skip) {
            *kind = KP_SKIPPED;
            return kineto_parse_skip_rest(p, end);
        }
        if (!(p = member_next(p, end, &more)))
            return NULL;
    }
    ev_finish(ev, &st);
    *kind = st.ph_ok ? KP_EVENT : KP_BAD;
    return p;
}

const char *kineto_parse_device(const char *p, const char *end, int64_t *total_mem)
{
    *total_mem = SM_KEV_NONE;
    p = kineto_parse_ws(p, end);
    if (p >= end)
        return NULL;
    if (*p != '{')
        return kineto_parse_skip(p, end);
    p = kineto_parse_ws(p + 1, end);
    if (p < end && *p == '}')
        return p + 1;
    for (int more = 1; more;) {
        const char *k;
        size_t kl;
        char kb[32];
        if (!(p = member_key(p, end, &k, &kl, kb, sizeof kb)))
            return NULL;
        p = KEY("totalGlobalMem") ? kineto_parse_int(p, end, KR_VAL, total_mem) : kineto_parse_skip(p, end);
        if (!p || !(p = member_next(p, end, &more)))
            return NULL;
    }
    return p;
}
