/* fatal_restore: if smtop dies of a fatal signal (SIGSEGV, SIGABRT,
 * SIGQUIT, SIGPIPE, SIGBUS, SIGFPE, SIGILL) while the dashboard owns the
 * terminal, an async-signal-safe handler puts the terminal back — leaves
 * the alternate screen, shows the cursor, turns mouse reporting and the
 * keypad mode off, resets attributes, restores the line discipline —
 * and then re-raises the signal, so the exit status and any core dump
 * are the signal's own. */
#ifndef SMTOP_FATAL_RESTORE_H
#define SMTOP_FATAL_RESTORE_H

/* Call after newterm() (terminfo is loaded) and before cbreak()/noecho()
 * change the terminal: the line discipline of fd now is what is restored.
 * Installs the handlers. 0, or -1 when fd is not a terminal (nothing
 * installed). */
int fatal_restore_install(int fd);

/* Removes the handlers (default actions again); after endwin(). */
void fatal_restore_remove(void);

#endif
