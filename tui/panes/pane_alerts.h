/* pane_alerts: the alerts pane — every rule, most severe first: triggered
 * rules by severity (high, medium, low) with their counts and the one-line
 * reason, then ok, then no-data rules. Zoomed (Enter) it shows the
 * selected rule's parameters, the span of its worst violation and the
 * datapoints that crossed the threshold. `J` jumps the dashboard's time
 * window to the selected alert's span.
 *
 * The pane owns the rule parameters (defaults +
 * $XDG_CONFIG_HOME/smtop/rules.conf, then `smtop --rule` overrides via
 * pane_alerts_configure, then `:set`) but never evaluates them: it draws
 * the results of the loader's latest snapshot (dash_ext.snap), which the
 * loader rebuilds when the model or a parameter changed. */
#ifndef SMTOP_PANE_ALERTS_H
#define SMTOP_PANE_ALERTS_H

#include <stddef.h>
#include <stdint.h>

#include "model/view/viewsnap.h"
#include "model/rules/rules.h"
#include "tui/panes/pane.h"

extern const pane_vtbl pane_alerts_vtbl;

/* Rule indices of s in display order (see above) into idx (rules_count()
 * entries). Pure. */
void pane_alerts_order(const viewsnap *s, size_t *idx);

/* The key facts of a result, for a row too narrow for the columns: the
 * rule's name, when it fired its worst node (named `who`, or res->node
 * when who is NULL) and how far it went, then fired/checked ("Straggler
 * algo-3 +29% 1/4"), into buf. Returns snprintf's count. Pure. */
int pane_alerts_facts(const rule_result *res, const char *who, char *buf, size_t cap);
/* msg without its leading node and the ": " or " " after it (what the
 * facts already say); msg itself when it does not start so. Pure. */
const char *pane_alerts_message_tail(const char *msg, const char *node);

/* Applies a command line typed after ':' — "set Name.param=value" (the
 * word "set" optional) — to the rule parameters of an alerts pane
 * instance; the caller hands pane_alerts_spec(line) to the loader's
 * deriver, which re-evaluates. 0 and a confirmation in msg, or -1 with
 * err (SM_ERR_USAGE). */
int pane_alerts_command(pane *p, const char *line, char *msg, size_t cap,
                        sm_err *err);

/* The "Name.param=value" part of a command line (inside line). */
const char *pane_alerts_spec(const char *line);
/* The pane's rule parameters (for the builder's copy). */
const rules *pane_alerts_rules(const pane *p);

/* Rebuilds the rule set of an alerts pane instance from defaults,
 * rules.conf (unless o->no_config) and o's --rule overrides, as `smtop
 * report` does (report_rules_configure). 0, or -1 with err naming the bad
 * file line or override; the pane keeps its old rules then. */
struct report_rules_opts;
int pane_alerts_configure(pane *p, const struct report_rules_opts *o,
                          sm_err *err);

/* The view window that shows [t0, t1) with some context around it: sets
 * v->live = 0, v->span_us (>= 30 s) and v->end_us. Pure. */
void pane_alerts_jump_view(view_state *v, int64_t t0_us, int64_t t1_us);

#endif
