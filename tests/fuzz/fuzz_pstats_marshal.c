/* Fuzz target: cProfile python_stats bytes → marshal reader → store →
 * merged, sorted result with callers/callees; and the generic repr. */
#include <stddef.h>
#include <stdint.h>

#include "io/decode/pstats_marshal.h"
#include "../unit/decode_file.h"

static const char KEY[] =
    "framework/pytorch/cprofile/algo-1/train-9-stepstart-1_train-11-stepend-2/python_stats";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char out[256];
    pstats_marshal_repr(data, size, out, sizeof out, NULL);
    pystats_store *s = pystats_store_new();
    if (!s)
        return 0;
    /* Twice: the second load replaces the first window. */
    if (decode_pystats(s, KEY, data, size, NULL) == 0 &&
        decode_pystats(s, KEY, data, size, NULL) == 0) {
        pystats_select sel;
        pystats_select_all(&sel, PYPROF_CPROFILE);
        pystats_result *r = pystats_store_query(s, &sel, NULL);
        for (int k = 0; r && k < PYSORT_COUNT; k++) {
            pystats_result_sort(r, (pystats_sort)k);
            for (size_t i = 0; i < pystats_result_count(r) && i < 8; i++) {
                const pystats_edge *e;
                size_t n = pystats_result_callers(r, i, &e);
                n += pystats_result_callees(r, i, &e);
                pystats_func_format(pystats_result_at(r, i), out, sizeof out);
                (void)n;
            }
        }
        pystats_result_free(r);
    }
    pystats_store_free(s);
    return 0;
}
