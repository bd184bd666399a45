/* progress: see progress.h. */
#include "tui/text/progress.h"

#include <stdio.h>

#include "tui/text/fmt.h"

/* done/total bytes in the unit that suits the total: "0.52/2.30 GB". */
static void bytes_pair(double done, double total, char *out, size_t cap)
{
    static const char *const unit[] = {"B", "kB", "MB", "GB", "TB"};
    double div = 1;
    int u = 0;
    while (u < 4 && total >= 1000 * div) {
        div *= 1000;
        u++;
    }
    int prec = u == 0 ? 0 : total / div < 10 ? 2 : total / div < 100 ? 1 : 0;
    snprintf(out, cap, "%.*f/%.*f %s", prec, done / div, prec, total / div, unit[u]);
}

int progress_line(const scan_stats *st, int64_t now_us, int64_t after_us, char *out,
                  size_t cap)
{
    if (cap)
        out[0] = '\0';
    int64_t ran = now_us - st->pass_started_us;
    if (!st->scanning || st->pass_files <= 0 || ran < after_us || cap == 0)
        return 0;
    int64_t done = st->pass_files - st->files_pending;
    done = done < 0 ? 0 : done > st->pass_files ? st->pass_files : done;
    double read = (double)st->pass_bytes_read, total = (double)st->pass_bytes;
    if (read > total)
        total = read;   /* files grew while read */
    char bytes[64], rate[FMT_BUF], left[FMT_BUF];
    bytes_pair(read, total, bytes, sizeof bytes);
    double per_us = ran > 0 ? read / (double)ran : 0;
    int n = snprintf(out, cap, "reading %lld/%lld files, %s", (long long)done,
                     (long long)st->pass_files, bytes);
    if (per_us <= 0 || n <= 0 || (size_t)n >= cap)
        return 1;
    n += snprintf(out + n, cap - (size_t)n, ", %s", fmt_si(rate, sizeof rate, per_us * 1e6, "B/s"));
    /* Every file taken on is read: the pass lists more or ends, for a
     * time the bytes cannot foretell. */
    if (done < st->pass_files && n > 0 && (size_t)n < cap)
        snprintf(out + n, cap - (size_t)n, ", %s left",
                 fmt_duration(left, sizeof left, (total - read) / per_us));
    return 1;
}
