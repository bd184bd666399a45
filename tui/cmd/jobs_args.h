/* jobs_args: `smtop jobs`'s command line, parsed once into the options
 * (jobs_args, tui/jobs/jobs_screen.h) shared by the --json writer and the
 * list screen. */
#ifndef SMTOP_JOBS_ARGS_H
#define SMTOP_JOBS_ARGS_H

#include <stdio.h>

#include "tui/jobs/jobs_screen.h"

/* Parses argv[1..argc). Returns 0 to run, 1 for --help (printed), -1 on a
 * usage error (printed with a hint). */
int jobs_args_parse(jobs_args *a, int argc, char **argv);

/* The usage text. */
void jobs_args_usage(FILE *f);

#endif
