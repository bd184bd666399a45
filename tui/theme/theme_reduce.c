/* theme_reduce: nearest-color reduction of 24-bit RGB to the xterm 256- and
 * 16-color palettes. Pure. */
#include "tui/theme/theme_internal.h"

/* xterm's default values for the 16 ANSI colors. */
static const unsigned ansi16[16] = {
    0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
    0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff};
/* Levels of the 6x6x6 cube (indices 16..231). */
static const int cube[6] = {0, 95, 135, 175, 215, 255};

static long dist2(unsigned a, unsigned b)
{
    long dr = (long)((a >> 16) & 0xFF) - (long)((b >> 16) & 0xFF);
    long dg = (long)((a >> 8) & 0xFF) - (long)((b >> 8) & 0xFF);
    long db = (long)(a & 0xFF) - (long)(b & 0xFF);
    return dr * dr + dg * dg + db * db;
}

/* RGB of a 256-color index from 16 up. */
static unsigned xterm_rgb(int idx)
{
    if (idx >= 232) {
        unsigned g = (unsigned)(8 + 10 * (idx - 232));
        return g << 16 | g << 8 | g;
    }
    idx -= 16;
    return (unsigned)cube[idx / 36] << 16 | (unsigned)cube[(idx / 6) % 6] << 8 |
           (unsigned)cube[idx % 6];
}

int theme_reduce_256(unsigned rgb)
{
    /* The 240 candidates are few enough for an exhaustive search, which
     * is exactly "nearest" where per-channel rounding is not. */
    int best = 16;
    long bd = dist2(rgb, xterm_rgb(16));
    for (int i = 17; i < 256; i++) {
        long d = dist2(rgb, xterm_rgb(i));
        if (d < bd)
            bd = d, best = i;
    }
    return best;
}

/* Plain RGB distance would turn muted colors gray in 16-color mode (a
 * soft green is nearer to gray than to ANSI green), and every graph would
 * look alike; so grays only stand in for nearly gray colors, and colored
 * input maps to the nearest of the twelve chromatic entries. */
#define GRAY_CHROMA 48

static int nearest_of(unsigned rgb, const int *idx, int n)
{
    int best = idx[0];
    long bd = dist2(rgb, ansi16[idx[0]]);
    for (int i = 1; i < n; i++) {
        long d = dist2(rgb, ansi16[idx[i]]);
        if (d < bd)
            bd = d, best = idx[i];
    }
    return best;
}

int theme_reduce_16(unsigned rgb)
{
    static const int grays[] = {0, 8, 7, 15};
    static const int chroma[] = {1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14};
    int r = (int)(rgb >> 16) & 0xFF, g = (int)(rgb >> 8) & 0xFF, b = (int)rgb & 0xFF;
    int mx = r > g ? (r > b ? r : b) : (g > b ? g : b);
    int mn = r < g ? (r < b ? r : b) : (g < b ? g : b);
    if (mx - mn < GRAY_CHROMA)
        return nearest_of(rgb, grays, 4);
    return nearest_of(rgb, chroma, 12);
}
