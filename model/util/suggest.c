/* suggest: see suggest.h. The distance is written here because it is a
 * dozen lines over two words of a few letters; no library we use has it. */
#include "model/util/suggest.h"

#include <ctype.h>
#include <string.h>

/* Letters compare without case: rule names are matched so. */
static int lc(char c)
{
    return tolower((unsigned char)c);
}

static int min3(int a, int b, int c)
{
    int m = a < b ? a : b;
    return m < c ? m : c;
}

int suggest_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > SUGGEST_MAX_LEN || lb > SUGGEST_MAX_LEN)
        return SUGGEST_MAX_LEN + 1;
    int d[SUGGEST_MAX_LEN + 1][SUGGEST_MAX_LEN + 1];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int cost = lc(a[i - 1]) != lc(b[j - 1]);
            d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
            if (i > 1 && j > 1 && lc(a[i - 1]) == lc(b[j - 2]) && lc(a[i - 2]) == lc(b[j - 1]) &&
                d[i - 2][j - 2] + 1 < d[i][j])
                d[i][j] = d[i - 2][j - 2] + 1;
        }
    return d[la][lb];
}

const char *suggest_nearest(const char *typed, const char *const *words, size_t n)
{
    const char *best = NULL;
    int best_d = SUGGEST_MAX_LEN + 1;
    for (size_t i = 0; i < n; i++) {
        int d = suggest_distance(typed, words[i]);
        int limit = strlen(words[i]) <= 4 ? 1 : 2;
        if (d <= limit && d < best_d) {
            best = words[i];
            best_d = d;
        }
    }
    return best;
}
