/* export_internal: state shared by export_perfetto.c (file walk) and
 * export_steps.c (--steps window, TF trace time bases). Internal to io/. */
#ifndef SMTOP_EXPORT_INTERNAL_H
#define SMTOP_EXPORT_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "io/export/export_perfetto.h"
#include "io/export/export_writer.h"
#include "io/decode/keyname.h"
#include "io/decode/sys_decode.h"
#include "io/decode/tf_meta.h"
#include "io/scan/scanner.h"

typedef struct xfile {
    char *key;
    key_kind kind;
    trace_kind tkind;
    int64_t t;
    int64_t size;         /* bytes at the listing: a large file is streamed */
    char node[128];
    char process[128];    /* traces: the writer id */
} xfile;

/* A TF trace without a .metadata record, waiting for its step's start. */
typedef struct xtf {
    char node[128];      /* the trace's host name */
    char dir[512];       /* key up to the last '/' */
    int64_t step;
    int64_t base_us;     /* the step's start; NO_BASE */
    int from_train;
} xtf;

/* A node's first trace writer, and whether another one writes for it:
 * then its threads are named "<writer> <phase>", so ranks do not share a
 * lane (known from the listing, before any event is written). */
typedef struct xmw {
    char node[128];
    char first[128];
    int multi;
} xmw;

/* Steps A..B of one node: [train|any][start, end). Nodes drift apart by
 * several steps, so one job-wide window would admit other steps. */
typedef struct xwin {
    char node[128];
    int64_t w[2][2];
} xwin;

/* A PyTorch profiler trace to export (export_kineto.c). */
typedef struct xkin {
    char *key;
    source *src;          /* the job's, or --traces' */
    key_info ki;          /* by its key relative to the root or the job */
} xkin;

typedef struct xjob {
    source *src;
    const char *root;
    size_t rootlen;
    FILE *out;
    const export_opts *o;
    export_stats *st;
    int64_t since, until;
    xfile *files;
    size_t n, cap;
    int oom;
    exw *w;
    sysdec_scratch scratch;
    struct predec *pre;               /* lines of the file at hand decoded
                                         ahead by the fetch thread, or NULL */
    struct trace_carry *carry;        /* B/E pairs across a writer's files,
                                         one per walk */
    int prepass;                      /* --steps scan: events not written */
    struct xwin *wins;                /* --steps: each node's own window */
    size_t nwins;
    xmw *mw;
    size_t nmw, capmw;
    const xmw *mw_last;               /* the last node looked up */
    xtf *tf;
    size_t ntf;
    tf_meta_book *tfb;                /* smdebug's TF session records */
    xkin *kin;                        /* PyTorch profiler traces */
    size_t nkin, capkin;
} xjob;

/* Whether an event/sample of node at [start, start+dur] is exported: it
 * overlaps the --since/--until window (model.h's model_config) and, with
 * --steps, its node's step window. */
int export_perfetto_in_window(const xjob *x, sm_str node, int64_t start, int64_t dur);

/* export_read.c: a file's bytes into events. */
#define EXPORT_READ_CHUNK SCAN_READ_CHUNK   /* larger files are read in pieces */
/* Feeds every line (or element) of a whole file to its decoder. */
void export_read_lines(xjob *x, const xfile *f, const char *data, size_t len);
/* Exports f from reads of EXPORT_READ_CHUNK bytes. 0, or -1 only when the
 * source could not attempt a read (err set). */
int export_read_stream(xjob *x, const xfile *f, sm_err *err);

/* --steps: records a Step event's extent during the prepass. */
void export_steps_note(xjob *x, const sm_event *e);
/* Runs the prepass through walk() and keeps each node's window. -1 with err
 * (SM_ERR_USAGE) when no step of A..B exists. */
int export_steps_resolve(xjob *x, int (*walk)(xjob *, int (*)(const xfile *), sm_err *),
                         int (*want)(const xfile *), sm_err *err);

/* TF traces: listing-time bookkeeping, step anchors, decoding. */
int export_steps_tf_note_metadata(xjob *x, const char *rel);   /* 0, or -1 on OOM */
int export_steps_tf_need(xjob *x, const xfile *f);
void export_steps_tf_note_step(xjob *x, const sm_event *e);
void export_steps_tf_process(xjob *x, const xfile *f, const char *data, size_t len);
void export_steps_tf_free(xjob *x);

/* PyTorch profiler traces: noted while listing (rel: the key relative to
 * the root, or to the job outside it), listed beyond the root, exported
 * after everything else. note/list: 0, or -1 (OOM; list: err). */
int export_kineto_note(xjob *x, const char *key, const char *rel);
int export_kineto_list(xjob *x, sm_err *err);
/* -1 with err only when the source could not attempt a read. */
int export_kineto_run(xjob *x, sm_err *err);
void export_kineto_free(xjob *x);

#endif
