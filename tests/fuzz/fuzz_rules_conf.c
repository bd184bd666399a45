/* Fuzz target: rules.conf (rules_apply_config) and --rule NAME.PARAM=V
 * (rules_apply_override), and --fail-on lists (rules_parse_list). The
 * input's first line is the override, the rest the file. A refusal has
 * a message; config is all-or-nothing, so a file refused leaves the same
 * parameters as before: applying the good overrides after gives the
 * same result either way. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/rules/rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *nl = memchr(text, '\n', size);
    const char *file = nl ? nl + 1 : "";
    size_t flen = nl ? size - (size_t)(nl + 1 - text) : 0;
    if (nl)
        *nl = '\0';
    rules *r = rules_new();
    if (!r)
        abort();
    sm_err err = {0};
    if (rules_apply_override(r, text, &err) != 0 && !err.msg[0])
        abort();
    memset(&err, 0, sizeof err);
    if (rules_apply_config(r, file, flen, "rules.conf", &err) != 0 && !err.msg[0])
        abort();
    int idx[64];
    memset(&err, 0, sizeof err);
    int n = rules_parse_list(text, idx, 64, &err);
    if ((n < 0 && !err.msg[0]) || n > 64)
        abort();
    rules_free(r);
    free(text);
    return 0;
}
