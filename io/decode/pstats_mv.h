/* pstats_mv: the marshal value tree shared by io/decode/pstats_marshal.c (reader)
 * and io/decode/pstats_read.c (pstats interpretation, repr). Private to those. */
#ifndef SMTOP_PSTATS_MV_H
#define SMTOP_PSTATS_MV_H

#include <stddef.h>
#include <stdint.h>

#include "model/util/sm_err.h"

typedef struct mv {
    uint8_t type;       /* 'N' 'T' 'F' 'i' (any integer) 'g' 's' (any string) '(' '{' */
    uint8_t busy;       /* container still being read: refs to it are refused */
    uint32_t n;         /* tuple items / dict pairs */
    size_t off;         /* byte offset of the type code, for messages */
    union {
        int64_t i;
        double d;
        struct { const char *p; size_t len; } s;
        struct mv **items;  /* tuple: n items; dict: key, value, key, value ... */
    } u;
} mv;

struct arena_blk;

typedef struct mv_reader {
    const uint8_t *p;
    size_t len, pos;
    struct arena_blk *arena;
    struct mv **refs;
    size_t nrefs, caprefs;
    struct mv **scratch;  /* dict pairs being collected */
    size_t nscratch, capscratch;
    sm_err *err;
} mv_reader;

/* Reads one value of data[0..len) into a tree owned by rd (free with
 * pstats_mv_reader_free even on failure). -1 with err on bad data or OOM. */
int pstats_mv_parse(mv_reader *rd, const void *data, size_t len, sm_err *err, mv **out);
int pstats_mv_read(mv_reader *rd, int depth, mv **out);
void pstats_mv_reader_free(mv_reader *rd);

#endif
