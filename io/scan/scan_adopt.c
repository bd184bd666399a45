#include "io/scan/scan_adopt.h"

#include <stdio.h>
#include <string.h>

static void item_drop(adopt_list *l, size_t i)
{
    trace_decode_free(l->items[i].dec);
    l->items[i] = l->items[--l->n];
}

void scan_adopt_track(adopt_list *l, cat_entry *tmp)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->items[i].live == tmp)
            return;
    if (l->n == ADOPT_MAX)
        item_drop(l, 0);
    adopt_item *it = &l->items[l->n++];
    memset(it, 0, sizeof *it);
    it->live = tmp;
}

void scan_adopt_stash(adopt_list *l, cat_entry *tmp)
{
    for (size_t i = 0; i < l->n; i++) {
        adopt_item *it = &l->items[i];
        if (it->live != tmp)
            continue;
        it->live = NULL;
        const prefix_hash *done = decoder_lines_prefix(tmp->rd);
        if (done)
            it->done = *done;
        else
            prefix_hash_init(&it->done);
        it->dec = decoder_lines_take_trace(tmp->rd);
        it->high_water_us = tmp->high_water_us;
        snprintf(it->node, sizeof it->node, "%s", tmp->ki.node);
        it->tkind = tmp->ki.tkind;
        return;
    }
}

/* The lines the .tmp decoded; NULL when a live one has read none. */
static const prefix_hash *item_done(const adopt_item *it)
{
    return it->live ? decoder_lines_prefix(it->live->rd) : &it->done;
}

static int64_t item_lines(const adopt_item *it)
{
    const prefix_hash *done = item_done(it);
    return done ? done->lines : 0;
}

/* Offset past the lines `it` decoded when fin starts with them, else -1. */
static int64_t item_match(const adopt_item *it, const cat_entry *fin, uint64_t head,
                          const char *data, size_t len)
{
    const char *node = it->live ? it->live->ki.node : it->node;
    trace_kind tk = it->live ? it->live->ki.tkind : it->tkind;
    const prefix_hash *done = item_done(it);
    if (!done || done->lines < PREFIX_HEAD_LINES || done->head != head || tk != fin->ki.tkind ||
        strcmp(node, fin->ki.node) != 0)
        return -1;
    return prefix_hash_match(done, data, len);
}

size_t scan_adopt_take(adopt_list *l, cat_entry *fin, const char *data, size_t len)
{
    uint64_t head = prefix_hash_head(data, len);
    if (!head)
        return 0;
    /* Several .tmp states may match (a new .tmp that has decoded only the
     * shared metadata matches every file of its process): the longest
     * match is the file's own history. */
    size_t best = l->n;
    int64_t best_at = -1;
    for (size_t i = 0; i < l->n; i++) {
        int64_t at = item_match(&l->items[i], fin, head, data, len);
        if (at >= 0 && (best == l->n || item_lines(&l->items[i]) > item_lines(&l->items[best]))) {
            best = i;
            best_at = at;
        }
    }
    if (best == l->n)
        return 0;
    adopt_item *it = &l->items[best];
    if (it->live) {
        cat_entry *tmp = it->live;
        decoder_lines_adopt(fin->rd, decoder_lines_take_trace(tmp->rd));
        fin->high_water_us = tmp->high_water_us;
        catalog_entry_reset(tmp);
        tmp->high_water_us = 0;
        tmp->skip_until_us = 0;
    } else {
        decoder_lines_adopt(fin->rd, it->dec);
        it->dec = NULL;
        fin->high_water_us = it->high_water_us;
    }
    item_drop(l, best);
    return (size_t)best_at;
}

void scan_adopt_free(adopt_list *l)
{
    while (l->n)
        item_drop(l, l->n - 1);
}
