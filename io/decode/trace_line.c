#include "io/decode/trace_line.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

#include "io/decode/jscan.h"

enum { K_NAME = 1, K_PH = 2, K_PID = 4, K_TID = 8, K_TS = 16, K_DUR = 32, K_ARGS = 64 };
enum { A_STEP = 1, A_START = 2, A_NAME = 4 };

#define MAX_OTHER 8

static int to_us(int is_int, int64_t i, double d, int64_t *out)
{
    if (is_int) {
        *out = i;
        return 0;
    }
    if (!(fabs(d) < 9.2e18))
        return -1;
    *out = llround(d);
    return 0;
}

static int64_t step_of_string(sm_str s)
{
    int64_t v;
    return jscan_parse_int(s.ptr, s.len, &v) == 0 ? v : -1;
}

/* ---- fast reader ---------------------------------------------------------- */

/* Keys seen so far that the reader does not use: a repeat must go to the
 * reference, which rejects duplicate keys. */
typedef struct keyset {
    unsigned known;
    sm_str other[MAX_OTHER];
    int n;
} keyset;

static int keyset_add(keyset *ks, unsigned bit, sm_str key)
{
    if (bit) {
        if (ks->known & bit)
            return -1;
        ks->known |= bit;
        return 0;
    }
    if (ks->n == MAX_OTHER)
        return -1;
    for (int k = 0; k < ks->n; k++)
        if (ks->other[k].len == key.len && memcmp(ks->other[k].ptr, key.ptr, key.len) == 0)
            return -1;
    ks->other[ks->n++] = key;
    return 0;
}

static int skip_scalar(jscan *s)
{
    sm_str str;
    jnum n;
    int which;
    if (s->p < s->end && *s->p == '"')
        return jscan_string(s, &str);
    if (jscan_number(s, &n) == 0)
        return 0;
    return jscan_literal(s, &which);
}

static int num_us(jscan *s, int64_t *out)
{
    jnum n;
    if (jscan_number(s, &n) != 0)
        return -1;
    return to_us(n.is_int, n.i, n.d, out);
}

static int int_only(jscan *s, int64_t *out)
{
    jnum n;
    if (jscan_number(s, &n) != 0 || !n.is_int)
        return -1;
    *out = n.i;
    return 0;
}

static unsigned args_bit(sm_str k)
{
    if (k.len == 8 && memcmp(k.ptr, "step_num", 8) == 0)
        return A_STEP;
    if (k.len == 4 && memcmp(k.ptr, "name", 4) == 0)
        return A_NAME;
    if (k.len == 32 && memcmp(k.ptr, "start_time_since_epoch_in_micros", 32) == 0)
        return A_START;
    return 0;
}

static int args_value(jscan *s, unsigned bit, tl_event *ev)
{
    sm_str str;
    jnum n;
    switch (bit) {
    case A_STEP:
        if (s->p < s->end && *s->p == '"') {
            if (jscan_string(s, &str) != 0)
                return -1;
            ev->step = step_of_string(str);
            return 0;
        }
        if (jscan_number(s, &n) != 0 || !n.is_int)
            return -1;
        ev->step = n.i;
        return 0;
    case A_NAME:
        ev->has_args_name = 1;
        return jscan_string(s, &ev->args_name);
    case A_START:
        ev->has_start = 1;
        return num_us(s, &ev->start);
    default:
        return skip_scalar(s);
    }
}

/* Iterates the members of the object at s->p ('{'), calling `member` for
 * each with s at the value; the callback scans the value. */
typedef int (*member_fn)(jscan *s, sm_str key, keyset *ks, tl_event *ev);

static int scan_object(jscan *s, member_fn member, tl_event *ev)
{
    keyset ks;   /* not `= {0}`: other[] is read only below n */
    ks.known = 0;
    ks.n = 0;
    if (s->p >= s->end || *s->p++ != '{')
        return -1;
    jscan_ws(s);
    if (s->p < s->end && *s->p == '}') {
        s->p++;
        return 0;
    }
    for (;;) {
        sm_str key;
        if (jscan_string(s, &key) != 0)
            return -1;
        jscan_ws(s);
        if (s->p >= s->end || *s->p++ != ':')
            return -1;
        jscan_ws(s);
        if (member(s, key, &ks, ev) != 0)
            return -1;
        jscan_ws(s);
        if (s->p < s->end && *s->p == ',') {
            s->p++;
            jscan_ws(s);
            continue;
        }
        if (s->p < s->end && *s->p == '}') {
            s->p++;
            return 0;
        }
        return -1;
    }
}

static int args_member(jscan *s, sm_str key, keyset *ks, tl_event *ev)
{
    unsigned bit = args_bit(key);
    if (keyset_add(ks, bit, key) != 0)
        return -1;
    return args_value(s, bit, ev);
}

static unsigned top_bit(sm_str k)
{
    const char *p = k.ptr;
    switch (k.len) {
    case 2:
        return p[0] == 'p' && p[1] == 'h' ? K_PH : p[0] == 't' && p[1] == 's' ? K_TS : 0;
    case 3:
        return !memcmp(p, "pid", 3) ? K_PID : !memcmp(p, "tid", 3) ? K_TID
               : !memcmp(p, "dur", 3) ? K_DUR : 0;
    case 4:
        return !memcmp(p, "name", 4) ? K_NAME : !memcmp(p, "args", 4) ? K_ARGS : 0;
    default:
        return 0;
    }
}

static int top_member(jscan *s, sm_str key, keyset *ks, tl_event *ev)
{
    unsigned bit = top_bit(key);
    if (keyset_add(ks, bit, key) != 0)
        return -1;
    switch (bit) {
    case K_NAME: return jscan_string(s, &ev->name);
    case K_PH: return jscan_string(s, &ev->ph);
    case K_PID: return int_only(s, &ev->pid);
    case K_TID: return int_only(s, &ev->tid);
    case K_TS: ev->has_ts = 1; return num_us(s, &ev->ts);
    case K_DUR: ev->has_dur = 1; return num_us(s, &ev->dur);
    case K_ARGS: return scan_object(s, args_member, ev);
    default: return skip_scalar(s);
    }
}

static void event_init(tl_event *ev)
{
    /* Field by field: a memset of the struct is a rep stos, slow for its
     * size on every line. */
    ev->name = ev->ph = ev->args_name = (sm_str){"", 0};
    ev->pid = ev->tid = 0;
    ev->has_ts = ev->has_dur = ev->has_start = ev->has_args_name = 0;
    ev->ts = ev->dur = ev->start = 0;
    ev->step = -1;
}

int trace_line_parse_fast(const char *p, size_t len, tl_event *ev)
{
    event_init(ev);
    jscan s = {p, p + len};
    jscan_ws(&s);
    if (scan_object(&s, top_member, ev) != 0)
        return TL_FALLBACK;
    jscan_ws(&s);
    /* A missing or empty "ph" is the reference's call (corrupt). */
    if (s.p != s.end || ev->ph.len == 0)
        return TL_FALLBACK;
    return TL_OK;
}

/* ---- jansson reference ------------------------------------------------- */

static int j_num_us(json_t *v, int *has, int64_t *out)
{
    if (!v)
        return 0;
    if (!json_is_number(v))
        return -1;
    *has = 1;
    return to_us(json_is_integer(v), json_integer_value(v), json_real_value(v), out);
}

static int j_int(json_t *v, int64_t *out)
{
    if (!v)
        return 0;
    if (!json_is_integer(v))
        return -1;
    *out = json_integer_value(v);
    return 0;
}

static void j_args(json_t *args, tl_event *ev)
{
    json_t *step = json_object_get(args, "step_num");
    if (json_is_integer(step))
        ev->step = json_integer_value(step);
    else if (json_is_string(step))
        ev->step = step_of_string((sm_str){json_string_value(step), json_string_length(step)});
    json_t *name = json_object_get(args, "name");
    if (json_is_string(name)) {
        ev->has_args_name = 1;
        ev->args_name = (sm_str){json_string_value(name), json_string_length(name)};
    }
    /* A start time that is not a usable number is ignored, not fatal. */
    json_t *start = json_object_get(args, "start_time_since_epoch_in_micros");
    if (json_is_number(start) && j_num_us(start, &ev->has_start, &ev->start) != 0)
        ev->has_start = 0;
}

int trace_line_parse_jansson(const char *p, size_t len, tl_event *ev, void **rootp)
{
    event_init(ev);
    json_t *root = json_loadb(p, len, JSON_REJECT_DUPLICATES, NULL);
    *rootp = root;
    if (!json_is_object(root))
        return TL_CORRUPT;
    json_t *name = json_object_get(root, "name"), *ph = json_object_get(root, "ph");
    if (name && !json_is_null(name)) {
        if (!json_is_string(name))
            return TL_CORRUPT;
        ev->name = (sm_str){json_string_value(name), json_string_length(name)};
    }
    if (!json_is_string(ph) || json_string_length(ph) == 0)
        return TL_CORRUPT;
    ev->ph = (sm_str){json_string_value(ph), json_string_length(ph)};
    if (j_int(json_object_get(root, "pid"), &ev->pid) || j_int(json_object_get(root, "tid"), &ev->tid) ||
        j_num_us(json_object_get(root, "ts"), &ev->has_ts, &ev->ts) ||
        j_num_us(json_object_get(root, "dur"), &ev->has_dur, &ev->dur))
        return TL_CORRUPT;
    json_t *args = json_object_get(root, "args");
    if (json_is_object(args))
        j_args(args, ev);
    return TL_OK;
}

void trace_line_release(void *root)
{
    json_decref(root);
}
