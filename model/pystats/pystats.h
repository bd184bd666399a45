/* pystats: per-window, per-node Python function statistics (cProfile and
 * pyinstrument) and their merge, the way `pstats.Stats.add` merges them.
 *
 * A window is one profiling session smdebug wrote into one stats_dir
 * (framework/<fw>/<cprofile|pyinstrument>/<node>/<stats_dir>/). Decoders
 * (io/) build a window with pystats_win_new/pystats_win_add and hand it to
 * the store keyed by its file key; a later version of the same file
 * replaces the window. Views select windows (node, step range, time range,
 * job phase) and get a merged, sorted result they own.
 *
 * No I/O, no locking: the caller serialises access (see model.h). */
#ifndef SMTOP_PYSTATS_H
#define SMTOP_PYSTATS_H

#include <stddef.h>
#include <stdint.h>

#include "model/records.h"
#include "model/util/sm_err.h"

typedef enum pystats_profiler {
    PYPROF_CPROFILE = 0,
    PYPROF_PYINSTRUMENT = 1
} pystats_profiler;

/* smdebug's PythonProfileModeKeys; NONE for the older stats_dir naming. */
typedef enum pystats_mode {
    PYMODE_NONE = 0, PYMODE_TRAIN, PYMODE_EVAL, PYMODE_PREDICT, PYMODE_GLOBAL,
    PYMODE_PRESTEPZERO, PYMODE_POSTHOOKCLOSE
} pystats_mode;

/* smdebug's StepPhase; NONE for the older naming. */
typedef enum pystats_phase {
    PYPHASE_NONE = 0, PYPHASE_START, PYPHASE_STEPSTART,
    PYPHASE_FORWARDPASSEND, PYPHASE_STEPEND, PYPHASE_END
} pystats_phase;

/* Job phases a window belongs to (a bit mask in selections). */
enum {
    PYJOB_BEFORE_STEP0 = 1,   /* starts in prestepzero (or older naming step -1) */
    PYJOB_TRAINING = 2,       /* everything else */
    PYJOB_AFTER_CLOSE = 4     /* ends in posthookclose */
};

#define PYSTATS_NO_STEP (-1)  /* "*" in stats_dir: no step */

typedef struct pystats_window {
    char node[128];
    char framework[32];        /* "pytorch", "tensorflow" */
    pystats_profiler profiler;
    pystats_mode start_mode, end_mode;
    int64_t start_step, end_step;   /* PYSTATS_NO_STEP when none */
    pystats_phase start_phase, end_phase;
    int64_t start_us, end_us;
    int legacy;                /* 1: <start_us>_<end_us>_<pid>-<node>_<step> */
} pystats_window;

const char *pystats_mode_name(pystats_mode m);     /* "train", ..., "" for NONE */
const char *pystats_phase_name(pystats_phase p);   /* "stepstart", ..., "" for NONE */
/* Parses a mode/phase word of length len; -1 when unknown. */
int pystats_mode_parse(const char *s, size_t len, pystats_mode *out);
int pystats_phase_parse(const char *s, size_t len, pystats_phase *out);
/* The PYJOB_* bit of a window. */
unsigned pystats_window_jobphase(const pystats_window *w);

/* Numbers pstats keeps per function and per caller edge. */
typedef struct pystats_call {
    int64_t pcalls;     /* primitive (non-recursive) calls */
    int64_t ncalls;     /* total calls */
    double tottime;     /* seconds in the function itself */
    double cumtime;     /* seconds including callees */
} pystats_call;

/* A function as a decoder delivers it; strings are slices valid only for
 * the call (the store copies them). */
typedef struct pystats_caller_rec {
    sm_str file;
    int64_t line;
    sm_str name;
    pystats_call c;
} pystats_caller_rec;

typedef struct pystats_func_rec {
    sm_str file;
    int64_t line;
    sm_str name;
    pystats_call c;
    const pystats_caller_rec *callers;
    size_t ncallers;
} pystats_func_rec;

/* ---- building windows ---- */

typedef struct pystats_win pystats_win;
typedef struct pystats_store pystats_store;

/* New empty window of store s described by info (copied). Its strings are
 * interned in s, so it can only be put into s. NULL on OOM. */
pystats_win *pystats_win_new(pystats_store *s, const pystats_window *info);
void pystats_win_free(pystats_win *w);
/* Adds one function. A function added twice (pyinstrument frames, or a
 * duplicate key in a crafted file) is summed when windows are merged,
 * exactly like the same function in two windows (pstats.add). -1 on OOM
 * with the window unchanged. */
int pystats_win_add(pystats_win *w, const pystats_func_rec *f);
/* Marks the session as failed (pyinstrument `{"root_frame": null}`). */
void pystats_win_set_failed(pystats_win *w);

pystats_store *pystats_store_new(void);   /* NULL on OOM */
void pystats_store_free(pystats_store *s);
/* Stores w under key (the file's key), replacing an earlier version. Takes
 * ownership of w on success; on failure (-1, OOM) w stays the caller's. */
int pystats_store_put(pystats_store *s, const char *key, pystats_win *w);

/* Takes one record of a decoder's window (records.h, sm_pywindow: BEGIN,
 * its FUNCs, then END or FAILED store it under its key, replacing an
 * earlier version; ABORT drops it). 0, or -1 on OOM: the window being
 * built is then dropped whole and the store is as before it. A rec_sink's
 * pywindow callback (ud: the store). */
int pystats_store_take(void *s, const sm_pywindow *w);

size_t pystats_store_window_count(const pystats_store *s);
/* i-th window in (start_us, node, key) order; failed/nfuncs may be NULL. */
const pystats_window *pystats_store_window_at(const pystats_store *s, size_t i,
                                              int *failed, size_t *nfuncs);
/* Bumped on every put. */
uint64_t pystats_store_generation(const pystats_store *s);

/* ---- selecting, merging, sorting ---- */

/* Steps and mode select windows as smdebug's fetch_profile_stats_by_step
 * does (with its default phases, stepstart..stepend): a window of `mode`
 * (start and end mode both) whose steps lie within [step_lo, step_hi]. A
 * window missing one end's step uses the other's; one with no step at all
 * is selected only by an open range. Older-layout windows carry no mode
 * and match any. */
typedef struct pystats_select {
    pystats_profiler profiler;
    const char *node;          /* NULL or "" = all nodes */
    int64_t step_lo, step_hi;  /* window's steps within [lo, hi]; INT64_MIN/MAX = any */
    pystats_mode mode;         /* PYMODE_NONE = any mode */
    int64_t t_lo_us, t_hi_us;  /* window intersects [lo, hi); 0 = unbounded */
    unsigned jobphases;        /* PYJOB_* mask; 0 = all */
} pystats_select;

/* Everything of one profiler. */
void pystats_select_all(pystats_select *sel, pystats_profiler p);
int pystats_window_selected(const pystats_window *w, const pystats_select *sel);

typedef enum pystats_sort {
    PYSORT_TOTTIME = 0, PYSORT_CUMTIME, PYSORT_NCALLS, PYSORT_PCALLS,
    PYSORT_TPERCALL,    /* tottime / ncalls, as pstats' first percall column */
    PYSORT_CPERCALL,    /* cumtime / pcalls, as pstats' second percall column */
    PYSORT_COUNT
} pystats_sort;

const char *pystats_sort_name(pystats_sort k);   /* "tottime", ... */
/* Accepts the names above and pstats' aliases ("time", "cumulative",
 * "calls"). -1 when unknown. */
int pystats_sort_parse(const char *s, pystats_sort *out);

typedef struct pystats_func {
    const char *file;   /* NUL-terminated copy; may hold any bytes from data */
    int64_t line;
    const char *name;
    pystats_call c;
} pystats_func;

/* A caller (or callee) edge: the peer function and the numbers the callee
 * recorded for calls from that caller. */
typedef struct pystats_edge {
    pystats_func peer;  /* peer.c is the edge's numbers */
    long peer_index;    /* index of the peer in the result's sorted order, -1 if absent */
} pystats_edge;

typedef struct pystats_result pystats_result;

/* Merges every selected window in store order (pstats.add semantics: sum
 * calls and times per (file, line, name), merge callers; counts saturate
 * at INT64_MAX where Python's integers would grow). Sorted by tottime. The result owns its arrays and stays valid when windows are
 * added or replaced; its strings are the store's (never removed), so it
 * must be freed before the store. NULL with err on OOM. */
pystats_result *pystats_store_query(const pystats_store *s, const pystats_select *sel,
                                    sm_err *err);
void pystats_result_free(pystats_result *r);

/* Sorts by key, descending. Ties are broken by file, then line, then name,
 * ascending (byte order) — the order pstats.sort_stats(key, "filename",
 * "line", "name") gives — so output is deterministic. */
void pystats_result_sort(pystats_result *r, pystats_sort key);
size_t pystats_result_count(const pystats_result *r);
const pystats_func *pystats_result_at(const pystats_result *r, size_t i);
/* Sort value of an entry for key (per-call values are 0 when the divisor is 0). */
double pystats_func_sort_value(const pystats_func *f, pystats_sort key);

/* Totals like pstats: total calls, primitive calls, total tottime. */
pystats_call pystats_result_total(const pystats_result *r);
/* Windows merged (copies), and how many of them were failed sessions. */
size_t pystats_result_window_count(const pystats_result *r);
const pystats_window *pystats_result_window_at(const pystats_result *r, size_t i,
                                               int *failed);
size_t pystats_result_failed_count(const pystats_result *r);

/* Callers of the i-th function (as pstats print_callers) and its callees
 * (as print_callees), ordered by the edge's cumtime descending. *out points
 * into r. Returns the count. */
size_t pystats_result_callers(const pystats_result *r, size_t i, const pystats_edge **out);
size_t pystats_result_callees(const pystats_result *r, size_t i, const pystats_edge **out);

/* "file:line(name)" as pstats' func_std_string (built-ins `~:0` show as
 * their name, `<x>` as `{x}`). Returns the full length like snprintf. */
int pystats_func_format(const pystats_func *f, char *out, size_t cap);

#endif
