/* tmpdir: removing a test's scratch directory, which every test that
 * makes one (mkdtemp) does at its end. Header-only, test code. */
#ifndef SMTOP_TEST_TMPDIR_H
#define SMTOP_TEST_TMPDIR_H

#include <stdio.h>
#include <stdlib.h>

/* rm -rf DIR: 0 when done, -1 when the path does not fit or rm failed. */
static inline int tmpdir_remove(const char *dir)
{
    char cmd[4200];
    int n = snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (n < 0 || (size_t)n >= sizeof cmd)
        return -1;
    return system(cmd) == 0 ? 0 : -1;
}

#endif
