/* cache: round trip, versioning by ETag, corruption, path safety, LRU. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "tmpdir.h"
#include "io/source/cache.h"

static char dir[256];

static int setup(void **st)
{
    (void)st;
    snprintf(dir, sizeof dir, "/tmp/smtop-cache-test-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
    (void)st;
    return tmpdir_remove(dir);
}

static size_t count_files(const char *d, int *only_entries)
{
    DIR *dd = opendir(d);
    struct dirent *de;
    size_t n = 0;
    *only_entries = 1;
    while (dd && (de = readdir(dd))) {
        if (de->d_name[0] == '.' && (!de->d_name[1] || !strcmp(de->d_name, "..")))
            continue;
        n++;
        if (strlen(de->d_name) != 36 || strcmp(de->d_name + 32, ".zst"))
            *only_entries = 0;
    }
    if (dd)
        closedir(dd);
    return n;
}

static void test_round_trip_and_etag(void **st)
{
    (void)st;
    sm_err e;
    cache *c = cache_open(dir, 0, &e);
    const char body[] = "{\"Type\":\"cpu\"}\n{\"Type\":\"gpu\"}\n";
    void *d;
    size_t n;
    assert_non_null(c);
    assert_int_equal(cache_get(c, "bkt", "job/a.json", "\"e1\"", &d, &n), 0);
    assert_int_equal(cache_put(c, "bkt", "job/a.json", "\"e1\"", body, sizeof body - 1, &e), 0);
    assert_int_equal(cache_get(c, "bkt", "job/a.json", "\"e1\"", &d, &n), 1);
    assert_int_equal(n, sizeof body - 1);
    assert_memory_equal(d, body, n);
    free(d);
    /* other ETag, other bucket: miss */
    assert_int_equal(cache_get(c, "bkt", "job/a.json", "\"e2\"", &d, &n), 0);
    assert_int_equal(cache_get(c, "bkt2", "job/a.json", "\"e1\"", &d, &n), 0);
    /* a new version replaces the old one: one entry per key */
    assert_int_equal(cache_put(c, "bkt", "job/a.json", "\"e2\"", "x", 1, &e), 0);
    assert_int_equal(cache_get(c, "bkt", "job/a.json", "\"e1\"", &d, &n), 0);
    assert_int_equal(cache_get(c, "bkt", "job/a.json", "\"e2\"", &d, &n), 1);
    free(d);
    /* empty object */
    assert_int_equal(cache_put(c, "bkt", "empty", "\"e0\"", "", 0, &e), 0);
    assert_int_equal(cache_get(c, "bkt", "empty", "\"e0\"", &d, &n), 1);
    assert_int_equal(n, 0);
    free(d);
    int only;
    assert_int_equal(count_files(dir, &only), 2); /* no temp files left */
    assert_true(only);
    cache_free(c);
}

static void test_corrupt_entry_dropped(void **st)
{
    (void)st;
    sm_err e;
    cache *c = cache_open(dir, 0, &e);
    char body[4096], path[512];
    void *d;
    size_t n;
    cache_stats cs;
    for (size_t i = 0; i < sizeof body; i++)
        body[i] = (char)('a' + (i * 7) % 26);
    assert_int_equal(cache_put(c, "bkt", "k", "\"e\"", body, sizeof body, &e), 0);
    cache_entry_path(c, "bkt", "k", path, sizeof path);
    /* flip one byte in the compressed payload (the last bytes) */
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, -6, SEEK_END);
    int ch = fgetc(f);
    fseek(f, -6, SEEK_END);
    fputc(ch ^ 0x55, f);
    fclose(f);
    assert_int_equal(cache_get(c, "bkt", "k", "\"e\"", &d, &n), 0);
    struct stat sb;
    assert_int_equal(stat(path, &sb), -1); /* dropped, so it gets refetched */
    /* truncated file */
    assert_int_equal(cache_put(c, "bkt", "k", "\"e\"", body, sizeof body, &e), 0);
    assert_int_equal(truncate(path, 40), 0);
    assert_int_equal(cache_get(c, "bkt", "k", "\"e\"", &d, &n), 0);
    assert_int_equal(stat(path, &sb), -1);
    cache_get_stats(c, &cs);
    assert_int_equal(cs.corrupt_dropped, 2);
    cache_free(c);
}

static void test_paths_stay_inside(void **st)
{
    (void)st;
    sm_err e;
    cache *c = cache_open(dir, 0, &e);
    const char *keys[] = {"../../../../etc/passwd", "/etc/passwd", "a/../../b",
                          "..", "\x1b[31mred\n", "a b+c=:d"};
    char path[512];
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        cache_entry_path(c, "../bkt", keys[i], path, sizeof path);
        assert_int_equal(strncmp(path, dir, strlen(dir)), 0);
        const char *name = path + strlen(dir) + 1;
        assert_int_equal(strspn(name, "0123456789abcdef"), 32);
        assert_string_equal(name + 32, ".zst");
        assert_int_equal(cache_put(c, "../bkt", keys[i], "\"e\"", "v", 1, &e), 0);
    }
    int only;
    assert_int_equal(count_files(dir, &only), 6);
    assert_true(only);
    cache_free(c);
}

static void test_lru_bound(void **st)
{
    (void)st;
    sm_err e;
    cache *c = cache_open(dir, 64 * 1024, &e);
    char key[32], *body = malloc(16 * 1024);
    void *d;
    size_t n;
    cache_stats cs;
    /* incompressible-ish bodies so each entry is ~16 KiB on disk */
    uint32_t x = 1;
    for (size_t i = 0; i < 16 * 1024; i++) {
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        body[i] = (char)x;
    }
    for (int i = 0; i < 12; i++) {
        snprintf(key, sizeof key, "k%d", i);
        body[0] = (char)i;
        assert_int_equal(cache_put(c, "bkt", key, "\"e\"", body, 16 * 1024, &e), 0);
        if (i >= 1) { /* keep k0 hot: it must survive eviction */
            usleep(2000);
            assert_int_equal(cache_get(c, "bkt", "k0", "\"e\"", &d, &n), 1);
            free(d);
        }
        usleep(2000);
    }
    cache_get_stats(c, &cs);
    assert_true(cs.evicted > 0);
    assert_true(cs.bytes <= 64 * 1024);
    assert_int_equal(cache_get(c, "bkt", "k0", "\"e\"", &d, &n), 1);
    free(d);
    assert_int_equal(cache_get(c, "bkt", "k1", "\"e\"", &d, &n), 0);
    free(body);
    cache_free(c);
}

static void test_default_location(void **st)
{
    (void)st;
    sm_err e;
    char xdg[300];
    snprintf(xdg, sizeof xdg, "%s/xdg", dir);
    setenv("XDG_CACHE_HOME", xdg, 1);
    cache *c = cache_open(NULL, 0, &e);
    assert_non_null(c);
    snprintf(xdg, sizeof xdg, "%s/xdg/smtop", dir);
    assert_string_equal(cache_dir(c), xdg);
    cache_free(c);
    assert_null(cache_open("/proc/smtop-cannot-exist", 0, &e));
    assert_int_equal(e.code, SM_ERR_IO);
}

/* A cache directory someone else can write to (0777, group-writable,
 * sticky /tmp-like) or that belongs to another user is refused with a
 * message that says why and what to do; a private one (0700, 0755) is
 * used. */
static void test_refuses_foreign_or_open_dir(void **st)
{
    (void)st;
    sm_err e;
    char d[300];
    static const struct { mode_t mode; int ok; } cases[] = {
        {0700, 1}, {0755, 1}, {0777, 0}, {0770, 0}, {01777, 0}, {0702, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(d, sizeof d, "%s/m%zu", dir, i);
        assert_int_equal(mkdir(d, 0700), 0);
        assert_int_equal(chmod(d, cases[i].mode), 0);
        memset(&e, 0, sizeof e);
        cache *c = cache_open(d, 0, &e);
        if (cases[i].ok) {
            assert_non_null(c);
            cache_free(c);
        } else {
            assert_null(c);
            assert_int_equal(e.code, SM_ERR_DENIED);
            assert_non_null(strstr(e.msg, "writable by others"));
            assert_non_null(strstr(e.msg, "--no-cache"));
        }
    }
    if (geteuid() != 0) {
        print_message("note: not root, the other-owner case is not checked\n");
        return;
    }
    snprintf(d, sizeof d, "%s/theirs", dir);
    assert_int_equal(mkdir(d, 0700), 0);
    assert_int_equal(chown(d, 4242, 4242), 0);
    assert_null(cache_open(d, 0, &e));
    assert_int_equal(e.code, SM_ERR_DENIED);
    assert_non_null(strstr(e.msg, "belongs to uid 4242, not to you"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_round_trip_and_etag, setup, teardown),
        cmocka_unit_test_setup_teardown(test_corrupt_entry_dropped, setup, teardown),
        cmocka_unit_test_setup_teardown(test_paths_stay_inside, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lru_bound, setup, teardown),
        cmocka_unit_test_setup_teardown(test_default_location, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refuses_foreign_or_open_dir, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
