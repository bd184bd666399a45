/* phase_classify: which kind of phase a (process name, event name) is.
 * Names are case-sensitive, as the frameworks write them. */
#include "model/steps/phase_stats.h"

#include <string.h>

static int has_prefix(const char *s, size_t len, const char *pre)
{
    size_t n = strlen(pre);
    return len >= n && memcmp(s, pre, n) == 0;
}

static int equals(const char *s, size_t len, const char *w)
{
    return strlen(w) == len && memcmp(s, w, len) == 0;
}

static int contains(const char *s, size_t len, const char *w)
{
    size_t n = strlen(w);
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(s + i, w, n) == 0)
            return 1;
    return 0;
}

static const char *const loader_names[] = {
    "dataset::GetNext", "DataLoaderIter::GetNext", "DataLoaderWorker",
    "DataLoaderIterInitialize", "IteratorGetNextOp::DoCompute",
};

phase_kind phase_classify(const char *phase, size_t phase_len,
                          const char *name, size_t name_len)
{
    if (!phase)
        phase_len = 0;
    if (!name)
        name_len = 0;
    if (has_prefix(phase, phase_len, "Step:"))
        return PHASE_STEP;
    if (has_prefix(phase, phase_len, "Forward"))
        return PHASE_FORWARD;
    if (has_prefix(phase, phase_len, "Backward"))
        return PHASE_BACKWARD;
    if (equals(phase, phase_len, "DataIterator"))
        return PHASE_DATALOADER;
    for (size_t i = 0; i < sizeof loader_names / sizeof *loader_names; i++)
        if (equals(name, name_len, loader_names[i]))
            return PHASE_DATALOADER;
    if (contains(name, name_len, "GetNext"))
        return PHASE_DATALOADER;
    return PHASE_OTHER;
}
