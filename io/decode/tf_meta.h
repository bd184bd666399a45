/* tf_meta: where a TensorFlow detailed-profiling trace sits — on which node
 * and from which epoch µs its session-relative `ts` count.
 *
 * smdebug records each profiling session in the *step* directory, beside
 * (not inside) TensorBoard's plugins/ tree:
 *
 *   framework/tensorflow/detailed_profiling/<hour>/<step>/
 *       <writer id>_<start_us>_<end_us>.metadata            (an empty file)
 *       plugins/profile/<date>/<host>.trace.json.gz
 *
 * The writer id is `<rank or pid>-<host>` as in trace file names, so the
 * node comes from it (keyname_node_from_part); the trace's own <host> is
 * the machine's host name ("ip-10-0-209-63.ec2.internal"), which names no
 * node. A book collects the .metadata keys a listing shows; tf_meta_place
 * then places a trace from its step directory's record. This is the one
 * placement the scanner (report, dashboard) and export share. */
#ifndef SMTOP_TF_META_H
#define SMTOP_TF_META_H

#include <stddef.h>
#include <stdint.h>

#include "model/util/sm_err.h"

typedef struct tf_meta_name {
    char writer[128];      /* "151-algo-1" */
    char node[128];        /* "algo-1" */
    int64_t start_us, end_us;
} tf_meta_name;

/* Parses a metadata file's base name "<writer>_<start_us>_<end_us>.metadata"
 * (the writer may hold '_'; times as name_us.h). 0, or -1 (out untouched)
 * when it has another shape or the writer is empty, too long or not
 * printable ASCII. */
int tf_meta_parse_name(const char *name, size_t len, tf_meta_name *out);

/* Length of the step directory prefix of a key under detailed_profiling/
 * ("…/detailed_profiling/<hour>/<step>/", slash included), 0 when the key
 * has no such prefix. */
size_t tf_meta_step_dir_len(const char *key);

typedef struct tf_meta_book tf_meta_book;

tf_meta_book *tf_meta_book_new(void);        /* NULL on OOM */
void tf_meta_book_free(tf_meta_book *b);

/* Records key if it is a metadata file directly in a step directory.
 * 1 when newly recorded, 0 when not a metadata key or already known, -1
 * on OOM (b unchanged). */
int tf_meta_book_note(tf_meta_book *b, const char *key);

typedef struct tf_place {
    char node[128];        /* node id for the events */
    char writer[128];      /* writer id from the record */
    int64_t base_us;       /* session start: events sit at base_us + ts */
} tf_place;

/* Places the trace at trace_key from its step directory's record: the one
 * record there whose writer's host is the trace's host, else the only
 * record, else the one whose session [start, end] (± 2 s) holds the time
 * of the trace's <date> folder (UTC). 0 with *out, or -1 with err
 * (SM_ERR_NOTFOUND: no record in the step directory; SM_ERR_FORMAT: several
 * and none chosen, or not a detailed-profiling key); the message says what
 * is missing, in words a user can check against the bucket. */
int tf_meta_place(const tf_meta_book *b, const char *trace_key, tf_place *out, sm_err *err);

#endif
