/* suggest: the nearest of a few known words to a misspelled one, for
 * "did you mean `report`?" (a command, a rule or its parameter). Pure. */
#ifndef SMTOP_SUGGEST_H
#define SMTOP_SUGGEST_H

#include <stddef.h>

/* Edit distance between a and b counting an insertion, a deletion, a
 * substitution or a swap of two neighbours as one (optimal string
 * alignment), letters compared without case (rule names are matched
 * so). Words longer than SUGGEST_MAX_LEN count as far from all. */
#define SUGGEST_MAX_LEN 31
int suggest_distance(const char *a, const char *b);

/* The word of words[0..n) nearest to `typed`, when it is near enough to
 * be a typo (one edit for words of up to 4 letters, two beyond); NULL
 * otherwise. Ties go to the earlier word. */
const char *suggest_nearest(const char *typed, const char *const *words, size_t n);

#endif
