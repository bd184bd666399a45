/* theme: parsing, merge over defaults, warnings, malformed files, the
 * gradient, the shipped files vs the compiled-in copies, lookup order, and
 * 24-bit → 256 → 16 nearest-color reduction. */
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

#include "tui/theme/theme.h"
#include "tui/theme/theme_internal.h"

static theme *parse(const char *text, char *w, size_t wcap)
{
    sm_err err = {0};
    if (w)
        w[0] = '\0';
    theme *t = theme_parse(text, strlen(text), "test.theme", w, wcap, &err);
    assert_non_null(t);
    return t;
}

static void test_parse_and_merge_over_defaults(void **s)
{
    (void)s;
    theme *def = theme_default();
    char w[512];
    theme *t = parse("# comment\n; also a comment\n\n"
                     "graph.cpu = \"#112233\"\n  title=#A0b0C0  \n", w, sizeof w);
    assert_string_equal(w, "");
    assert_int_equal(theme_rgb(t, ROLE_GRAPH_CPU), 0x112233);
    assert_int_equal(theme_rgb(t, ROLE_TITLE), 0xa0b0c0);
    /* every key not in the file keeps the built-in default */
    for (int r = 0; r < ROLE_COUNT; r++)
        if (r != ROLE_GRAPH_CPU && r != ROLE_TITLE)
            assert_int_equal(theme_rgb(t, (theme_role)r), theme_rgb(def, (theme_role)r));
    assert_string_equal(theme_name(t), "test");
    theme_free(t);
    theme_free(def);
}

static void test_unknown_key_warns(void **s)
{
    (void)s;
    char w[512];
    theme *t = parse("graph.cpu = \"#010203\"\ngraph.tpu = \"#ffffff\"\n", w, sizeof w);
    assert_non_null(strstr(w, "test.theme:2: unknown key 'graph.tpu'"));
    assert_int_equal(theme_rgb(t, ROLE_GRAPH_CPU), 0x010203);
    theme_free(t);
}

static void test_malformed_file_gives_defaults_and_messages(void **s)
{
    (void)s;
    theme *def = theme_default();
    char w[1024];
    theme *t = parse("this is not a theme\ntitle = \"#12345\"\nborder = red\n"
                     "ok = \"#zzzzzz\"\n\x01\x02\x03\n", w, sizeof w);
    assert_non_null(strstr(w, "test.theme:1: expected `key = \"#rrggbb\"`"));
    assert_non_null(strstr(w, "test.theme:2: bad color for 'title'"));
    assert_non_null(strstr(w, "test.theme:3: bad color for 'border'"));
    assert_non_null(strstr(w, "test.theme:4: bad color for 'ok'"));
    for (int r = 0; r < ROLE_COUNT; r++)
        assert_int_equal(theme_rgb(t, (theme_role)r), theme_rgb(def, (theme_role)r));
    theme_free(t);
    /* a binary blob with NULs: still a theme, still defaults */
    const char blob[] = "\x7f" "ELF\0\0\0\x02\n\0\0title";
    sm_err err = {0};
    t = theme_parse(blob, sizeof blob - 1, "blob", w, sizeof w, &err);
    assert_non_null(t);
    assert_non_null(strstr(w, "binary data"));
    assert_int_equal(theme_rgb(t, ROLE_TITLE), theme_rgb(def, ROLE_TITLE));
    theme_free(t);
    /* warnings never overflow their buffer */
    char tiny[16];
    t = parse("a=1\nb=2\nc=3\n", tiny, sizeof tiny);
    assert_true(strlen(tiny) < sizeof tiny);
    theme_free(t);
    theme_free(def);
}

static void test_gradient(void **s)
{
    (void)s;
    theme *t = parse("heat_start = \"#000000\"\nheat.mid = \"#808080\"\n"
                     "heat_end = \"#ff0000\"\n", NULL, 0);
    assert_int_equal(theme_gradient_rgb(t, 0), 0x000000);
    assert_int_equal(theme_gradient_rgb(t, 0.5), 0x808080);
    assert_int_equal(theme_gradient_rgb(t, 1), 0xff0000);
    assert_int_equal(theme_gradient_rgb(t, 0.25), 0x404040);
    assert_int_equal(theme_gradient_rgb(t, 0.75), 0xc04040);
    assert_int_equal(theme_gradient_rgb(t, -3), 0x000000);   /* clamped */
    assert_int_equal(theme_gradient_rgb(t, 7), 0xff0000);
    theme_free(t);
}

static void test_reduce_256(void **s)
{
    (void)s;
    assert_int_equal(theme_reduce_256(0xff0000), 196);
    assert_int_equal(theme_reduce_256(0x000000), 16);
    assert_int_equal(theme_reduce_256(0xffffff), 231);
    assert_int_equal(theme_reduce_256(0x5f87af), 67);         /* exact cube entry */
    assert_int_equal(theme_reduce_256(0x808080), 244);        /* gray ramp 8+10*12 */
    assert_int_equal(theme_reduce_256(0x121212), 233);
    /* near a cube level but closer to the gray ramp */
    assert_int_equal(theme_reduce_256(0x303030), 236);
    /* (0x60,0x86,0xb0) is one step off 0x5f87af */
    assert_int_equal(theme_reduce_256(0x6086b0), 67);
}

static void test_reduce_16(void **s)
{
    (void)s;
    assert_int_equal(theme_reduce_16(0xff0000), 9);
    assert_int_equal(theme_reduce_16(0xcd0000), 1);
    assert_int_equal(theme_reduce_16(0x101010), 0);
    assert_int_equal(theme_reduce_16(0xf0f0f0), 7);           /* e5e5e5 nearer than ffffff */
    assert_int_equal(theme_reduce_16(0xfafafa), 15);
    assert_int_equal(theme_reduce_16(0x5fd75f), 2);   /* muted green stays green */
    assert_int_equal(theme_reduce_16(0x767676), 8);   /* gray stays gray */
    assert_int_equal(theme_reduce_16(0xaf87ff), 12);  /* lavender: bright blue */
    assert_int_equal(theme_reduce_16(0x5c5cff), 12);
    assert_int_equal(theme_reduce_16(0x00ffff), 14);
    /* every palette color maps to itself */
    static const unsigned pal[16] = {
        0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
        0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff};
    for (int i = 0; i < 16; i++)
        assert_int_equal(theme_reduce_16(pal[i]), i);
}

/* The built-in themes are the files in themes/, generated at build time:
 * every file is built in with its text byte for byte, default and light
 * first, then the rest by name, and each parses without warnings. */
static int by_name(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

static void test_shipped_files_are_the_builtins(void **s)
{
    (void)s;
    char dir[1024], names[32][64];
    size_t n = 2;
    snprintf(dir, sizeof dir, "%s/../themes", SMTOP_TEST_SRC);
    snprintf(names[0], sizeof names[0], "default");
    snprintf(names[1], sizeof names[1], "light");
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 7 || strcmp(e->d_name + len - 6, ".theme") != 0)
            continue;
        assert_true(n < 32);
        snprintf(names[n], sizeof names[n], "%.*s", (int)(len - 6), e->d_name);
        if (strcmp(names[n], "default") && strcmp(names[n], "light"))
            n++;
    }
    closedir(d);
    qsort(names + 2, n - 2, sizeof names[0], by_name);
    assert_int_equal(theme_builtin_count(), n);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(theme_builtin_name(i), names[i]);
        char path[1200], w[1024] = "";
        snprintf(path, sizeof path, "%s/%s.theme", dir, names[i]);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        static char text[65536];
        size_t len = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        text[len] = '\0';
        assert_string_equal(theme_builtin_text(names[i]), text);
        sm_err err = {0};
        theme *b = theme_parse(text, len, names[i], w, sizeof w, &err);
        assert_non_null(b);
        assert_string_equal(w, "");
        theme_free(b);
    }
}

static void test_lookup_user_overrides_and_errors(void **s)
{
    (void)s;
    char dir[] = "/tmp/smtop-theme-test-XXXXXX", sub[256], file[300];
    assert_non_null(mkdtemp(dir));
    snprintf(sub, sizeof sub, "%s/smtop", dir);
    mkdir(sub, 0700);
    snprintf(sub, sizeof sub, "%s/smtop/themes", dir);
    mkdir(sub, 0700);
    snprintf(file, sizeof file, "%s/light.theme", sub);
    FILE *f = fopen(file, "w");
    fputs("title = \"#abcdef\"\n", f);
    fclose(f);
    char file2[300];
    snprintf(file2, sizeof file2, "%s/mine.theme", sub);
    f = fopen(file2, "w");
    fputs("ok = \"#010101\"\n", f);
    fclose(f);
    setenv("XDG_CONFIG_HOME", dir, 1);
    sm_err err = {0};
    theme *t = theme_load("light", NULL, 0, &err);
    assert_non_null(t);
    assert_int_equal(theme_rgb(t, ROLE_TITLE), 0xabcdef);     /* user file wins */
    theme_free(t);
    t = theme_load("high-contrast", NULL, 0, &err);            /* still built in */
    assert_non_null(t);
    assert_int_equal(theme_rgb(t, ROLE_GRAPH_CPU), 0x00ffff);
    theme_free(t);
    char names[32][64];
    size_t n = theme_list(names, 32, &err);
    assert_true(n >= 5);
    assert_string_equal(names[0], "default");
    int found = 0;
    for (size_t i = 0; i < n; i++)
        found |= !strcmp(names[i], "mine");
    assert_true(found);
    assert_null(theme_load("no-such-theme", NULL, 0, &err));
    assert_non_null(strstr(err.msg, "theme 'no-such-theme' not found"));
    assert_null(theme_load("/nonexistent/x.theme", NULL, 0, &err));
    assert_non_null(strstr(err.msg, "/nonexistent/x.theme"));
    unlink(file);
    unlink(file2);
    rmdir(sub);
    snprintf(sub, sizeof sub, "%s/smtop", dir);
    rmdir(sub);
    rmdir(dir);
    unsetenv("XDG_CONFIG_HOME");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_and_merge_over_defaults),
        cmocka_unit_test(test_unknown_key_warns),
        cmocka_unit_test(test_malformed_file_gives_defaults_and_messages),
        cmocka_unit_test(test_gradient),
        cmocka_unit_test(test_reduce_256),
        cmocka_unit_test(test_reduce_16),
        cmocka_unit_test(test_shipped_files_are_the_builtins),
        cmocka_unit_test(test_lookup_user_overrides_and_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
