/* Standalone driver for the fuzz targets, so every decoder's fuzz target
 * also runs in the ordinary (and the sanitizer) ctest run without libFuzzer:
 * it replays each file of the corpus directory given as argv[1], then a
 * deterministic set of mutations of each (truncation at every offset up to
 * 4 KiB, byte flips, inserted quotes/brackets), so a regression in bounds
 * handling shows up under ASan without a fuzzing campaign. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void run_copy(const uint8_t *data, size_t size)
{
    /* A fresh heap copy of exactly `size` bytes: ASan sees any overread. */
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf)
        return;
    if (size)
        memcpy(buf, data, size);
    LLVMFuzzerTestOneInput(buf, size);
    free(buf);
}

static void mutate_all(const uint8_t *data, size_t size, uint64_t *seed)
{
    static const uint8_t specials[] = {'"', '\\', '{', '}', '[', ']', ',',
                                       ':', '\n', 0, 0x80, 0xff, '-', 'e'};
    size_t cut_max = size < 4096 ? size : 4096;
    for (size_t cut = 0; cut <= cut_max; cut++)
        run_copy(data, cut);
    uint8_t *m = malloc(size + 1);
    if (!m)
        return;
    for (int round = 0; round < 2000 && size; round++) {
        memcpy(m, data, size);
        int edits = 1 + (int)(rng_next(seed) % 4);
        for (int e = 0; e < edits; e++) {
            size_t at = rng_next(seed) % size;
            if (rng_next(seed) & 1)
                m[at] = specials[rng_next(seed) % sizeof specials];
            else
                m[at] ^= (uint8_t)(1u << (rng_next(seed) % 8));
        }
        run_copy(m, size);
    }
    free(m);
}

static int replay_file(const char *path, uint64_t *seed)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    uint8_t *data = NULL;
    size_t size = 0, cap = 0;
    for (;;) {
        if (size == cap) {
            cap = cap ? cap * 2 : 65536;
            uint8_t *n = realloc(data, cap);
            if (!n) {
                free(data);
                fclose(f);
                return -1;
            }
            data = n;
        }
        size_t got = fread(data + size, 1, cap - size, f);
        if (!got)
            break;
        size += got;
    }
    fclose(f);
    run_copy(data, size);
    mutate_all(data, size, seed);
    free(data);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
        return 2;
    }
    DIR *d = opendir(argv[1]);
    if (!d) {
        fprintf(stderr, "no corpus directory %s\n", argv[1]);
        return 1;
    }
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    int files = 0;
    struct dirent *de;
    char path[4096];
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", argv[1], de->d_name);
        if (replay_file(path, &seed) == 0)
            files++;
    }
    closedir(d);
    run_copy((const uint8_t *)"", 0);
    printf("replayed %d corpus files with mutations\n", files);
    return files > 0 ? 0 : 1;
}
