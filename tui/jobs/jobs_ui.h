/* jobs_ui: the state of the job-list screen and its drawing, shared by
 * jobs_screen.c (loop, keys) and jobs_draw.c (frame). Internal to tui/jobs. */
#ifndef SMTOP_JOBS_UI_H
#define SMTOP_JOBS_UI_H

#include <curses.h>
#include <stddef.h>
#include <stdint.h>

#include "io/jobs/jobs_feed.h"
#include "tui/jobs/jobs_screen.h"
#include "tui/theme/theme.h"

#define JOBS_MAX_ROWS 256   /* rows on screen at most */

typedef struct jobs_ui {
    const jobs_args *a;
    jobs_open_fn open;         /* Enter (jobs_screen.h) */
    void *open_ud;
    jobs_feed *feed;
    theme *th;
    SCREEN *scr;
    int sig_fd;
    int ascii;                 /* no UTF-8: ASCII sort marks */
    char where[128];           /* "SageMaker us-east-1" */
    /* the view */
    char filter[128];
    char filter_before[128];
    int editing, help, quit;
    jobcol sort;
    int desc, faults;
    /* cursor: kept on the job by name across refreshes and re-sorts */
    char cur_name[256];
    size_t cur, top;
    /* the last view: indices into the list, and the rows on screen */
    uint32_t *idx;
    size_t nidx, idx_cap, total;
    jobrow *page;              /* rows top..top+npage (copies) */
    size_t npage;
    char notice[1024];
    uint64_t gen_seen;
    int dirty;
} jobs_ui;

/* One row of the list's key table (jobs_screen.c): the codes that fire
 * it, its help line (what NULL: none), its status-line hint (NULL: none)
 * and what it does (0 stay, 1 quit, 2 quit at once). */
#define JOBS_KEY_CODES 8
typedef struct jobs_keydef {
    int codes[JOBS_KEY_CODES];   /* 0-terminated */
    const char *keys, *what, *hint;
    int (*act)(jobs_ui *u, int ch);
} jobs_keydef;
/* The rows, in help order, ending with keys NULL. */
extern const jobs_keydef jobs_keys[];

/* Rebuilds the view from the feed's list (under its lock), keeps the
 * cursor on its job, copies the rows on screen and tells the feed which
 * they are. */
void jobs_ui_refresh(jobs_ui *u);

/* Draws the whole frame. */
void jobs_ui_draw(jobs_ui *u);

/* Rows the table has on this terminal. */
int jobs_ui_rows(void);

#endif
