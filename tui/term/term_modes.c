/* term_modes: see term_modes.h. */
#include "tui/term/term_modes.h"

#include <curses.h>

void term_modes_set(void)
{
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
}
