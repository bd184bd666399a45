/* scan_unread: the files under framework/ and system/ that the scanner
 * does not read, each with the reason in words — an unknown name, a TF
 * trace it cannot place on the job clock, a file it cannot read or decode.
 * Every such file is named here exactly once, for as long as it stays
 * unread, so a report can list them all however many there are (the
 * scanner's message ring keeps only the newest). Internal to io/scan; the
 * scanner guards a list with its own mutex. */
#ifndef SMTOP_SCAN_UNREAD_H
#define SMTOP_SCAN_UNREAD_H

#include <stddef.h>

#include "io/scan/catalog.h"

typedef struct unread_item {
    cat_entry *e;          /* the file (its key outlives the list) */
    char *why;             /* owned */
    int partial;           /* its bytes end early (SM_ERR_PARTIAL): still
                              written, or cut short, as the job has ended or not */
} unread_item;

typedef struct unread_list {
    unread_item *v;
    size_t n, cap;
} unread_list;

/* Records (or replaces) why e is not read, and whether it ends early.
 * 0, or -1 on OOM (l unchanged). */
int scan_unread_set(unread_list *l, cat_entry *e, const char *why, int partial);
/* Forgets e (it was read after all); no-op when not listed. */
void scan_unread_clear(unread_list *l, cat_entry *e);
void scan_unread_free(unread_list *l);

#endif
