/* scan_fixture: what the scanner tests share — a temporary directory
 * with files written into it, a scanner over it (or over a wrapped
 * source), and hook_source, a source that runs a callback between a
 * listing and the reads that follow it (a file vanishes, a FIFO takes its
 * place, the writer rotates). Header-only, for cmocka tests. */
#ifndef SMTOP_TEST_SCAN_FIXTURE_H
#define SMTOP_TEST_SCAN_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/scan/scanner.h"
#include "io/source/source.h"

typedef struct fixture {
    char dir[256];
    source *src;       /* the local source under everything (owned) */
    model *m;
    scanner *sc;
} fixture;

/* mkdir -p of the directory part of dir/rel. */
static inline void fixture_mkdirs(const char *dir, const char *rel)
{
    char path[768];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    for (char *p = path + strlen(dir) + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0755);
            *p = '/';
        }
}

/* Writes text into dir/rel (mode "w" or "a"), making its directories. */
static inline void fixture_put(const fixture *f, const char *rel, const char *text,
                               const char *mode)
{
    char path[768];
    fixture_mkdirs(f->dir, rel);
    snprintf(path, sizeof path, "%s/%s", f->dir, rel);
    FILE *fp = fopen(path, mode);
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
}

static inline int fixture_setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    snprintf(f->dir, sizeof f->dir, "/tmp/smtop-scan-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    chmod(f->dir, 0755);   /* a test may read it as another user */
    *state = f;
    return 0;
}

/* Opens the local source over f->dir and a scanner over `over` (a
 * wrapper of f->src; NULL: f->src itself). */
static inline void fixture_open(fixture *f, source *over)
{
    sm_err err = {0};
    if (!f->src)
        assert_non_null(f->src = source_local_open(f->dir, &err));
    assert_non_null(f->m = model_new(NULL));
    assert_non_null(f->sc = scanner_new(over ? over : f->src, "", f->m, NULL, &err));
}

static inline void fixture_scan(fixture *f)
{
    sm_err err = {0};
    assert_int_equal(scanner_scan(f->sc, &err), 0);
}

static inline int fixture_teardown(void **state)
{
    fixture *f = *state;
    scanner_free(f->sc);
    model_free(f->m);
    source_free(f->src);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "chmod -R u+rwx '%s'; rm -rf '%s'", f->dir, f->dir);
    assert_int_equal(system(cmd), 0);
    free(f);
    return 0;
}

/* A cmocka test with a fixture. */
#define FIXTURE_TEST(fn) cmocka_unit_test_setup_teardown(fn, fixture_setup, fixture_teardown)

/* TRAIN steps counted on node "algo-1". */
static inline int64_t fixture_train_steps(const model *m)
{
    const model_node *n = model_find_node(m, "algo-1");
    const phase_stats *p = n ? model_node_find_phase(n, "Step:ModeKeys.TRAIN") : NULL;
    phase_summary s = {0};
    if (p)
        phase_stats_get_summary(p, &s);
    return s.count;
}

/* ---- hook_source ---- */

typedef void (*hook_fn)(void *ud, const source_req *reqs, size_t n);

typedef struct hook_source {
    source base;
    source *inner;     /* not owned */
    hook_fn before_fetch;
    void *ud;
} hook_source;

static inline int hook_list(source *s, const char *p, const char *a, source_list_cb cb,
                            void *ud, sm_err *e)
{
    return source_list(((hook_source *)s)->inner, p, a, cb, ud, e);
}

static inline int hook_fetch(source *s, const source_req *r, size_t n, source_fetch_cb cb,
                             void *ud, sm_err *e)
{
    hook_source *h = (hook_source *)s;
    if (h->before_fetch)
        h->before_fetch(h->ud, r, n);
    return source_fetch(h->inner, r, n, cb, ud, e);
}

static inline const char *hook_describe(const source *s)
{
    return source_describe(((const hook_source *)s)->inner);
}

static inline void hook_free(source *s)
{
    (void)s;
}

static const source_vtbl hook_vtbl = {
    .kind = "hook", .etag_is_identity = 1, .list = hook_list, .fetch = hook_fetch,
    .describe = hook_describe, .free = hook_free,
};

static inline hook_source hook_source_wrap(source *inner, hook_fn fn, void *ud)
{
    return (hook_source){{&hook_vtbl}, inner, fn, ud};
}

#endif
