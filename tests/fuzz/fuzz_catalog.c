/* Fuzz target: the scanner's catalog (a hand-written string hash map)
 * against a plain list. The input is operations: a byte (add, get,
 * reset, iterate, remove), a length byte and that many key bytes (NUL-free). The
 * catalog must find exactly what was added, never an entry twice, count
 * them right, and iterate over each once; reset keeps the key; a removed
 * key is gone and every other one is still found where it was. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/scan/catalog.h"

#define MAX_KEYS 512

typedef struct ref {
    char *keys[MAX_KEYS];
    cat_entry *at[MAX_KEYS];
    size_t n;
} ref;

static long ref_find(const ref *r, const char *key)
{
    for (size_t i = 0; i < r->n; i++)
        if (!strcmp(r->keys[i], key))
            return (long)i;
    return -1;
}

static void check_iteration(catalog *c, const ref *r)
{
    size_t it = 0, seen = 0;
    cat_entry *e;
    while ((e = catalog_next(c, &it))) {
        long i = ref_find(r, e->key);
        if (i < 0 || r->at[i] != e)
            abort();
        seen++;
    }
    if (seen != r->n || catalog_count(c) != r->n)
        abort();
}

static void apply(catalog *c, ref *r, unsigned op, const char *key)
{
    long i = ref_find(r, key);
    cat_entry *e = catalog_get(c, key);
    if ((i < 0) != (e == NULL) || (e && r->at[i] != e))
        abort();
    if (op == 0 && !e && r->n < MAX_KEYS) {
        if (!(e = catalog_add(c, key)))
            abort();
        r->keys[r->n] = strdup(key);
        r->at[r->n++] = e;
    } else if (op == 1 && e) {
        e->consumed = 42;
        catalog_entry_reset(e);
        if (e->consumed != 0 || strcmp(e->key, key) != 0)
            abort();
    } else if (op == 2) {
        check_iteration(c, r);
    } else if (op == 4 && e) {
        catalog_remove(c, e);
        free(r->keys[i]);
        r->keys[i] = r->keys[--r->n];
        r->at[i] = r->at[r->n];
        for (size_t j = 0; j < r->n; j++)
            if (catalog_get(c, r->keys[j]) != r->at[j])
                abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    catalog *c = catalog_new();
    ref *r = calloc(1, sizeof *r);
    char key[256];
    for (size_t at = 0; at + 2 <= size;) {
        unsigned op = data[at] % 5;
        size_t n = data[at + 1];
        at += 2;
        if (n > size - at)
            n = size - at;
        size_t k = 0;
        for (size_t j = 0; j < n; j++)
            if (data[at + j])
                key[k++] = (char)data[at + j];
        key[k] = '\0';
        at += n;
        apply(c, r, op == 3 ? 0 : op, key);
    }
    check_iteration(c, r);
    catalog_free(c);
    for (size_t i = 0; i < r->n; i++)
        free(r->keys[i]);
    free(r);
    return 0;
}
