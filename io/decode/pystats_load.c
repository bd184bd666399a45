#include "io/decode/pystats_load.h"

#include <string.h>

#include "io/decode/pstats_marshal.h"
#include "io/decode/pyinstrument.h"
#include "io/decode/statsdir.h"

static int add_cb(void *ud, const pystats_func_rec *f, sm_err *err)
{
    if (pystats_win_add(ud, f) < 0)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory storing Python stats");
    return 0;
}

static int is_json(const key_info *ki, const char *key)
{
    if (ki && (ki->kind == KEY_CPROFILE || ki->kind == KEY_PYINSTRUMENT))
        return ki->kind == KEY_PYINSTRUMENT;
    size_t n = strlen(key);
    return n >= 5 && strcmp(key + n - 5, ".json") == 0;
}

int pystats_load_file(pystats_store *s, const key_info *ki, const char *key,
                      const void *data, size_t len, sm_err *err)
{
    pystats_window info;
    if (statsdir_parse_key(key, &info, err) < 0)
        return -1;
    int json = is_json(ki, key);
    if (json != (info.profiler == PYPROF_PYINSTRUMENT))
        return sm_err_set(err, SM_ERR_FORMAT, "%s file under a %s directory",
                          json ? "pyinstrument" : "cProfile",
                          json ? "cprofile" : "pyinstrument");
    pystats_win *w = pystats_win_new(s, &info);
    if (!w)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory storing Python stats");
    int rc = json ? pyinstrument_parse(data, len, add_cb, w, err)
                  : pstats_marshal_parse(data, len, add_cb, w, err);
    if (rc == 1) {
        pystats_win_set_failed(w);
        rc = 0;
    }
    if (rc == 0 && pystats_store_put(s, key, w) < 0)
        rc = sm_err_set(err, SM_ERR_NOMEM, "out of memory storing Python stats");
    if (rc < 0) {
        pystats_win_free(w);
        return -1;
    }
    return 0;
}
