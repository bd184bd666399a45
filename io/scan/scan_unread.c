/* scan_unread: an array in the order files were noted, each entry's
 * position kept in the entry (cat_entry.unread_at, position + 1) so a
 * lookup costs nothing; clearing, which is rare (a file read after all),
 * shifts the rest. */
#include "io/scan/scan_unread.h"

#include <stdlib.h>
#include <string.h>

int scan_unread_set(unread_list *l, cat_entry *e, const char *why, int partial)
{
    char *w = strdup(why);
    if (!w)
        return -1;
    if (e->unread_at) {
        unread_item *it = &l->v[e->unread_at - 1];
        free(it->why);
        it->why = w;
        it->partial = partial;
        return 0;
    }
    if (l->n == l->cap) {
        size_t nc = l->cap ? l->cap * 2 : 16;
        unread_item *nv = realloc(l->v, nc * sizeof *nv);
        if (!nv) {
            free(w);
            return -1;
        }
        l->v = nv;
        l->cap = nc;
    }
    l->v[l->n++] = (unread_item){e, w, partial};
    e->unread_at = (uint32_t)l->n;
    return 0;
}

void scan_unread_clear(unread_list *l, cat_entry *e)
{
    if (!e->unread_at)
        return;
    size_t i = e->unread_at - 1;
    free(l->v[i].why);
    /* Keep the order files were first noted in: a report reads better. */
    memmove(&l->v[i], &l->v[i + 1], (l->n - i - 1) * sizeof *l->v);
    l->n--;
    for (size_t k = i; k < l->n; k++)
        l->v[k].e->unread_at = (uint32_t)(k + 1);
    e->unread_at = 0;
}

void scan_unread_free(unread_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i].why);
    free(l->v);
    memset(l, 0, sizeof *l);
}
