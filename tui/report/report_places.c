/* report_places: the places a job was read from; see report_places.h. */
#include "tui/report/report_places.h"

#include <stdlib.h>
#include <string.h>

#include "io/source/source_union.h"
#include "model/jobs/jobplace.h"
#include "tui/text/sanitize.h"

static const char *status_of(const union_place *p)
{
    return jobplace_status_name(source_union_place_status(p));
}

json_t *report_places_json(source *src)
{
    union_place pl[JOBPLACE_KINDS * 2];
    size_t n = source_union_places(src, pl, sizeof pl / sizeof pl[0]);
    if (!source_union_is(src))
        return NULL;
    json_t *arr = json_array();
    for (size_t i = 0; arr && i < n && i < sizeof pl / sizeof pl[0]; i++) {
        const union_place *p = &pl[i];
        json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:s, s:s, s:I, s:o}",
                                             "place", jobplace_name(p->kind),
                                             "label", jobplace_label(p->kind), "url", p->url,
                                             "read_as", p->at, "status", status_of(p),
                                             "objects", (json_int_t)p->keys,
                                             "error", p->error[0] ? json_string(p->error)
                                                                  : json_null()));
    }
    return arr;
}

static const char *field(const json_t *o, const char *key, char *buf, size_t cap)
{
    const char *s = json_string_value(json_object_get(o, key));
    sanitize_text(s ? s : "", s ? strlen(s) : 0, buf, cap, (int)cap - 1);
    return buf;
}

void report_places_print_text(const json_t *obj, FILE *f)
{
    const json_t *arr = json_object_get(obj, "trace_sources"), *p;
    size_t i;
    json_array_foreach(arr, i, p) {
        char url[1200], label[64], st[32], err[1600];
        field(p, "url", url, sizeof url);
        field(p, "label", label, sizeof label);
        field(p, "status", st, sizeof st);
        fprintf(f, "%s%s (%s): ", i ? "              " : "places:       ", url, label);
        if (!strcmp(st, "read"))
            fprintf(f, "%lld objects\n",
                    (long long)json_integer_value(json_object_get(p, "objects")));
        else if (!strcmp(st, "unreadable"))
            fprintf(f, "%s\n", field(p, "error", err, sizeof err));
        else
            fprintf(f, "%s\n", !strcmp(st, "empty") ? "nothing there" : "not listed");
    }
}
