/* Fuzz target: theme files (theme_parse). Any text gives a theme (bad
 * lines are warnings, never a failure), warnings stay NUL-terminated
 * within their buffer, and every role has a colour (or the terminal's
 * own). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tui/theme/theme.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char warn[512];
    memset(warn, 'x', sizeof warn);
    warn[0] = '\0';
    sm_err err = {0};
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    memcpy(text, data, size);   /* exact size: a read past the end is caught */
    theme *t = theme_parse(text, size, "fuzz.theme", warn, sizeof warn, &err);
    if (!t || !memchr(warn, '\0', sizeof warn) || !memchr(theme_name(t), '\0', 256))
        abort();
    for (int r = 0; r < ROLE_COUNT; r++)
        if (theme_rgb(t, (theme_role)r) > 0xFFFFFF &&
            theme_rgb(t, (theme_role)r) != 0xFFFFFFFFu)   /* "default": the terminal's */
            abort();
    for (int i = 0; i <= 10; i++)
        if (theme_gradient_rgb(t, i / 10.0) > 0xFFFFFF)
            abort();
    theme_free(t);
    free(text);
    return 0;
}
