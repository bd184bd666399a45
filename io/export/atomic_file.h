/* atomic_file: an output file that appears whole or not at all.
 *
 * Writes go to a temporary file in the target's own directory (so the
 * final rename stays on one file system and is atomic); commit renames it
 * over the target, abort removes it. Until commit the target — an earlier
 * export the user may still want — is untouched, whatever fails. A target
 * that is a symlink has the file it points to replaced; the link stays. */
#ifndef SMTOP_ATOMIC_FILE_H
#define SMTOP_ATOMIC_FILE_H

#include <stdio.h>

#include "model/util/sm_err.h"

typedef struct atomic_file atomic_file;

/* Creates the temporary file beside path. Reads the umask: call before
 * any thread starts. NULL with err (SM_ERR_IO: "cannot write PATH: ..."). */
atomic_file *atomic_file_open(const char *path, sm_err *err);

/* The stream to write to; owned by f. */
FILE *atomic_file_stream(atomic_file *f);

/* Flushes and syncs the data, gives it the target's mode (an existing
 * target's, else 0666 less the umask) and renames it over the target.
 * Frees f. 0, or -1 with err (the temporary file removed, the target
 * untouched). */
int atomic_file_commit(atomic_file *f, sm_err *err);

/* Closes and removes the temporary file, frees f. NULL is a no-op. */
void atomic_file_abort(atomic_file *f);

#endif
