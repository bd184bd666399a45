/* pystats_take: a decoder's window records into the store; see
 * pystats.h (pystats_store_take). */
#include "model/pystats/pystats.h"
#include "model/pystats/pystats_pool.h"

static int drop_building(pystats_store *s)
{
    pystats_win_free(s->building);
    s->building = NULL;
    return -1;
}

int pystats_store_take(void *ud, const sm_pywindow *w)
{
    pystats_store *s = ud;
    switch (w->what) {
    case SM_PY_BEGIN:
        pystats_win_free(s->building);
        s->building = pystats_win_new(s, w->info);
        return s->building ? 0 : -1;
    case SM_PY_FUNC:
        if (!s->building || pystats_win_add(s->building, w->func) < 0)
            return drop_building(s);
        return 0;
    case SM_PY_FAILED:
    case SM_PY_END:
        if (!s->building)
            return -1;
        if (w->what == SM_PY_FAILED)
            pystats_win_set_failed(s->building);
        if (pystats_store_put(s, w->key, s->building) < 0)
            return drop_building(s);
        s->building = NULL;
        return 0;
    default:
        drop_building(s);
        return 0;
    }
}
