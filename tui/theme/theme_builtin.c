/* theme_builtin: the shipped themes compiled in, so smtop works without
 * its themes/ directory. Generated from the files in themes/ (keep in sync:
 * unit_theme checks that each file parses to the same colors). */
#include "tui/theme/theme_internal.h"

#include <string.h>

typedef struct builtin { const char *name, *text; } builtin;

static const builtin builtins[] = {
    {"default",
     "background = \"default\"\n"
     "default = \"default\"\n"
     "title = \"#e6e6e6\"\n"
     "border = \"#4e5566\"\n"
     "border.focus = \"#5fafff\"\n"
     "label = \"#8a94a6\"\n"
     "dim = \"#6c7380\"\n"
     "status = \"#c8c8c8\"\n"
     "status.live = \"#5fd75f\"\n"
     "status.paused = \"#ffaf5f\"\n"
     "error = \"#ff5f5f\"\n"
     "selected = \"#ffffff\"\n"
     "graph.cpu = \"#5fafff\"\n"
     "graph.gpu = \"#5fd75f\"\n"
     "graph.gpumem = \"#af87ff\"\n"
     "graph.mem = \"#d7d75f\"\n"
     "graph.io = \"#ff87d7\"\n"
     "graph.net = \"#5fd7d7\"\n"
     "graph.other = \"#a8a8a8\"\n"
     "step.bar = \"#5f87d7\"\n"
     "step.outlier = \"#ff5f5f\"\n"
     "mark.p50 = \"#5fd75f\"\n"
     "mark.p95 = \"#ffaf5f\"\n"
     "mark.p99 = \"#ff5f5f\"\n"
     "alert.high = \"#ff5f5f\"\n"
     "alert.med = \"#ffaf5f\"\n"
     "alert.low = \"#d7d75f\"\n"
     "ok = \"#5fd75f\"\n"
     "heat_start = \"#1c2c4c\"\n"
     "heat_mid = \"#2f9e6e\"\n"
     "heat_end = \"#f5d547\"\n"},
    {"light",
     "background = \"default\"\n"
     "default = \"default\"\n"
     "title = \"#1a1a1a\"\n"
     "border = \"#9aa0aa\"\n"
     "border.focus = \"#0055bb\"\n"
     "label = \"#4a5260\"\n"
     "dim = \"#7a808a\"\n"
     "status = \"#303030\"\n"
     "status.live = \"#107010\"\n"
     "status.paused = \"#b05a00\"\n"
     "error = \"#c00000\"\n"
     "selected = \"#000000\"\n"
     "graph.cpu = \"#0055bb\"\n"
     "graph.gpu = \"#107010\"\n"
     "graph.gpumem = \"#6a2fb0\"\n"
     "graph.mem = \"#8a6d00\"\n"
     "graph.io = \"#b0207a\"\n"
     "graph.net = \"#007a7a\"\n"
     "graph.other = \"#505050\"\n"
     "step.bar = \"#3060a0\"\n"
     "step.outlier = \"#c00000\"\n"
     "mark.p50 = \"#107010\"\n"
     "mark.p95 = \"#b05a00\"\n"
     "mark.p99 = \"#c00000\"\n"
     "alert.high = \"#c00000\"\n"
     "alert.med = \"#b05a00\"\n"
     "alert.low = \"#8a6d00\"\n"
     "ok = \"#107010\"\n"
     "heat_start = \"#dce6f5\"\n"
     "heat_mid = \"#6aa0d8\"\n"
     "heat_end = \"#c03020\"\n"},
    {"high-contrast",
     "background = \"#000000\"\n"
     "default = \"#ffffff\"\n"
     "title = \"#ffffff\"\n"
     "border = \"#ffffff\"\n"
     "border.focus = \"#ffff00\"\n"
     "label = \"#ffffff\"\n"
     "dim = \"#c0c0c0\"\n"
     "status = \"#ffffff\"\n"
     "status.live = \"#00ff00\"\n"
     "status.paused = \"#ffff00\"\n"
     "error = \"#ff0000\"\n"
     "selected = \"#ffff00\"\n"
     "graph.cpu = \"#00ffff\"\n"
     "graph.gpu = \"#00ff00\"\n"
     "graph.gpumem = \"#ff00ff\"\n"
     "graph.mem = \"#ffff00\"\n"
     "graph.io = \"#ff8700\"\n"
     "graph.net = \"#00afff\"\n"
     "graph.other = \"#ffffff\"\n"
     "step.bar = \"#00ffff\"\n"
     "step.outlier = \"#ff0000\"\n"
     "mark.p50 = \"#00ff00\"\n"
     "mark.p95 = \"#ffff00\"\n"
     "mark.p99 = \"#ff0000\"\n"
     "alert.high = \"#ff0000\"\n"
     "alert.med = \"#ffff00\"\n"
     "alert.low = \"#00ffff\"\n"
     "ok = \"#00ff00\"\n"
     "heat_start = \"#0000ff\"\n"
     "heat_mid = \"#00ff00\"\n"
     "heat_end = \"#ff0000\"\n"},
    {"monochrome",
     "background = \"default\"\n"
     "default = \"default\"\n"
     "title = \"#ffffff\"\n"
     "border = \"#808080\"\n"
     "border.focus = \"#ffffff\"\n"
     "label = \"#b2b2b2\"\n"
     "dim = \"#6c6c6c\"\n"
     "status = \"#d0d0d0\"\n"
     "status.live = \"#ffffff\"\n"
     "status.paused = \"#ffffff\"\n"
     "error = \"#ffffff\"\n"
     "selected = \"#ffffff\"\n"
     "graph.cpu = \"#d0d0d0\"\n"
     "graph.gpu = \"#d0d0d0\"\n"
     "graph.gpumem = \"#a8a8a8\"\n"
     "graph.mem = \"#a8a8a8\"\n"
     "graph.io = \"#a8a8a8\"\n"
     "graph.net = \"#a8a8a8\"\n"
     "graph.other = \"#a8a8a8\"\n"
     "step.bar = \"#b2b2b2\"\n"
     "step.outlier = \"#ffffff\"\n"
     "mark.p50 = \"#d0d0d0\"\n"
     "mark.p95 = \"#e4e4e4\"\n"
     "mark.p99 = \"#ffffff\"\n"
     "alert.high = \"#ffffff\"\n"
     "alert.med = \"#d0d0d0\"\n"
     "alert.low = \"#a8a8a8\"\n"
     "ok = \"#d0d0d0\"\n"
     "heat_start = \"#262626\"\n"
     "heat_mid = \"#767676\"\n"
     "heat_end = \"#eeeeee\"\n"},
};

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
