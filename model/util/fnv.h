/* fnv: 64-bit FNV-1a, the one copy for identities that need no
 * cryptography (pane stamps, ETag table keys, string-pool hashes, cache
 * file names, the prefix of a trace file read so far).
 * Incremental: pass the previous result as h, FNV_SEED to start. Not for
 * the ingest hot path, which hashes 8 bytes at a time (idmap_hash). */
#ifndef SMTOP_MODEL_FNV_H
#define SMTOP_MODEL_FNV_H

#include <stddef.h>
#include <stdint.h>

#define FNV_SEED 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static inline uint64_t fnv_add(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * FNV_PRIME;
    return h;
}

/* A NUL-terminated string, without its NUL. */
static inline uint64_t fnv_add_str(uint64_t h, const char *s)
{
    while (*s)
        h = (h ^ (unsigned char)*s++) * FNV_PRIME;
    return h;
}

/* One 64-bit word as a unit (one multiply, not eight): for stamps and
 * hashes mixed further, not for on-disk identities. */
static inline uint64_t fnv_add_u64(uint64_t h, uint64_t x)
{
    return (h ^ x) * FNV_PRIME;
}

#endif
