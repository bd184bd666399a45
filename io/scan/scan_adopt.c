#include "io/scan/scan_adopt.h"

#include <stdio.h>
#include <string.h>

#include "io/scan/fnv.h"

static void item_drop(adopt_list *l, size_t i)
{
    tracedec_free(l->items[i].dec);
    l->items[i] = l->items[--l->n];
}

void adopt_track(adopt_list *l, cat_entry *tmp)
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

void adopt_list_stash(adopt_list *l, cat_entry *tmp)
{
    for (size_t i = 0; i < l->n; i++) {
        adopt_item *it = &l->items[i];
        if (it->live != tmp)
            continue;
        it->live = NULL;
        memcpy(it->head, tmp->head, tmp->head_len);
        it->head_len = tmp->head_len;
        it->processed = tmp->consumed - (int64_t)tmp->partial_len;
        it->hash = tmp->done_hash;
        it->dec = tmp->tdec;
        tmp->tdec = NULL;
        snprintf(it->node, sizeof it->node, "%s", tmp->ki.node);
        it->tkind = tmp->ki.tkind;
        return;
    }
}

static int64_t item_done(const adopt_item *it)
{
    return it->live ? it->live->consumed - (int64_t)it->live->partial_len : it->processed;
}

static int item_matches(const adopt_item *it, const cat_entry *fin,
                        const char *data, size_t len)
{
    const char *head = it->live ? it->live->head : it->head;
    size_t head_len = it->live ? it->live->head_len : it->head_len;
    const char *node = it->live ? it->live->ki.node : it->node;
    trace_kind tk = it->live ? it->live->ki.tkind : it->tkind;
    int64_t done = item_done(it);
    uint64_t hash = it->live ? it->live->done_hash : it->hash;
    /* The head is a cheap first filter; the hash of everything the .tmp
     * decoded proves fin continues it (every file of a process starts
     * with the same metadata, so heads repeat). */
    return head_len > 0 && len >= head_len && tk == fin->ki.tkind &&
           !strcmp(node, fin->ki.node) && !memcmp(head, data, head_len) &&
           done > 0 && (size_t)done <= len && fnv_add(FNV_SEED, data, (size_t)done) == hash;
}

size_t adopt_take(adopt_list *l, cat_entry *fin, const char *data, size_t len)
{
    /* Several .tmp states may match (a new .tmp that has decoded only the
     * shared metadata matches every file of its process): the longest
     * match is the file's own history. */
    size_t best = l->n;
    for (size_t i = 0; i < l->n; i++)
        if (item_matches(&l->items[i], fin, data, len) &&
            (best == l->n || item_done(&l->items[i]) > item_done(&l->items[best])))
            best = i;
    if (best == l->n)
        return 0;
    adopt_item *it = &l->items[best];
    int64_t done = item_done(it);
    tracedec_free(fin->tdec);
    if (it->live) {
        cat_entry *tmp = it->live;
        fin->tdec = tmp->tdec;
        tmp->tdec = NULL;
        fin->high_water_us = tmp->high_water_us;
        cat_entry_reset(tmp);
        tmp->high_water_us = 0;
        tmp->skip_until_us = 0;
    } else {
        fin->tdec = it->dec;
        it->dec = NULL;
    }
    item_drop(l, best);
    return (size_t)done;   /* item_matches: 0 < done <= len */
}

void adopt_list_free(adopt_list *l)
{
    while (l->n)
        item_drop(l, l->n - 1);
}
