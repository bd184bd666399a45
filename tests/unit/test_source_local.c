/* The local-directory source against trees a live job (or a user) can
 * leave behind (issue 12): symlink loops that branch, a subdirectory that
 * cannot be listed, and a FIFO swapped in between listing and reading.
 * Each must end promptly, skip only what cannot be read, and say so. */
#include "scan_fixture.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <sys/wait.h>

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "FAILED: the listing or read did not finish within 20 s\n";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
    _exit(1);
}

static int setup(void **state)
{
    fixture_setup(state);
    signal(SIGALRM, on_alarm);
    alarm(20);
    return 0;
}

static int teardown(void **state)
{
    alarm(0);
    return fixture_teardown(state);
}

#define LINE "{\"Type\":\"cpu\",\"Name\":\"cpu0\",\"Dimension\":\"CPUUtilization\"," \
             "\"Value\":5,\"NodeId\":\"algo-1\",\"Timestamp\":%s}\n"
#define HOUR1 "system/incremental/2020060923/"
#define HOUR2 "system/incremental/2020061000/"

static void put_minute(const fixture *f, const char *hour, const char *epoch, const char *ts)
{
    char rel[256], text[256];
    snprintf(rel, sizeof rel, "%s%s.algo-1.json", hour, epoch);
    snprintf(text, sizeof text, LINE, ts);
    fixture_put(f, rel, text, "w");
}

typedef struct keys {
    int n;
    int errors;
    char last_error[512];
} keys;

static int count_cb(void *ud, const source_entry *e)
{
    keys *k = ud;
    if (e->error) {
        k->errors++;
        snprintf(k->last_error, sizeof k->last_error, "%s: %s", e->key, e->error);
    } else {
        k->n++;
    }
    return 0;
}

/* Three `x -> .` links in one folder gave 3^16 paths: the listing never
 * ended. Each directory is walked once. */
static void test_branching_symlink_loops_listed_once(void **state)
{
    fixture *f = *state;
    put_minute(f, HOUR1, "1591748100", "1591748101.5");
    for (int i = 0; i < 3; i++) {
        char link[512];
        snprintf(link, sizeof link, "%s/" HOUR1 "x%d", f->dir, i);
        assert_int_equal(symlink(".", link), 0);
    }
    char up[512];
    snprintf(up, sizeof up, "%s/system/up", f->dir);
    assert_int_equal(symlink("..", up), 0);
    sm_err err = {0};
    assert_non_null(f->src = source_local_open(f->dir, &err));
    keys k = {0};
    assert_int_equal(source_list(f->src, "", NULL, count_cb, &k, &err), 0);
    assert_int_equal(k.n, 1);
    assert_int_equal(k.errors, 0);
}

/* Sets the folder's mtime 10 s back, so the lister may keep its entries. */
static void age_folder(const fixture *f, const char *rel)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", f->dir, rel);
    struct timespec ts[2];
    clock_gettime(CLOCK_REALTIME, &ts[0]);
    ts[0].tv_sec -= 10;
    ts[1] = ts[0];
    assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
}

/* A flat folder's entries are kept between listings while its mtime
 * stands (an idle pass must not re-read and sort it): a file written
 * into it later is still listed, one removed is gone, and a listing
 * that starts after a key lists only what sorts after it. */
static void test_kept_folder_still_sees_new_and_removed_files(void **state)
{
    fixture *f = *state;
    const char *flat = "system/incremental/";
    put_minute(f, flat, "1591748100", "1591748101.5");
    put_minute(f, flat, "1591748160", "1591748161.5");
    age_folder(f, flat);
    sm_err err = {0};
    assert_non_null(f->src = source_local_open(f->dir, &err));
    keys k = {0};
    assert_int_equal(source_list(f->src, "", NULL, count_cb, &k, &err), 0);
    assert_int_equal(k.n, 2);
    k = (keys){0};   /* served from the kept entries */
    assert_int_equal(source_list(f->src, "", "system/incremental/1591748100.algo-1.json",
                                 count_cb, &k, &err), 0);
    assert_int_equal(k.n, 1);
    put_minute(f, flat, "1591748220", "1591748221.5");
    age_folder(f, flat);   /* a new mtime, even when aged again */
    k = (keys){0};
    assert_int_equal(source_list(f->src, "", NULL, count_cb, &k, &err), 0);
    assert_int_equal(k.n, 3);
    char gone[512];
    snprintf(gone, sizeof gone, "%s/%s1591748100.algo-1.json", f->dir, flat);
    assert_int_equal(unlink(gone), 0);
    k = (keys){0};
    assert_int_equal(source_list(f->src, "", NULL, count_cb, &k, &err), 0);
    assert_int_equal(k.n, 2);
}

typedef struct unlisted {
    int found;
} unlisted;

static void find_denied(void *ud, const char *key, const char *why)
{
    fprintf(stderr, "not read: %s: %s\n", key, why);
    if (strstr(key, HOUR2) && strstr(why, "ermission denied"))
        ((unlisted *)ud)->found = 1;
}

/* Runs the scan as an unprivileged user when the tests run as root (CI),
 * since root reads a mode-000 directory anyway. The child reports through
 * its exit status: 0 when the readable minute was ingested, the scan
 * succeeded and a warning names the unreadable folder. */
static int scan_unprivileged(const char *dir)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
            _exit(90);
        sm_err err = {0};
        source *src = source_local_open(dir, &err);
        model *m = model_new(NULL);
        scanner *sc = src && m ? scanner_new(src, "", m, NULL, &err) : NULL;
        if (!sc)
            _exit(91);
        if (scanner_scan(sc, &err) != 0) {
            fprintf(stderr, "scan failed: %s\n", err.msg);
            _exit(92);
        }
        const model_node *n = model_find_node(m, "algo-1");
        if (!n || model_node_cpu_count(n) != 1)
            _exit(93);
        /* named on the list of what is not read (report, status line) */
        unlisted u = {0};
        if (scanner_unread(sc, find_denied, &u) != 1 || !u.found)
            _exit(94);
        _exit(0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* One unreadable subdirectory made the whole scan fail (report exit 1,
 * the dashboard 0 nodes). Its files are skipped with a warning; the rest
 * is read. */
static void test_unreadable_subdirectory_skipped_with_warning(void **state)
{
    fixture *f = *state;
    put_minute(f, HOUR1, "1591748100", "1591748101.5");
    put_minute(f, HOUR2, "1591750800", "1591750801.5");
    char locked[512];
    snprintf(locked, sizeof locked, "%s/" HOUR2, f->dir);
    assert_int_equal(chmod(locked, 0), 0);
    assert_int_equal(scan_unprivileged(f->dir), 0);
}

/* A file replaced by a FIFO between listing and reading blocked the loader
 * forever in open(). Only regular files are read. */
static void make_fifo(void *ud, const source_req *reqs, size_t n)
{
    const fixture *f = ud;
    char path[512];
    (void)reqs;
    (void)n;
    snprintf(path, sizeof path, "%s/" HOUR1 "1591748100.algo-1.json", f->dir);
    unlink(path);
    assert_int_equal(mkfifo(path, 0644), 0);
}

static void test_fifo_swapped_in_is_not_opened(void **state)
{
    fixture *f = *state;
    put_minute(f, HOUR1, "1591748100", "1591748101.5");
    sm_err err = {0};
    assert_non_null(f->src = source_local_open(f->dir, &err));
    hook_source h = hook_source_wrap(f->src, make_fifo, f);
    fixture_open(f, &h.base);
    fixture_scan(f);
    scan_stats st;
    scanner_get_stats(f->sc, &st);
    print_message("last error: %s\n", st.last_error);
    assert_int_equal(st.skipped_files, 1);
    assert_non_null(strstr(st.last_error, "1591748100.algo-1.json"));
    assert_non_null(strstr(st.last_error, "not a regular file"));
}

typedef struct got {
    int calls;
    size_t len;
    char err[512];
} got;

static void got_cb(void *ud, const source_req *req, const void *data, size_t len,
                   const char *etag, const sm_err *err)
{
    got *g = ud;
    (void)req;
    (void)data;
    (void)etag;
    g->calls++;
    g->len = len;
    snprintf(g->err, sizeof g->err, "%s", err ? err->msg : "");
}

/* The pool hints files ahead of its reads (issue 15, cold cache). A hint
 * at a FIFO, a missing file or past a file's end returns at once and
 * changes nothing: the reads that follow get the same bytes or the same
 * error as without it. */
static void test_prefetch_is_a_harmless_hint(void **state)
{
    fixture *f = *state;
    put_minute(f, HOUR1, "1591748100", "1591748101.5");
    char path[512];
    snprintf(path, sizeof path, "%s/" HOUR1 "1591748160.algo-1.json", f->dir);
    assert_int_equal(mkfifo(path, 0644), 0);
    sm_err err = {0};
    assert_non_null(f->src = source_local_open(f->dir, &err));
    const char *keys[] = {HOUR1 "1591748100.algo-1.json", HOUR1 "1591748160.algo-1.json",
                          HOUR1 "gone.algo-1.json"};
    for (int i = 0; i < 3; i++) {
        source_req r = {.key = keys[i], .offset = 0, .len = -1, .user = NULL};
        source_prefetch(f->src, &r);
        r.offset = 1 << 20;   /* past the end */
        source_prefetch(f->src, &r);
    }
    got g[3];
    memset(g, 0, sizeof g);
    for (int i = 0; i < 3; i++) {
        source_req r = {.key = keys[i], .offset = 0, .len = -1, .user = NULL};
        assert_int_equal(source_fetch(f->src, &r, 1, got_cb, &g[i], &err), 0);
        assert_int_equal(g[i].calls, 1);
    }
    char line[256];
    snprintf(line, sizeof line, LINE, "1591748101.5");
    assert_int_equal(g[0].len, strlen(line));
    assert_string_equal(g[0].err, "");
    assert_non_null(strstr(g[1].err, "not a regular file"));
    assert_non_null(strstr(g[2].err, "No such file"));
}

typedef struct into_got {
    char **buf;
    const void *data;
    char bytes[256];
    size_t len;
} into_got;

static void into_cb(void *ud, const source_req *req, const void *data, size_t len,
                    const char *etag, const sm_err *err)
{
    into_got *g = ud;
    (void)req;
    (void)etag;
    assert_null(err);
    g->data = data;
    g->len = len < sizeof g->bytes ? len : sizeof g->bytes;
    memcpy(g->bytes, data, g->len);
    assert_ptr_equal(data, *g->buf);   /* updated before the callback */
}

/* A caller's buffer offered with the request (the pool's slot, issue 15)
 * gets the bytes in place, grown when too small, and stays the caller's:
 * the same bytes as a read into the source's own buffer. */
static void test_read_into_callers_buffer(void **state)
{
    fixture *f = *state;
    put_minute(f, HOUR1, "1591748100", "1591748101.5");
    sm_err err = {0};
    assert_non_null(f->src = source_local_open(f->dir, &err));
    const char *key = HOUR1 "1591748100.algo-1.json";
    char line[256];
    snprintf(line, sizeof line, LINE, "1591748101.5");
    size_t cap = 4;
    char *buf = malloc(cap);
    assert_non_null(buf);
    into_got g = {.buf = &buf};
    source_req r = {.key = key, .offset = 2, .len = -1, .buf = &buf, .cap = &cap};
    assert_int_equal(source_fetch(f->src, &r, 1, into_cb, &g, &err), 0);
    assert_ptr_equal(g.data, buf);
    assert_true(cap >= strlen(line) - 2);
    assert_int_equal(g.len, strlen(line) - 2);
    assert_memory_equal(g.bytes, line + 2, g.len);
    /* Still the caller's after the fetch: a second read reuses it. */
    r.offset = 0;
    assert_int_equal(source_fetch(f->src, &r, 1, into_cb, &g, &err), 0);
    assert_ptr_equal(g.data, buf);
    assert_int_equal(g.len, strlen(line));
    assert_memory_equal(buf, line, g.len);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_branching_symlink_loops_listed_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unreadable_subdirectory_skipped_with_warning, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_fifo_swapped_in_is_not_opened, setup, teardown),
        cmocka_unit_test_setup_teardown(test_prefetch_is_a_harmless_hint, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_into_callers_buffer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kept_folder_still_sees_new_and_removed_files, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
