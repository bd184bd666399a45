/* export_writer: see export_writer.h. */
#include "io/export/export_writer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Distinct phases per node before further ones share one thread: keeps
 * memory bounded when a trace has many pid names (Horovod: one per tensor). */
#define EXW_TID_MAX 1024

typedef struct exw_name {
    char *s;
    size_t len;
} exw_name;

typedef struct exw_node {
    exw_name id;
    exw_name *tids;      /* phase name of tid i+1 */
    size_t ntids;
} exw_node;

struct exw {
    FILE *f;
    exw_node *nodes;
    size_t nnodes;
    int first;
    int64_t events, counters;
    /* The digits of the last counter time: every metric of a sampling
     * tick repeats it (calloc: ts_len 0 = none yet). */
    int64_t ts_last;
    char ts_txt[24];
    size_t ts_len;
};

static int plain(sm_str s)
{
    for (size_t i = 0; i < s.len; i++) {
        unsigned char c = (unsigned char)s.ptr[i];
        if (c == '"' || c == '\\' || c < 0x20 || c == 0x7f)
            return 0;
    }
    return 1;
}

static void put_str(FILE *f, sm_str s)
{
    fputc('"', f);
    if (plain(s)) {   /* the common case: one write instead of one per byte */
        fwrite(s.ptr, 1, s.len, f);
        fputc('"', f);
        return;
    }
    for (size_t i = 0; i < s.len; i++) {
        unsigned char c = (unsigned char)s.ptr[i];
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void sep(exw *w)
{
    fputs(w->first ? "\n" : ",\n", w->f);
    w->first = 0;
}

static int name_eq(const exw_name *n, sm_str s)
{
    return n->len == s.len && (s.len == 0 || memcmp(n->s, s.ptr, s.len) == 0);
}

static int name_dup(exw_name *n, sm_str s)
{
    n->s = malloc(s.len + 1);
    if (!n->s)
        return -1;
    if (s.len)
        memcpy(n->s, s.ptr, s.len);
    n->s[s.len] = '\0';
    n->len = s.len;
    return 0;
}

static void meta(exw *w, const char *what, int64_t pid, int64_t tid, sm_str name)
{
    sep(w);
    fprintf(w->f, "{\"name\":\"%s\",\"ph\":\"M\",\"ts\":0,\"pid\":%lld,\"tid\":%lld,"
                  "\"args\":{\"name\":", what, (long long)pid, (long long)tid);
    put_str(w->f, name);
    fputs("}}", w->f);
}

/* pid of the process keyed `key` (1-based), named `name` (and labelled
 * when label.len) on first use; 0 on OOM. */
static int64_t keyed_pid(exw *w, sm_str key, sm_str name, sm_str label)
{
    for (size_t i = 0; i < w->nnodes; i++)
        if (name_eq(&w->nodes[i].id, key))
            return (int64_t)i + 1;
    exw_node *nn = realloc(w->nodes, (w->nnodes + 1) * sizeof *nn);
    if (!nn)
        return 0;
    w->nodes = nn;
    memset(&nn[w->nnodes], 0, sizeof *nn);
    if (name_dup(&nn[w->nnodes].id, key) != 0)
        return 0;
    int64_t pid = (int64_t)++w->nnodes;
    meta(w, "process_name", pid, 0, name);
    if (label.len) {
        sep(w);
        fprintf(w->f, "{\"name\":\"process_labels\",\"ph\":\"M\",\"ts\":0,\"pid\":%lld,"
                      "\"tid\":0,\"args\":{\"labels\":", (long long)pid);
        put_str(w->f, label);
        fputs("}}", w->f);
    }
    return pid;
}

/* pid of node (1-based), naming it on first use; 0 on OOM. */
static int64_t node_pid(exw *w, sm_str node)
{
    return keyed_pid(w, node, node, (sm_str){"", 0});
}

int64_t export_writer_process(exw *w, sm_str key, sm_str name, sm_str label)
{
    return keyed_pid(w, key, name, label);
}

static int64_t phase_tid(exw *w, int64_t pid, sm_str phase)
{
    exw_node *n = &w->nodes[pid - 1];
    if (phase.len == 0)
        phase = sm_str_c("(unnamed)");
    for (size_t i = 0; i < n->ntids; i++)
        if (name_eq(&n->tids[i], phase))
            return (int64_t)i + 1;
    if (n->ntids >= EXW_TID_MAX)
        return EXW_TID_MAX + 1;     /* the overflow thread, named below */
    exw_name *nt = realloc(n->tids, (n->ntids + 1) * sizeof *nt);
    if (!nt)
        return EXW_TID_MAX + 1;
    n->tids = nt;
    if (name_dup(&nt[n->ntids], phase) != 0)
        return EXW_TID_MAX + 1;
    int64_t tid = (int64_t)++n->ntids;
    meta(w, "thread_name", pid, tid, phase);
    if (n->ntids == EXW_TID_MAX)
        meta(w, "thread_name", pid, EXW_TID_MAX + 1, sm_str_c("(other phases)"));
    return tid;
}

int64_t export_writer_thread(exw *w, int64_t pid, sm_str name)
{
    return phase_tid(w, pid, name);
}

FILE *export_writer_record(exw *w)
{
    sep(w);
    w->events++;
    return w->f;
}

void export_writer_str(FILE *f, sm_str s)
{
    put_str(f, s);
}

exw *export_writer_new(FILE *out)
{
    exw *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->f = out;
    w->first = 1;
    fputs("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[", out);
    return w;
}

int export_writer_finish(exw *w)
{
    fputs("\n]}\n", w->f);
    return fflush(w->f) == 0 && !ferror(w->f) ? 0 : -1;
}

void export_writer_free(exw *w)
{
    if (!w)
        return;
    for (size_t i = 0; i < w->nnodes; i++) {
        for (size_t j = 0; j < w->nodes[i].ntids; j++)
            free(w->nodes[i].tids[j].s);
        free(w->nodes[i].tids);
        free(w->nodes[i].id.s);
    }
    free(w->nodes);
    free(w);
}

static char *put_i64(char *p, int64_t v);

#define LIT(p, s) (memcpy((p), (s), sizeof(s) - 1), (p) + sizeof(s) - 1)

/* Opens a record: the separator from the previous one, then "name" up to
 * its closing quote (the caller checked the name needs no escaping). */
static char *put_record_head(exw *w, char *p, sm_str name)
{
    p = w->first ? LIT(p, "\n{\"name\":\"") : LIT(p, ",\n{\"name\":\"");
    w->first = 0;
    memcpy(p, name.ptr, name.len);
    return p + name.len;
}

void export_writer_event(exw *w, const sm_event *e)
{
    int64_t pid = node_pid(w, e->node);
    if (!pid)
        return;
    int64_t tid = phase_tid(w, pid, e->phase);
    sm_str name = e->name.len ? e->name : e->phase;
    if (name.len <= 256 && plain(name)) {
        /* The same bytes as the general path below, assembled by hand and
         * written at once: printf's parsing was a tenth of an export. */
        char buf[512], *p = buf;
        p = put_record_head(w, p, name);
        p = LIT(p, "\",\"ph\":\"X\",\"ts\":");
        p = put_i64(p, e->start_us);
        p = LIT(p, ",\"dur\":");
        p = put_i64(p, e->dur_us);
        p = LIT(p, ",\"pid\":");
        p = put_i64(p, pid);
        p = LIT(p, ",\"tid\":");
        p = put_i64(p, tid);
        if (e->step >= 0) {
            p = LIT(p, ",\"args\":{\"step\":");
            p = put_i64(p, e->step);
            *p++ = '}';
        }
        *p++ = '}';
        fwrite(buf, 1, (size_t)(p - buf), w->f);
        w->events++;
        return;
    }
    sep(w);
    fputs("{\"name\":", w->f);
    put_str(w->f, e->name.len ? e->name : e->phase);
    fprintf(w->f, ",\"ph\":\"X\",\"ts\":%lld,\"dur\":%lld,\"pid\":%lld,\"tid\":%lld",
            (long long)e->start_us, (long long)e->dur_us, (long long)pid, (long long)tid);
    if (e->step >= 0)
        fprintf(w->f, ",\"args\":{\"step\":%lld}", (long long)e->step);
    fputc('}', w->f);
    w->events++;
}

/* Two digits per division: timestamps have 16. */
static const char digit_pairs[201] =
    "0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849"
    "5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

static char *put_u64(char *p, uint64_t v)
{
    char tmp[24], *q = tmp + sizeof tmp;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        q -= 2;
        memcpy(q, digit_pairs + 2 * r, 2);
    }
    if (v >= 10) {
        q -= 2;
        memcpy(q, digit_pairs + 2 * v, 2);
    } else {
        *--q = (char)('0' + v);
    }
    size_t n = (size_t)(tmp + sizeof tmp - q);
    memcpy(p, q, n);
    return p + n;
}

static char *put_i64(char *p, int64_t v)
{
    if (v < 0) {
        *p++ = '-';
        return put_u64(p, (uint64_t)0 - (uint64_t)v);
    }
    return put_u64(p, (uint64_t)v);
}

/* Writes v like %.10g, but values with at most 4 decimals (nearly every
 * metric) skip printf's slow float path. The shortcut is taken only when
 * the printed decimal converts back to exactly v. */
static char *put_value(char *p, double v)
{
    long long s;
    if (!(fabs(v) < 1e11) || (double)(s = llround(v * 1e4)) / 1e4 != v)
        return p + snprintf(p, 32, "%.10g", v);
    if (s < 0)
        *p++ = '-';
    uint64_t a = s < 0 ? (uint64_t)-s : (uint64_t)s;
    p = put_u64(p, a / 10000);
    unsigned frac = (unsigned)(a % 10000);
    if (frac) {
        *p++ = '.';
        for (unsigned d = 1000; frac; d /= 10) {
            *p++ = (char)('0' + frac / d);
            frac %= d;
        }
    }
    return p;
}

void export_writer_counter(exw *w, sm_str node, sm_str track, int64_t ts_us, double value)
{
    if (!isfinite(value))
        return;     /* JSON has no NaN */
    int64_t pid = node_pid(w, node);
    if (!pid)
        return;
    if (track.len > 256 || !plain(track)) {   /* rare: the escaping path */
        sep(w);
        fputs("{\"name\":", w->f);
        put_str(w->f, track);
        fprintf(w->f, ",\"ph\":\"C\",\"ts\":%lld,\"pid\":%lld,\"args\":{\"value\":%.10g}}",
                (long long)ts_us, (long long)pid, value);
        w->counters++;
        return;
    }
    /* The export's hot loop: one line assembled by hand, one fwrite. */
    char buf[448], *p = buf;
    p = put_record_head(w, p, track);
    p = LIT(p, "\",\"ph\":\"C\",\"ts\":");
    if (!w->ts_len || ts_us != w->ts_last) {
        w->ts_len = (size_t)(put_i64(w->ts_txt, ts_us) - w->ts_txt);
        w->ts_last = ts_us;
    }
    memcpy(p, w->ts_txt, w->ts_len);
    p += w->ts_len;
    p = LIT(p, ",\"pid\":");
    p = put_i64(p, pid);
    p = LIT(p, ",\"args\":{\"value\":");
    p = put_value(p, value);
    p = LIT(p, "}}");
    fwrite(buf, 1, (size_t)(p - buf), w->f);
    w->counters++;
}

int64_t export_writer_event_count(const exw *w)
{
    return w->events;
}

int64_t export_writer_counter_count(const exw *w)
{
    return w->counters;
}
