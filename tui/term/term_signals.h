/* term_signals: the exit signals of a screen, read from a descriptor its
 * loop polls instead of a handler: no handler, no global. */
#ifndef SMTOP_TERM_SIGNALS_H
#define SMTOP_TERM_SIGNALS_H

/* Blocks SIGINT/SIGTERM/SIGHUP in this thread (and every thread started
 * later) and returns a signalfd a screen's loop polls. -1 when the mask or
 * the descriptor cannot be had (the signals then act as by default). */
int term_block_signals(void);

#endif
