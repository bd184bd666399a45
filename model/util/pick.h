/* pick: the one rule for which of n items a pane shows when the selected
 * one may not qualify — the selected item when ok(ctx, selected), else
 * the first that is ok, else -1. The Steps and Timeline builders ask it
 * over model nodes, the keys over the snapshot's copy of the same facts:
 * one rule, so both always name the same node. Inline, as lbound. */
#ifndef SMTOP_MODEL_PICK_H
#define SMTOP_MODEL_PICK_H

#include <stddef.h>

static inline long pick_preferred(size_t n, size_t selected,
                                  int (*ok)(const void *ctx, size_t i), const void *ctx)
{
    if (selected < n && ok(ctx, selected))
        return (long)selected;
    for (size_t i = 0; i < n; i++)
        if (ok(ctx, i))
            return (long)i;
    return -1;
}

#endif
