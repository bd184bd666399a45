/* name_match: the one filter grammar of `/` — the dashboard's nodes and
 * the job list's names.
 *
 * Case-insensitive substrings that never cut a number ("algo-6" does not
 * match "algo-60", "6" matches "algo-6" only), alternatives separated by
 * '|', '^' / '$' anchoring an alternative at the start / end of the name
 * ("^bert" keeps "bert-large-1", not "my-bert"). Allocation-free: it runs
 * for every row of every frame. */
#ifndef SMTOP_NAME_MATCH_H
#define SMTOP_NAME_MATCH_H

/* 1 when id matches pattern; "" matches everything, a NULL id nothing. */
int name_match(const char *pattern, const char *id);

#endif
