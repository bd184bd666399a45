/* view: pure navigation state transitions (see view.h). */
#include "tui/panes/view.h"

#include "model/util/name_match.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define VIEW_SPAN_MIN_US (30LL * 1000000)
#define VIEW_SPAN_MAX_US (7LL * 24 * 3600 * 1000000)
/* Five minutes: ten system files per node, enough to see a trend while
 * braille still shows each 500 ms sample on a wide terminal. */
#define VIEW_SPAN_DEFAULT_US (5LL * 60 * 1000000)

void view_init(view_state *v, chart_glyphs g)
{
    memset(v, 0, sizeof *v);
    v->live = 1;
    v->span_us = VIEW_SPAN_DEFAULT_US;
    v->home_span_us = VIEW_SPAN_DEFAULT_US;
    v->glyphs = g;
}

void view_window(const view_state *v, int64_t newest_us, int64_t *t0, int64_t *t1)
{
    if (v->step_focus) {
        *t0 = v->step_t0_us;
        *t1 = v->step_t1_us;
        return;
    }
    int64_t end = v->live ? newest_us : v->end_us;
    /* The newest sample must fall inside the half-open window. */
    if (v->live && end > 0)
        end += 1;
    *t1 = end;
    *t0 = end - v->span_us;
}

void view_focus_step(view_state *v, long long step, int64_t t0_us, int64_t t1_us)
{
    v->step_focus = 1;
    v->step = step;
    v->step_t0_us = t0_us;
    v->step_t1_us = t1_us > t0_us ? t1_us : t0_us + 1;
    v->step_node[0] = '\0';
}

void view_focus_node(view_state *v, const char *node)
{
    snprintf(v->step_node, sizeof v->step_node, "%s", node ? node : "");
}

void view_clear_step(view_state *v)
{
    v->step_focus = 0;
}

void view_leave_step(view_state *v)
{
    if (!v->step_focus)
        return;
    int64_t mid = v->step_t0_us + (v->step_t1_us - v->step_t0_us) / 2;
    v->step_focus = 0;
    v->live = 0;
    v->paused = 0;
    v->end_us = mid + v->span_us / 2;
}

view_esc view_esc_target(const view_state *v)
{
    if (v->zoomed)
        return VIEW_ESC_ZOOM;
    return v->step_focus ? VIEW_ESC_STEP : VIEW_ESC_NONE;
}

void view_zoom(view_state *v, int in)
{
    int64_t s = in ? v->span_us / 2 : v->span_us * 2;
    if (s < VIEW_SPAN_MIN_US)
        s = VIEW_SPAN_MIN_US;
    if (s > VIEW_SPAN_MAX_US)
        s = VIEW_SPAN_MAX_US;
    if (!v->live) {
        /* Keep the centre of a scrubbed window where it was. */
        v->end_us += (s - v->span_us) / 2;
    }
    v->span_us = s;
}

void view_scrub(view_state *v, int forward, int64_t newest_us)
{
    int64_t end = v->live ? newest_us + 1 : v->end_us;
    int64_t step = v->span_us / 2;
    if (forward) {
        end += step;
        if (end > newest_us) {
            view_go_live(v);
            return;
        }
    } else {
        end -= step;
    }
    v->live = 0;
    v->end_us = end;
}

void view_go_live(view_state *v)
{
    v->step_focus = 0;
    v->live = 1;
    v->paused = 0;
    v->end_us = 0;
    v->span_us = v->home_span_us > 0 ? v->home_span_us : VIEW_SPAN_DEFAULT_US;
}

void view_fit(view_state *v, int64_t first_us, int64_t newest_us)
{
    if (first_us <= 0 || newest_us < first_us)
        return;
    /* Live, so the window ends one past the newest sample: it starts at
     * the first one. */
    int64_t s = newest_us - first_us + 1;
    if (s < VIEW_SPAN_MIN_US)
        s = VIEW_SPAN_MIN_US;
    if (s > VIEW_SPAN_MAX_US)
        s = VIEW_SPAN_MAX_US;
    v->step_focus = 0;
    v->live = 1;
    v->paused = 0;
    v->end_us = 0;
    v->span_us = s;
}

void view_home_default(view_state *v)
{
    v->home_span_us = VIEW_SPAN_DEFAULT_US;
    v->span_us = VIEW_SPAN_DEFAULT_US;
}

int view_untouched(const view_state *v)
{
    return v->live && !v->paused && !v->step_focus && v->span_us == v->home_span_us;
}

void view_toggle_pause(view_state *v, int64_t newest_us)
{
    if (v->paused || !v->live) {
        view_go_live(v);
        return;
    }
    v->paused = 1;
    v->live = 0;
    v->end_us = newest_us + 1;
}

int view_filter_match(const char *pattern, const char *id)
{
    return name_match(pattern, id);
}

int view_node_visible(const view_state *v, const char *node_id)
{
    return view_filter_match(v->filter, node_id);
}

void view_cycle_process(view_state *v, const char *const *ids, size_t n, int dir)
{
    size_t cur = n;   /* n: the whole node */
    for (size_t i = 0; i < n; i++)
        if (!strcmp(ids[i], v->process))
            cur = i;
    size_t next = n < 2 ? n : (cur + (dir > 0 ? 1 : n)) % (n + 1);
    snprintf(v->process, sizeof v->process, "%s", next < n ? ids[next] : "");
}
