/* catalog: the scanner's memory of every file it has seen — how many bytes
 * were consumed, the held-back partial line, per-file decoder state and
 * counters. A key → entry hash map (open addressing, hand-written because
 * no small well-kept C library offers a growable string map and glibc's
 * hsearch cannot grow or delete). Internal to io/scanner*. */
#ifndef SMTOP_CATALOG_H
#define SMTOP_CATALOG_H

#include <stddef.h>
#include <stdint.h>

#include "io/decode/decoder_lines.h"
#include "io/decode/keyname.h"

/* keyname_parse's answer for a key, as an entry keeps it: the node and
 * process names point into the catalog's table of names (one copy per
 * writer, not two 128-byte arrays per file: a day of 16 nodes is 46k
 * files). "" when none. */
typedef struct cat_key {
    key_kind kind;
    trace_kind tkind;
    int64_t time_us;
    const char *node, *process;
} cat_key;

/* One per file, ~180 bytes and its key (a day of 16 nodes lists 46k
 * files before reading them: the narrow fields and the key kept in the
 * entry's own block, not a strdup, are what that costs, issue 15). */
typedef struct cat_entry {
    cat_key ki;
    int64_t size;          /* size at the last listing */
    char *etag;            /* NULL when none (catalog_etag); in the entry's
                              block after the key, or a copy of its own */
    int64_t consumed;      /* bytes fetched so far = offset of next read */
    int64_t asked_at;      /* consumed when its last read was asked: a
                              read that moved it may be followed by more
                              in the same pass (scanner_opts.read_chunk) */
    lines_rd *rd;          /* line kinds: the reader between reads (its
                              held line, trace decoder, the .tmp's lines
                              hashed: decoder_lines.h), freed once a
                              closed file is read (scan_ingest) */
    int64_t high_water_us; /* newest record time ingested from this file */
    int64_t skip_until_us; /* after a replacement: records at or before this
                              were already ingested from the old version */
    int64_t whole_size;    /* whole-file kinds: size last handed over, -1 never */
    void *stream;          /* streamed kinds: the reader of a read in
                              progress (scan_stream), dropped by the
                              scanner before the entry can be freed */
    uint64_t listed;       /* number of the last pass that listed it */
    uint64_t id;           /* unique for the catalog's life (addresses of
                              removed entries are reused) */
    uint32_t unread_at;    /* position + 1 in the scanner's unread list, 0
                              when the file is read (scan_unread.h) */
    uint32_t work_at;      /* its index in the scanner's work list while
                              a fetch round runs */
    int failed;            /* the last read failed */
    char key[];            /* the object's key (then the first ETag) */
} cat_entry;

typedef struct catalog catalog;

catalog *catalog_new(void);          /* NULL on OOM */
void catalog_free(catalog *c);       /* frees every entry */
cat_entry *catalog_get(catalog *c, const char *key);
/* Inserts a fresh entry for key (must not exist). NULL on OOM. */
cat_entry *catalog_add(catalog *c, const char *key);
/* The same with its ETag (NULL or "": none), kept in the entry's block
 * after the key rather than in an allocation of its own. */
cat_entry *catalog_add_with_etag(catalog *c, const char *key, const char *etag);
/* Removes e (an entry of c) and frees it. Entries other than e stay
 * where they are in memory; an iteration in progress must not go on. */
void catalog_remove(catalog *c, cat_entry *e);
size_t catalog_count(const catalog *c);
/* The bytes the catalog holds itself: its table, entries, keys, ETags,
 * readers (held lines) and names (not the trace decoders, which
 * trace_decode owns; nor malloc's own overhead). */
size_t catalog_bytes(const catalog *c);
/* Frees every entry keep(e, ud) says no to; the kept ones stay where
 * they are in memory, in a table sized to them. 0, or -1 on OOM (nothing
 * freed). */
int catalog_retain(catalog *c, int (*keep)(const cat_entry *e, void *ud), void *ud);
/* Iteration: start with *iter = 0; returns NULL after the last entry. */
cat_entry *catalog_next(catalog *c, size_t *iter);

/* Sets e->ki from ki, its names interned in c. 0, or -1 on OOM (e
 * unchanged). */
int catalog_set_info(catalog *c, cat_entry *e, const key_info *ki);
/* e->ki as a key_info (names copied). */
void catalog_entry_info(const cat_entry *e, key_info *out);
/* The entry's ETag, "" when none. */
static inline const char *catalog_etag(const cat_entry *e)
{
    return e->etag ? e->etag : "";
}
/* Sets the entry's ETag (NULL or "": none). 0, or -1 on OOM (e unchanged). */
int catalog_set_etag(cat_entry *e, const char *etag);

/* Drops the entry's reader (held line, trace decoder, prefix) and
 * rewinds it to byte 0, keeping the key, counters and high-water mark. */
void catalog_entry_reset(cat_entry *e);

#endif
