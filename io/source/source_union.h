/* source_union: the places of one training job's data (model/jobs/jobplace.h)
 * mounted as one job folder — profiler-output/, tensorboard-output/,
 * checkpoints/, output/ — so that the scanner, the export and the job
 * list's probe read a job whose data lies in several buckets exactly as
 * they read a local JOB/ folder with that layout: one source, one
 * scanner, one model, one clock.
 *
 * A listing goes to each mount it overlaps, in key order, its keys with
 * the mount's folder in front. A mount that cannot be read (denied, no
 * such bucket, another region: what the S3 answer says) is named as a
 * folder that could not be listed (source_entry.error), with the place,
 * its URL and what it needs, and the others are read; a failure that may
 * pass (the network) fails the listing, as one source's would, so the
 * next pass retries. Reads go to the mount a key lies in. */
#ifndef SMTOP_SOURCE_UNION_H
#define SMTOP_SOURCE_UNION_H

#include <stddef.h>
#include <stdint.h>

#include "io/source/source.h"

/* An empty union for the job `name`. Its description (source_describe)
 * names the places that held something at the last pass's end, or
 * could not be read — every place before the first pass, the job's name
 * and its places when none held anything — in the order places are
 * read: "s3://b/p/JOB/profiler-output · traces: s3://b/tb/JOB/
 * tensorboard-output/ (TensorBoard sync)". NULL on OOM. */
source *source_union_new(const char *name);

/* Mounts src (taken, also on failure) at `at` ("tensorboard-output/": a
 * folder name ending in '/', none inside another), for the place of kind
 * (jobplace.h) at url. 0, or -1 on OOM. Before the first listing only. */
int source_union_mount(source *u, const char *at, source *src, int kind, const char *url);

/* Mounts a place that could not be opened (a malformed URL, no
 * credentials for it): every listing names it with why. 0, or -1 on OOM. */
int source_union_mount_failed(source *u, const char *at, int kind, const char *url,
                              const char *why);

/* What a mount's listings found, for the header and the report. */
typedef struct union_place {
    int kind;                 /* enum jobplace_kind */
    char at[32];              /* its folder in the union */
    char url[1100];           /* where it reads (a TensorBoard fallback's once found) */
    int listed;               /* listings that answered */
    int64_t keys;             /* keys its last listing gave */
    char error[1500];         /* why its last listing failed; "" none */
} union_place;

/* Copies up to cap mounts' states into out, in mount order; returns how
 * many mounts there are. Thread-safe. 0 when s is not a union. */
size_t source_union_places(source *s, union_place *out, size_t cap);

/* What p's last listing found (enum jobplace_status): the one reading
 * of a place's state behind report's and the job list's trace_sources[]. */
int source_union_place_status(const union_place *p);

/* 1 when s is a union. */
int source_union_is(const source *s);

#endif
