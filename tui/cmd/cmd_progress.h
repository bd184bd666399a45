/* cmd_progress: `report`'s progress line on stderr while it reads a job
 * (issue 35): the words of tui/text/progress.h, redrawn in place a few
 * times a second once the read has taken PROGRESS_AFTER_US, and wiped
 * when it ends, so the terminal keeps only the report. Only when stderr
 * is a terminal: a pipe or a file never gets it, and stdout never does. */
#ifndef SMTOP_CMD_PROGRESS_H
#define SMTOP_CMD_PROGRESS_H

#include "io/scan/scanner.h"

typedef struct cmd_progress cmd_progress;

/* Starts showing sc's passes on stderr when it is a terminal. NULL when
 * it is not (or the thread cannot start): nothing is shown, and
 * cmd_progress_stop(NULL) does nothing. */
cmd_progress *cmd_progress_start(scanner *sc);

/* Stops, wipes the line if one was drawn, and frees p. */
void cmd_progress_stop(cmd_progress *p);

#endif
