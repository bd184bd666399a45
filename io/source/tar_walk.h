/* tar_walk: the members of a tar archive from its bytes in order (POSIX
 * ustar, GNU long names, pax path and size records), for output.tar.gz
 * read in place (io/source/source_tar.h): each regular file's name,
 * size, time and where its data starts in the tar stream. Member data
 * is passed over, never held; a long name or pax record is held up to
 * TAR_META_MAX bytes (past that it is passed over and the member keeps
 * its short name). Pure: bytes in, members out. */
#ifndef SMTOP_TAR_WALK_H
#define SMTOP_TAR_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "model/util/sm_err.h"

#define TAR_META_MAX 65536
#define TAR_NAME_MAX 4096

typedef struct tar_member {
    const char *name;      /* without a leading "./" or "/"; valid during the call */
    int64_t off;           /* its data's first byte in the tar stream */
    int64_t size;
    int64_t mtime_s;       /* 0 unknown */
} tar_member;

/* A regular file was found: 0 go on, nonzero stop (tar_walk_feed returns 1). */
typedef int (*tar_member_fn)(void *ud, const tar_member *m);
/* Optional: a member's data bytes as they pass (off: tar stream offset). */
typedef void (*tar_data_fn)(void *ud, int64_t off, const void *p, size_t n);

typedef struct tar_walk tar_walk;

/* NULL on OOM. data may be NULL. */
tar_walk *tar_walk_new(tar_member_fn member, tar_data_fn data, void *ud);
void tar_walk_free(tar_walk *w);

/* The next n bytes of the tar stream. 0 more wanted, 1 the archive's end
 * (two zero blocks) or the callback stopped, -1 with err (a header that
 * is not tar: bad checksum; the members before it stay found). */
int tar_walk_feed(tar_walk *w, const void *p, size_t n, sm_err *err);

/* The stream ended: 0 when the archive did (its end blocks, or at least
 * a whole last member: some writers leave the end blocks out), -1 with
 * err when it was cut inside a header or a member's data. */
int tar_walk_end(tar_walk *w, sm_err *err);

#endif
