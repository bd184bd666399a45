/* model_extra: names of the unknown keys in a system line's raw members
 * (`"k":v,"k2":{"a":[1,2]},...`). Only names are kept; values are skipped
 * with string and nesting awareness so a ',' or ':' inside them is not
 * mistaken for a separator. Malformed text stops the scan quietly: the
 * decoder already accepted the line. */
#include "model/core/model_node.h"

#include <stdlib.h>
#include <string.h>

static size_t skip_ws(const char *p, size_t i, size_t len)
{
    while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
        i++;
    return i;
}

/* p[i] is '"'; returns the index of the closing quote, or len. */
static size_t string_end(const char *p, size_t i, size_t len)
{
    for (i++; i < len; i++) {
        if (p[i] == '\\')
            i++;
        else if (p[i] == '"')
            return i;
    }
    return len;
}

/* Returns the index just past the value starting at i. */
static size_t value_end(const char *p, size_t i, size_t len)
{
    int depth = 0;
    for (; i < len; i++) {
        char c = p[i];
        if (c == '"')
            i = string_end(p, i, len);
        else if (c == '{' || c == '[')
            depth++;
        else if (c == '}' || c == ']') {
            if (depth == 0)
                return i;
            depth--;
        } else if (c == ',' && depth == 0)
            return i;
    }
    return len;
}

static void remember(model_node *n, const char *k, size_t len)
{
    if (len == 0 || len > NODE_EXTRA_NAME_MAX)
        return;
    for (size_t i = 0; i < n->nextra; i++)
        if (strlen(n->extra[i]) == len && memcmp(n->extra[i], k, len) == 0)
            return;
    char *c = strndup(k, len);
    if (c)  /* on OOM the name is simply not listed */
        n->extra[n->nextra++] = c;
}

void model_node_note_extra(model_node *n, const char *p, size_t len)
{
    size_t i = 0;
    while (n->nextra < NODE_EXTRA_MAX) {
        i = skip_ws(p, i, len);
        while (i < len && p[i] == ',')
            i = skip_ws(p, i + 1, len);
        if (i >= len || p[i] != '"')
            return;
        size_t ke = string_end(p, i, len);
        if (ke >= len)
            return;
        size_t colon = skip_ws(p, ke + 1, len);
        if (colon >= len || p[colon] != ':')
            return;
        remember(n, p + i + 1, ke - i - 1);
        i = value_end(p, colon + 1, len);
    }
}
