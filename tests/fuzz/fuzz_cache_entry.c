/* Fuzz target: the on-disk cache entry decoder, through the public
 * cache_get on an entry file holding the input (a cache file damaged,
 * truncated or written by someone else). The first byte picks whether the
 * input is used raw or after a genuine header for the key, up to its
 * length field (so the fuzzer reaches the length and zstd frame checks). A hit returns exactly the object's
 * length; anything else is a miss and removes the file. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/source/cache.h"

static cache *c;
static char path[4200];
static char *header;
static size_t header_len;

static char dir[] = "/tmp/smtop-fuzz-cache-XXXXXX";

/* The bytes a genuine entry for ("b", "k", "\"e\"") starts with, up to
 * its length field: magic, id length, "b\0k\0\"e\"\0" (see cache.c). */
static void learn_header(void)
{
    sm_err err = {0};
    if (cache_put(c, "b", "k", "\"e\"", "", 0, &err) != 0)
        abort();
    FILE *f = fopen(path, "rb");
    static char buf[64];
    header_len = 8 + 4 + strlen("b") + strlen("k") + strlen("\"e\"") + 3;
    if (!f || fread(buf, 1, header_len, f) != header_len)
        abort();
    fclose(f);
    header = buf;
}

static void cleanup(void)
{
    unlink(path);
    rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!c) {
        sm_err err = {0};
        if (!mkdtemp(dir) || !(c = cache_open(dir, 0, &err)))
            abort();
        cache_entry_path(c, "b", "k", path, sizeof path);
        learn_header();
        atexit(cleanup);
    }
    if (size < 1)
        return 0;
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    if (data[0] & 1)
        fwrite(header, 1, header_len, f);
    fwrite(data + 1, 1, size - 1, f);
    fclose(f);
    void *obj = NULL;
    size_t len = 99;
    int hit = cache_get(c, "b", "k", "\"e\"", &obj, &len);
    if (hit) {
        if (!obj)
            abort();
        if (len)
            ((volatile char *)obj)[len - 1];   /* the whole length is readable */
    } else if (obj || len) {
        abort();
    }
    free(obj);
    return 0;
}
