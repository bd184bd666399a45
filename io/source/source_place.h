/* source_place: one place of a training job's data (model/jobs/jobplace.h:
 * a TensorBoard or checkpoint sync) as a source, listed once a refresh.
 *
 * The first listing after source_pass_end (or the first of all) walks the
 * place's own prefix once (ListObjectsV2, page by page, at most
 * PLACE_KEYS_MAX keys: past that the listing stops and says so), and
 * every listing until the next source_pass_end is answered from it: the
 * scanner's range listings of a pass, the root probe and the job list's
 * probe cost one walk of the prefix together, never a walk above it.
 *
 * The TensorBoard sync is <path>/<job>/tensorboard-output/; while that
 * holds nothing, <path> itself is listed too (one page, 1000 keys at
 * most, other jobs' OTHER/tensorboard-output/ left out): the first of the two
 * found to hold a key is the place from then on, and its keys are
 * relative to it. Reads go to the inner source with the prefix put back. */
#ifndef SMTOP_SOURCE_PLACE_H
#define SMTOP_SOURCE_PLACE_H

#include "io/source/source_open.h"
#include "model/jobs/jobplace.h"

#define PLACE_KEYS_MAX 10000
#define PLACE_ALT_KEYS_MAX 1000

/* Opens pl (a folder: its url, and alt for the TensorBoard fallback).
 * No request is made yet. NULL with err (a bad URL, no credentials). */
source *source_place_open(const jobplace *pl, const source_opts *o, sm_err *err);

/* Wraps inner (taken, also on failure) rooted at the place: sub is the
 * place's prefix inside it ("" for inner's root), alt_ok 1 when inner's
 * root itself is the fallback (TensorBoard). For tests and for
 * source_place_open. NULL on OOM. */
source *source_place_wrap(source *inner, const char *sub, int alt_ok, const char *desc);

typedef struct place_state {
    int listed;        /* walks of the prefix made so far */
    size_t keys;       /* keys the last walk kept */
    int cut;           /* the last walk stopped at its bound */
    int on_alt;        /* the TensorBoard fallback (the path itself) holds the data */
} place_state;

/* The counters above; -1 when s is not a place. Not thread-safe against
 * a listing in flight: read it between passes. */
int source_place_state(const source *s, place_state *out);

/* The URL the place reads now (the fallback's once it holds the data),
 * or NULL when s is not a place. */
const char *source_place_url(const source *s);

#endif
