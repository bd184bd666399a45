/* pread_all: the plain-read baseline for the ingest benchmark. Walks DIR
 * (nftw, no symlinks followed) and preads every regular file whole into
 * one reused buffer, touching nothing else: the floor for any reader of
 * the same files. Prints the files and bytes read.
 *
 *   pread_all DIR */
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char *buf;
static size_t cap;
static long long files, bytes;

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)ftw;
    if (type != FTW_F || !S_ISREG(st->st_mode))
        return 0;
    if ((size_t)st->st_size > cap) {
        free(buf);
        cap = (size_t)st->st_size;
        if (!(buf = malloc(cap)))
            return 1;
    }
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    ssize_t r;
    off_t off = 0;
    while ((r = pread(fd, buf + off, cap - (size_t)off, off)) > 0)
        off += r;
    close(fd);
    files++;
    bytes += off;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    if (nftw(argv[1], visit, 64, FTW_PHYS) != 0) {
        fprintf(stderr, "pread_all: cannot walk %s\n", argv[1]);
        return 1;
    }
    printf("%lld files, %lld bytes\n", files, bytes);
    return 0;
}
