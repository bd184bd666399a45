/* fnv: 64-bit FNV-1a, for identities that need no cryptography (cache file
 * names, the processed prefix of a trace file). Incremental: pass the
 * previous result as h, FNV_SEED to start. */
#ifndef SMTOP_FNV_H
#define SMTOP_FNV_H

#include <stddef.h>
#include <stdint.h>

#define FNV_SEED 0xcbf29ce484222325ULL

static inline uint64_t fnv_add(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

#endif
