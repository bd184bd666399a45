/* linhist: a linear histogram over [0, hi] for a quantile sketch of a
 * bounded metric (utilization in percent: 0..100).
 *
 * Bin i counts the values nearest to i * step (|v - i*step| <= step / 2),
 * so reading a value back as its bin's centre is off by at most step / 2:
 * 0.05 points for utilization at step 0.1, with 1001 bins, of which only
 * the span the values reach is stored, 1 to 4 bytes a count. The
 * log sketch's relative bound (1 %) is 0.9 points at 90 %, which is why a
 * bounded metric uses this instead. Values outside [0, hi] are not taken
 * (the caller keeps them elsewhere). No I/O; not thread-safe. */
#ifndef SMTOP_LINHIST_H
#define SMTOP_LINHIST_H

#include <stddef.h>
#include <stdint.h>

typedef struct linhist linhist;

/* Bins 0 .. round(hi / step). NULL on OOM or when hi / step is not in
 * [1, 1e6]. */
linhist *linhist_new(double hi, double step);
void linhist_free(linhist *h);

/* Whether v would be taken: in [0, hi] and its bin not full (a bin holds
 * up to 2^32 - 1 values: 136 years at one sample a second). */
int linhist_takes(const linhist *h, double v);
/* Makes room so that linhist_add(h, v, n) cannot fail: 0, 1 when v is not
 * taken (nothing changes), -1 on OOM (h unchanged). */
int linhist_reserve(linhist *h, double v, uint64_t n);
/* Adds n copies of v when linhist_takes(h, v) (returns 1); else returns 0
 * and changes nothing; -1 on OOM (h unchanged; never after a reserve of
 * this v and n). Exactly one count is added per copy, up to the bin's
 * room, so callers check linhist_takes first for n > 1. */
int linhist_add(linhist *h, double v, uint64_t n);
/* The same steps with v's bin found once (a sample's reserve and add
 * would otherwise find it twice each): linhist_bin is v's bin when v is
 * taken, else LINHIST_NOT_TAKEN; linhist_reserve_bin(h, bin, n) then
 * makes room as linhist_reserve(h, v, n) (0, or -1 on OOM), after which
 * linhist_add_bin(h, bin, n) adds as linhist_add(h, v, n) and cannot
 * fail. */
#define LINHIST_NOT_TAKEN SIZE_MAX
size_t linhist_bin(const linhist *h, double v);
int linhist_reserve_bin(linhist *h, size_t bin, uint64_t n);
void linhist_add_bin(linhist *h, size_t bin, uint64_t n);
/* One value at a time without a reserve and an add (issue 28: a series'
 * block of samples): 1 when adding one v only increments stored slot
 * *slot (no re-layout, no wider counts), 0 when linhist_add must do
 * more, -1 when v is not taken. linhist_bump(h, slot) then adds it, as
 * linhist_add(h, v, 1) would. */
int linhist_slot(const linhist *h, double v, size_t *slot);
void linhist_bump(linhist *h, size_t slot);
uint64_t linhist_total(const linhist *h);
/* The k-th smallest value taken (0-based, k < total) as its bin's centre. */
double linhist_kth(const linhist *h, uint64_t k);
/* Calls f(ud, centre, count) for every non-empty bin, lowest first. */
void linhist_visit(const linhist *h, void (*f)(void *ud, double v, uint64_t n), void *ud);
double linhist_step(const linhist *h);
size_t linhist_memory_bytes(const linhist *h);

#endif
