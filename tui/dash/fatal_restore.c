/* fatal_restore: see fatal_restore.h.
 *
 * A signal handler gets no argument to carry state, so what it needs is
 * kept in this file's static storage, written before the handlers are
 * installed and only read by them: the bytes to write and the termios to
 * restore. The handler calls only write(2), tcsetattr(3), sigaction(2)
 * and raise(3), all async-signal-safe. */
#include "tui/dash/fatal_restore.h"

#include <curses.h>
#include <signal.h>
#include <string.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>

static const int fatal_signals[] = {SIGSEGV, SIGABRT, SIGQUIT, SIGPIPE, SIGBUS, SIGFPE, SIGILL};
#define NFATAL (sizeof fatal_signals / sizeof fatal_signals[0])

static struct {
    int fd;
    size_t len;
    char bytes[512];           /* the restore sequence */
    struct termios tio;
    int have_tio;
} restore = {.fd = -1};

static void append(const char *s)
{
    if (!s || s == (const char *)-1)
        return;
    size_t n = strlen(s);
    if (restore.len + n < sizeof restore.bytes) {
        memcpy(restore.bytes + restore.len, s, n);
        restore.len += n;
    }
}

static void on_fatal(int sig)
{
    if (restore.fd >= 0) {
        size_t off = 0;
        while (off < restore.len) {
            ssize_t w = write(restore.fd, restore.bytes + off, restore.len - off);
            if (w <= 0)
                break;
            off += (size_t)w;
        }
        if (restore.have_tio)
            tcsetattr(restore.fd, TCSANOW, &restore.tio);
    }
    /* SA_RESETHAND made the action the default again: the signal, raised
     * once more, ends the process as it would have without us. */
    raise(sig);
}

int fatal_restore_install(int fd)
{
    if (!isatty(fd))
        return -1;
    restore.len = 0;
    /* Mouse reporting off (all of xterm's modes curses may have set),
     * then terminfo's own: attributes off, keypad transmit off, cursor
     * visible, alternate screen left. */
    append("\033[?1000l\033[?1002l\033[?1003l\033[?1006l\033[?1015l");
    append(tigetstr("sgr0"));
    append(tigetstr("rmkx"));
    append(tigetstr("cnorm"));
    append(tigetstr("rmcup"));
    append("\r\n");
    restore.have_tio = tcgetattr(fd, &restore.tio) == 0;
    restore.fd = fd;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal;
    sa.sa_flags = SA_RESETHAND | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NFATAL; i++)
        sigaction(fatal_signals[i], &sa, NULL);
    return 0;
}

void fatal_restore_remove(void)
{
    if (restore.fd < 0)
        return;
    for (size_t i = 0; i < NFATAL; i++)
        signal(fatal_signals[i], SIG_DFL);
    restore.fd = -1;
}
