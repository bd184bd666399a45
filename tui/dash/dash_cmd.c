/* dash_cmd: the dashboard's `:` command line: `q` (or `quit`) quits, and
 * `set Name.param=value` (or just `Name.param=value`) changes a
 * rule threshold: the alerts pane checks it, the loader's viewbuild gets it
 * and re-evaluates the held data at once (loader_poke). Keys while the prompt is open all go here, so '=' or
 * digits do not zoom or jump the view. The start-up rule options
 * (`smtop --rule`, rules.conf) reach the same pane through
 * dash_cmd_configure_rules, so `:set` always works on top of them. */
#include "tui/dash/dash_internal.h"

#include <stdio.h>
#include <string.h>

#include "tui/panes/pane_alerts.h"

static dash_pane *find_alerts(dash *d)
{
    for (size_t i = 0; i < d->npanes; i++)
        if (d->panes[i].vt == &pane_alerts_vtbl && d->panes[i].p)
            return &d->panes[i];
    return NULL;
}

int dash_cmd_configure_rules(dash *d, sm_err *err)
{
    dash_pane *alerts = find_alerts(d);
    if (!alerts || !d->o->rules)
        return 0;
    return pane_alerts_configure(alerts->p, d->o->rules, err);
}

void dash_cmd_begin(dash *d)
{
    d->cmd_edit = 1;
    d->cmd[0] = '\0';
    d->st_last[0] = '\0';
}

/* Runs the command line; the result goes to the status line. */
static void run(dash *d)
{
    char msg[256] = "";
    sm_err err = {0};
    dash_pane *alerts = find_alerts(d);
    if (!d->cmd[0])
        return;
    /* vi's quit, for the hands that type it. */
    if (!strcmp(d->cmd, "q") || !strcmp(d->cmd, "q!") || !strcmp(d->cmd, "quit") ||
        !strcmp(d->cmd, "qa")) {
        d->quit = DASH_QUIT_KEY;
        return;
    }
    if (!alerts) {
        dash_notice(d, "no alerts pane: rule parameters cannot be set");
        return;
    }
    int rc = pane_alerts_command(alerts->p, d->cmd, msg, sizeof msg, &err);
    if (rc == 0 && d->dv)
        rc = viewbuild_rule_override(d->dv, pane_alerts_spec(d->cmd), &err);
    if (rc == 0 && d->ld)
        loader_poke(d->ld);
    dash_notice(d, rc == 0 ? msg : err.msg);
    alerts->dirty = 1;
}

void dash_cmd_key(dash *d, int ch)
{
    size_t n = strlen(d->cmd);
    if (ch == 27) {
        d->cmd_edit = 0;
    } else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
        d->cmd_edit = 0;
        run(d);
    } else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
        if (n > 0)
            d->cmd[n - 1] = '\0';
        else
            d->cmd_edit = 0;   /* backspace on an empty prompt closes it, as in vi */
    } else if (ch >= 0x20 && ch < 0x7F && n + 1 < sizeof d->cmd) {
        d->cmd[n] = (char)ch;
        d->cmd[n + 1] = '\0';
    } else {
        return;
    }
    d->st_last[0] = '\0';
}
