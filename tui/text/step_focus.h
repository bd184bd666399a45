/* step_focus: the millisecond clock a step focus's window is shown with
 * (the header, the System and Python panes). No curses, no model; which
 * step an alert's span is, the loader looks up (model/query/step_event.h). */
#ifndef SMTOP_STEP_FOCUS_H
#define SMTOP_STEP_FOCUS_H

#include <stddef.h>
#include <stdint.h>


/* "12:03:04.120": local time of day with milliseconds, since a step
 * window is usually shorter than a second. Returns buf. */
char *step_focus_clock(char *buf, size_t cap, int64_t t_us);

#endif
