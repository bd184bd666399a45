/* theme_builtin: the shipped themes compiled in, so smtop works without
 * its themes/ directory. The table is generated from the files in themes/
 * at build time (scripts/theme_builtin.cmake), so there is no copy to keep
 * in step. */
#include "tui/theme/theme_internal.h"

#include <string.h>

typedef struct builtin { const char *name, *text; } builtin;

#include "theme_builtin_data.h"   /* builtins[]: generated from the .theme files */

const char *theme_builtin_text(const char *name)
{
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        if (!strcmp(name, builtins[i].name))
            return builtins[i].text;
    return NULL;
}

size_t theme_builtin_count(void)
{
    return sizeof builtins / sizeof builtins[0];
}

const char *theme_builtin_name(size_t i)
{
    return i < theme_builtin_count() ? builtins[i].name : NULL;
}
