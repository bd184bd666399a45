/* jobs_screen: the `smtop jobs` list — a k9s/htop-like table of training
 * jobs kept current by a jobs_feed thread, so keys never wait on the
 * network. Enter opens the selected job's dashboard; Esc there comes
 * back with the cursor on the same job. */
#ifndef SMTOP_JOBS_SCREEN_H
#define SMTOP_JOBS_SCREEN_H

#include "tui/jobs/jobs_args.h"

/* Runs the list until q, Ctrl-C or a signal. Returns the exit status
 * (commands.h), with SMTOP_EXIT_NOW when a dashboard left a thread hung
 * in a request. */
int jobs_screen_run(const jobs_args *a);

#endif
