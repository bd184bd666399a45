/* pstats_read: the pstats meaning of a marshal value tree, and repr(). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/pstats_marshal.h"
#include "io/decode/pstats_mv.h"

static int bad(sm_err *err, const mv *v, const char *what)
{
    return sm_err_set(err, SM_ERR_FORMAT,
                      "not a pstats dump: %s at byte offset %zu", what, v->off);
}

static int as_num(const mv *v, double *out)
{
    if (v->type == 'g')
        *out = v->u.d;
    else if (v->type == 'i')
        *out = (double)v->u.i;
    else
        return -1;
    return 0;
}

/* (file, line, name) */
static int func_key(const mv *k, sm_str *file, int64_t *line, sm_str *name, sm_err *err)
{
    if (k->type != '(' || k->n != 3 || k->u.items[0]->type != 's' ||
        k->u.items[1]->type != 'i' || k->u.items[2]->type != 's')
        return bad(err, k, "function key is not a (file, line, name) tuple");
    *file = (sm_str){k->u.items[0]->u.s.p, k->u.items[0]->u.s.len};
    *line = k->u.items[1]->u.i;
    *name = (sm_str){k->u.items[2]->u.s.p, k->u.items[2]->u.s.len};
    return 0;
}

/* (pcalls, ncalls, tottime, cumtime[, callers]) — `n` items. */
static int call_tuple(const mv *v, uint32_t n, pystats_call *c, sm_err *err)
{
    if (v->type == 'i' && n == 4) {   /* old `profile` caller format: a count */
        *c = (pystats_call){v->u.i, v->u.i, 0, 0};
        return 0;
    }
    if (v->type != '(' || v->n != n)
        return bad(err, v, n == 5 ? "function stats are not a 5-tuple"
                                  : "caller stats are not a 4-tuple");
    mv *const *it = v->u.items;
    if (it[0]->type != 'i' || it[1]->type != 'i' || as_num(it[2], &c->tottime) < 0 ||
        as_num(it[3], &c->cumtime) < 0)
        return bad(err, v, "stats hold a non-number");
    c->pcalls = it[0]->u.i;
    c->ncalls = it[1]->u.i;
    return 0;
}

typedef struct callers_buf {
    pystats_caller_rec *c;
    size_t cap;
} callers_buf;

static int one_func(const mv *k, const mv *v, callers_buf *cb, pystats_func_rec *f,
                    sm_err *err)
{
    if (func_key(k, &f->file, &f->line, &f->name, err) < 0 || call_tuple(v, 5, &f->c, err) < 0)
        return -1;
    const mv *cd = v->u.items[4];
    if (cd->type != '{')
        return bad(err, cd, "callers are not a dict");
    if (cd->n > cb->cap) {
        pystats_caller_rec *nc = realloc(cb->c, cd->n * sizeof *nc);
        if (!nc)
            return sm_err_set(err, SM_ERR_NOMEM, "out of memory reading pstats callers");
        cb->c = nc;
        cb->cap = cd->n;
    }
    for (uint32_t i = 0; i < cd->n; i++) {
        pystats_caller_rec *c = &cb->c[i];
        if (func_key(cd->u.items[2 * i], &c->file, &c->line, &c->name, err) < 0 ||
            call_tuple(cd->u.items[2 * i + 1], 4, &c->c, err) < 0)
            return -1;
    }
    f->callers = cb->c;
    f->ncallers = cd->n;
    return 0;
}

int pstats_marshal_parse(const void *data, size_t len, pstats_func_cb cb, void *ud,
                         sm_err *err)
{
    mv_reader rd;
    mv *top = NULL;
    callers_buf buf = {NULL, 0};
    int rc = pstats_mv_parse(&rd, data, len, err, &top);
    if (rc == 0 && top->type != '{')
        rc = bad(err, top, "top level is not a dict");
    for (uint32_t i = 0; rc == 0 && i < top->n; i++) {
        pystats_func_rec f;
        rc = one_func(top->u.items[2 * i], top->u.items[2 * i + 1], &buf, &f, err);
        if (rc == 0)
            rc = cb(ud, &f, err);
    }
    free(buf.c);
    pstats_mv_reader_free(&rd);
    return rc;
}

/* ---- repr ---- */

typedef struct out_buf {
    char *p;
    size_t cap, n;
} out_buf;

static void put(out_buf *o, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++, o->n++)
        if (o->n + 1 < o->cap)
            o->p[o->n] = s[i];
}

static void puts_(out_buf *o, const char *s)
{
    put(o, s, strlen(s));
}

/* Shortest %.Ng that reads back exactly, with ".0" like Python's repr. */
static void put_double(out_buf *o, double d)
{
    char b[40];
    if (isnan(d)) {
        puts_(o, "nan");
        return;
    }
    if (isinf(d)) {
        puts_(o, d < 0 ? "-inf" : "inf");
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(b, sizeof b, "%.*g", prec, d);
        if (strtod(b, NULL) == d)
            break;
    }
    puts_(o, b);
    if (!strpbrk(b, ".e"))
        puts_(o, ".0");
}

static void put_str(out_buf *o, const mv *v)
{
    put(o, "'", 1);
    for (size_t i = 0; i < v->u.s.len; i++) {
        unsigned char c = (unsigned char)v->u.s.p[i];
        char b[8];
        if (c == '\'' || c == '\\')
            snprintf(b, sizeof b, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            snprintf(b, sizeof b, "\\x%02x", c);
        else
            snprintf(b, sizeof b, "%c", c);   /* UTF-8 bytes pass through */
        puts_(o, b);
    }
    put(o, "'", 1);
}

static void put_val(out_buf *o, const mv *v)
{
    char b[32];
    switch (v->type) {
    case 'N': puts_(o, "None"); break;
    case 'T': puts_(o, "True"); break;
    case 'F': puts_(o, "False"); break;
    case 'i':
        snprintf(b, sizeof b, "%lld", (long long)v->u.i);
        puts_(o, b);
        break;
    case 'g': put_double(o, v->u.d); break;
    case 's': put_str(o, v); break;
    case '(':
        puts_(o, "(");
        for (uint32_t i = 0; i < v->n; i++) {
            if (i)
                puts_(o, ", ");
            put_val(o, v->u.items[i]);
        }
        puts_(o, v->n == 1 ? ",)" : ")");
        break;
    default:
        puts_(o, "{");
        for (uint32_t i = 0; i < v->n; i++) {
            if (i)
                puts_(o, ", ");
            put_val(o, v->u.items[2 * i]);
            puts_(o, ": ");
            put_val(o, v->u.items[2 * i + 1]);
        }
        puts_(o, "}");
    }
}

int pstats_marshal_repr(const void *data, size_t len, char *out, size_t cap, sm_err *err)
{
    mv_reader rd;
    mv *top = NULL;
    int rc = pstats_mv_parse(&rd, data, len, err, &top);
    out_buf o = {out, cap, 0};
    if (rc == 0)
        put_val(&o, top);
    if (cap)
        out[o.n < cap ? o.n : cap - 1] = '\0';
    pstats_mv_reader_free(&rd);
    return rc;
}
