/* cache_evict: LRU eviction over the cache directory; see cache_evict.h. */
#include "io/source/cache_evict.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef struct evict_ent {
    char name[64];
    int64_t size;
    struct timespec mtime;
} evict_ent;

static int evict_is_entry(const char *n)
{
    size_t l = strlen(n);
    return l == 36 && !strcmp(n + 32, ".zst") && strspn(n, "0123456789abcdef") == 32;
}

/* Lists entries; removes temp files older than an hour (crashed writers). */
static evict_ent *evict_scan(const char *dir, size_t *n, int64_t *total)
{
    DIR *d = opendir(dir);
    evict_ent *v = NULL;
    struct dirent *de;
    size_t cap = 0;
    char path[4200];
    struct stat sb;
    *n = 0;
    *total = 0;
    while (d && (de = readdir(d))) {
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (!strncmp(de->d_name, ".tmp-", 5) && stat(path, &sb) == 0 &&
            sb.st_mtime < time(NULL) - 3600)
            unlink(path);
        if (!evict_is_entry(de->d_name) || stat(path, &sb) != 0)
            continue;
        if (*n == cap) {
            evict_ent *g = realloc(v, (cap = cap ? cap * 2 : 64) * sizeof *v);
            if (!g)
                break;
            v = g;
        }
        memcpy(v[*n].name, de->d_name, 37); /* 36 chars + NUL, checked above */
        v[*n].size = (int64_t)sb.st_size;
        v[*n].mtime = sb.st_mtim;
        *total += v[(*n)++].size;
    }
    if (d)
        closedir(d);
    return v;
}

int64_t cache_evict_dir_size(const char *dir)
{
    size_t n;
    int64_t total;
    free(evict_scan(dir, &n, &total));
    return total;
}

static int evict_older(const void *a, const void *b)
{
    const evict_ent *x = a, *y = b;
    if (x->mtime.tv_sec != y->mtime.tv_sec)
        return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
    return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : x->mtime.tv_nsec > y->mtime.tv_nsec;
}

int64_t cache_evict_lru(const char *dir, int64_t target, int64_t *total)
{
    size_t n;
    int64_t deleted = 0;
    char path[4200];
    evict_ent *v = evict_scan(dir, &n, total);
    if (v)
        qsort(v, n, sizeof *v, evict_older);
    for (size_t i = 0; i < n && *total > target; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, v[i].name);
        if (unlink(path) == 0) {
            *total -= v[i].size;
            deleted++;
        }
    }
    free(v);
    return deleted;
}
