/* jobs_cells: the columns of the job list — titles, widths, which ones
 * fit a terminal's width, and each row's cell text (sanitized: names and
 * statuses come from the API or from folder names). No curses. */
#ifndef SMTOP_JOBS_CELLS_H
#define SMTOP_JOBS_CELLS_H

#include <stddef.h>

#include "model/jobs/joblist.h"

/* The columns shown at `cols` terminal columns, in display order, into
 * out[JOBCOL_COUNT]; returns how many. The name column always shows and
 * takes what the others leave (*name_w). */
size_t jobs_cells_layout(int cols, jobcol *out, int *name_w);

/* The fixed width of column c (the name's minimum for JOBCOL_NAME). */
int jobs_cells_width(jobcol c);

/* The header title of c padded to w columns as its cells align, with
 * the sort mark when c is the sort column (ascii: '^'/'v', else the
 * arrows). */
void jobs_cells_title(jobcol c, int w, int sorted, int desc, int ascii, char *out,
                      size_t cap);

/* Row r's text for column c at width w (sanitized, cut with '~'). */
void jobs_cells_text(const jobrow *r, jobcol c, int w, double now_s, char *out, size_t cap);

#endif
