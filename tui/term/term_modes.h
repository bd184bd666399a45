/* term_modes: the curses input and cursor modes every full-screen view of
 * smtop runs in (the dashboard, the job list), set in one place so the
 * two answer keys, Esc and the cursor alike. */
#ifndef SMTOP_TERM_MODES_H
#define SMTOP_TERM_MODES_H

/* On the current screen (after set_term, and after fatal_restore_install
 * where that is used: it saves the line discipline these change): keys
 * one at a time, unechoed, Return not mapped, function keys decoded,
 * reads that do not block, Esc alone after 25 ms, the cursor hidden. */
void term_modes_set(void);

#endif
