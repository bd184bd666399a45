/* records: the typed records decoders hand to the model.
 *
 * Strings are slices (pointer + length, not NUL-terminated) into the
 * decoder's buffer and are valid only for the duration of the call that
 * receives the record: the model copies (interns) what it keeps. Times are
 * integer microseconds since the epoch everywhere in smtop, so no precision
 * is lost on 16-digit timestamps and arithmetic stays exact. */
#ifndef SMTOP_RECORDS_H
#define SMTOP_RECORDS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct sm_str {
    const char *ptr;
    size_t len;
} sm_str;

static inline sm_str sm_str_c(const char *s)
{
    sm_str r = {s, s ? strlen(s) : 0};
    return r;
}

static inline int sm_str_eq(sm_str a, const char *b)
{
    size_t n = strlen(b);
    return a.len == n && (n == 0 || memcmp(a.ptr, b, n) == 0);
}

/* a[0..n) == b[0..n) for the short identifiers of the ingest path (ids,
 * types, names): word loads instead of a libc call or a byte loop, and
 * never a read outside either range. */
static inline int sm_bytes_eq(const char *a, const char *b, size_t n)
{
    uint64_t x, y;
    uint32_t u, v;
    if (n >= 8) {
        for (size_t i = 0; i + 8 <= n; i += 8) {
            memcpy(&x, a + i, 8);
            memcpy(&y, b + i, 8);
            if (x != y)
                return 0;
        }
        memcpy(&x, a + n - 8, 8);   /* the tail, overlapping */
        memcpy(&y, b + n - 8, 8);
        return x == y;
    }
    if (n >= 4) {
        memcpy(&u, a, 4);
        memcpy(&v, b, 4);
        if (u != v)
            return 0;
        memcpy(&u, a + n - 4, 4);
        memcpy(&v, b + n - 4, 4);
        return u == v;
    }
    /* n <= 3: bytes 0, n/2 and n-1 cover them all */
    return n == 0 || (a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1]);
}

static inline int sm_str_same(sm_str a, sm_str b)
{
    return a.len == b.len && sm_bytes_eq(a.ptr, b.ptr, a.len);
}

/* One line of system/incremental/ JSON files. */
typedef struct sm_sample {
    sm_str type;      /* "cpu", "gpu", "memory", "i/o", "network", or any other */
    sm_str dimension; /* "CPUUtilization", "GPUUtilization", "Algorithm", ... */
    sm_str name;      /* "cpu5", "gpu0", "MemoryUsedPercent"; len 0 when absent */
    sm_str node;      /* "algo-1" */
    double value;
    int64_t ts_us;    /* Timestamp, epoch microseconds (rounded) */
    /* Keys this decoder does not know, carried as raw JSON members
     * (`"k":v,"k2":v2`), len 0 when none. */
    sm_str extra;
} sm_sample;

/* One framework trace event, already placed on the epoch clock. B/E pairs
 * are matched by the decoder and arrive here as one complete event. */
typedef struct sm_event {
    sm_str node;      /* node id derived from the file name ("algo-1", "b88ab1bb8259") */
    sm_str phase;     /* process_name of the event's pid ("Step:ModeKeys.TRAIN",
                         "Forward", "DataIterator", ...); len 0 when unnamed */
    sm_str name;      /* event name; may be empty (horovod `E` events) */
    int64_t start_us; /* epoch µs */
    int64_t dur_us;   /* >= 0 */
    int64_t step;     /* args.step_num as integer, -1 when absent */
    int64_t pid, tid;
    sm_str process;   /* the writer id, the file name's node part ("1-algo-1",
                         "905-b88ab1bb8259"); len 0 when unknown */
} sm_event;

#endif
