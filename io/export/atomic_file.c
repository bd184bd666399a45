/* atomic_file: see atomic_file.h. */
#include "io/export/atomic_file.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct atomic_file {
    FILE *fp;
    char target[PATH_MAX];   /* the symlink's target when path is one */
    char tmp[PATH_MAX + 32];
    mode_t mode;
};

/* Copies src into out; -1 with errno ENAMETOOLONG when it does not fit. */
static int copy_path(char *out, size_t cap, const char *a, const char *sep, const char *b)
{
    if (snprintf(out, cap, "%s%s%s", a, sep, b) < (int)cap)
        return 0;
    errno = ENAMETOOLONG;
    return -1;
}

/* The file a path names, following a symlink to the file it points to
 * (which need not exist yet); the path itself otherwise. -1 with errno. */
static int resolve_target(const char *path, char *out, size_t cap)
{
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode))
        return copy_path(out, cap, path, "", "");
    char dir[PATH_MAX], link[PATH_MAX];
    ssize_t n = readlink(path, link, sizeof link - 1);
    if (n < 0)
        return -1;
    link[n] = '\0';
    if (link[0] == '/')
        return copy_path(out, cap, link, "", "");
    snprintf(dir, sizeof dir, "%s", path);
    return copy_path(out, cap, dirname(dir), "/", link);
}

/* The mode the result gets: an existing target keeps its own. */
static mode_t target_mode(const char *target)
{
    struct stat st;
    if (stat(target, &st) == 0)
        return st.st_mode & 07777;
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

atomic_file *atomic_file_open(const char *path, sm_err *err)
{
    atomic_file *f = calloc(1, sizeof *f);
    if (!f)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory"), NULL;
    if (resolve_target(path, f->target, sizeof f->target) != 0) {
        sm_err_set(err, SM_ERR_IO, "cannot write %s: %s", path, strerror(errno));
        free(f);
        return NULL;
    }
    char dir[PATH_MAX], base[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", f->target);
    snprintf(base, sizeof base, "%s", f->target);
    snprintf(f->tmp, sizeof f->tmp, "%s/.%s.XXXXXX", dirname(dir), basename(base));
    f->mode = target_mode(f->target);
    int fd = mkstemp(f->tmp);
    if (fd < 0 || !(f->fp = fdopen(fd, "w"))) {
        sm_err_set(err, SM_ERR_IO, "cannot write %s: %s", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(f->tmp);
        }
        free(f);
        return NULL;
    }
    return f;
}

FILE *atomic_file_stream(atomic_file *f)
{
    return f->fp;
}

int atomic_file_commit(atomic_file *f, sm_err *err)
{
    int fd = fileno(f->fp);
    int bad = fflush(f->fp) != 0 || fchmod(fd, f->mode) != 0 || fsync(fd) != 0;
    int e = errno;
    if (fclose(f->fp) != 0 && !bad)
        bad = 1, e = errno;
    f->fp = NULL;
    if (!bad && rename(f->tmp, f->target) != 0)
        bad = 1, e = errno;
    if (bad) {
        sm_err_set(err, SM_ERR_IO, "cannot write %s: %s", f->target, strerror(e));
        unlink(f->tmp);
    }
    free(f);
    return bad ? -1 : 0;
}

void atomic_file_abort(atomic_file *f)
{
    if (!f)
        return;
    if (f->fp)
        fclose(f->fp);
    unlink(f->tmp);
    free(f);
}
