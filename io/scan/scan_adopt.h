/* scan_adopt: matches a closed trace file with the open `.tmp` file it was
 * renamed from, so events already read from the .tmp are not ingested a
 * second time. The writer keeps `framework/<node>_<kind>.json.tmp` open and
 * renames it to `pevents/<hour>/<end_us>_<node>_<kind>.json` on rotation:
 * the same lines, the last one closed ("{...},\n" becomes "{...}\n]\n"),
 * under a new name. The canonical hash of the lines the .tmp had decoded
 * (prefix_hash) identifies it: the closed file's first lines hash the
 * same. Heads alone repeat (every file a process writes starts with the
 * same metadata), so they only narrow the search. Internal to the scanner;
 * no I/O. */
#ifndef SMTOP_SCAN_ADOPT_H
#define SMTOP_SCAN_ADOPT_H

#include <stddef.h>

#include "io/scan/catalog.h"

#define ADOPT_MAX 64

typedef struct adopt_item {
    cat_entry *live;          /* the catalog's .tmp entry, or NULL once stashed */
    prefix_hash done;         /* stashed copy of the .tmp's lines when live is NULL */
    trace_dec *dec;           /* stashed decoder (owned) when live is NULL */
    int64_t high_water_us;    /* stashed newest event end */
    char node[128];
    trace_kind tkind;
} adopt_item;

typedef struct adopt_list {
    adopt_item items[ADOPT_MAX];
    size_t n;
} adopt_list;

/* Remembers a live .tmp entry (idempotent). */
void scan_adopt_track(adopt_list *l, cat_entry *tmp);
/* The .tmp at tmp's key is being replaced by a new file: detach its state
 * into the list (its reader's trace decoder moves here, its lines' hash
 * is copied) before the entry is reset. */
void scan_adopt_stash(adopt_list *l, cat_entry *tmp);
/* For a closed trace file read from byte 0, with its reader begun
 * (scan_ingest_reader): when `data` starts with the lines of a known .tmp
 * of the same node and kind, moves that .tmp's trace decoder into fin's
 * reader and returns how many bytes of data hold lines already decoded;
 * else 0. */
size_t scan_adopt_take(adopt_list *l, cat_entry *fin, const char *data, size_t len);
void scan_adopt_free(adopt_list *l);

#endif
