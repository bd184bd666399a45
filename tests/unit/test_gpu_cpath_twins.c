/* Unit tests for the critical path's twin edges (gpu_cpath_merge_twins,
 * model/gpu/gpu_impl.h): an edge HTA's graph adds twice is one edge in a
 * networkx DiGraph, in the place of its first add, with the later add's
 * type and weight and the later attribution when it has one. The merge
 * runs once all edges are in; it is checked against the rule applied
 * at every add, on graphs of few and of many edges a node (a node of
 * more than 16 edges takes the sorted way). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/gpu/gpu_impl.h"
#include "model/util/scratch.h"

/* The rule at every add: the DiGraph itself. */
static size_t reference(const cp_edge *in, size_t n, cp_edge *out)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        size_t at = 0;
        while (at < m && (out[at].u != in[i].u || out[at].v != in[i].v))
            at++;
        if (at == m) {
            out[m++] = in[i];
            continue;
        }
        int32_t attr = in[i].attr >= 0 || in[i].attr == CP_ROOT ? in[i].attr : out[at].attr;
        out[at] = in[i];
        out[at].attr = attr;
    }
    return m;
}

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* n edges among nodes nodes, sources drawn from few (a node of many
 * edges) or from all. */
static void check_random(uint64_t seed, size_t n, uint32_t nodes, uint32_t sources)
{
    cp_edge *e = calloc(n, sizeof *e), *want = calloc(n, sizeof *want);
    assert_non_null(e);
    assert_non_null(want);
    for (size_t i = 0; i < n; i++) {
        uint32_t u = (uint32_t)(next_rand(&seed) % sources);
        uint32_t v = (uint32_t)(next_rand(&seed) % nodes);
        int32_t attrs[] = {-1, CP_ROOT, 0, 1, 7};
        e[i] = (cp_edge){u, v, (int64_t)(next_rand(&seed) % 100) - 20,
                         attrs[next_rand(&seed) % 5], (uint8_t)(next_rand(&seed) % 5)};
    }
    size_t m = reference(e, n, want);
    cp_graph g = {.e = e, .n_e = n, .cap_e = n, .n_nodes = nodes, .s = scratch_new()};
    assert_non_null(g.s);
    assert_int_equal(gpu_cpath_merge_twins(&g), 0);
    assert_int_equal(g.n_e, m);
    for (size_t i = 0; i < m; i++) {
        assert_int_equal(g.e[i].u, want[i].u);
        assert_int_equal(g.e[i].v, want[i].v);
        assert_int_equal(g.e[i].w, want[i].w);
        assert_int_equal(g.e[i].attr, want[i].attr);
        assert_int_equal(g.e[i].type, want[i].type);
    }
    scratch_free(g.s);
    free(e);
    free(want);
}

/* By hand: a twin takes the later weight and type; a later add without
 * an attribution keeps the earlier one; a twin of a twin merges twice. */
static void test_by_hand(void **state)
{
    (void)state;
    cp_edge e[] = {
        {0, 1, 5, 3, CP_OPK}, {1, 2, 4, -1, CP_DEP}, {0, 1, 9, -1, CP_SYNC},
        {2, 0, 1, CP_ROOT, CP_KK}, {0, 1, 2, CP_ROOT, CP_LAUNCH}, {1, 0, 6, 2, CP_OPK},
    };
    cp_graph g = {.e = e, .n_e = 6, .cap_e = 6, .n_nodes = 3, .s = scratch_new()};
    assert_non_null(g.s);
    assert_int_equal(gpu_cpath_merge_twins(&g), 0);
    assert_int_equal(g.n_e, 4);
    /* (0,1) in its first place: the last add's weight and type, its
     * CP_ROOT attribution (the second add's -1 had kept 3) */
    assert_int_equal(e[0].u, 0);
    assert_int_equal(e[0].v, 1);
    assert_int_equal(e[0].w, 2);
    assert_int_equal(e[0].type, CP_LAUNCH);
    assert_int_equal(e[0].attr, CP_ROOT);
    assert_int_equal(e[1].u, 1);
    assert_int_equal(e[1].v, 2);
    assert_int_equal(e[2].u, 2);
    assert_int_equal(e[3].u, 1);
    assert_int_equal(e[3].v, 0);
    scratch_free(g.s);
}

static void test_few_edges_a_node(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 200; seed++)
        check_random(seed * 0x9e3779b97f4a7c15ULL, 300, 40, 40);
}

/* A node of more than 16 edges: the sorted way, its twins in add order. */
static void test_many_edges_a_node(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 100; seed++)
        check_random(seed * 0xbf58476d1ce4e5b9ULL, 600, 50, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_by_hand),
        cmocka_unit_test(test_few_edges_a_node),
        cmocka_unit_test(test_many_edges_a_node),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
