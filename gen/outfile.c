/* outfile.c: write files atomically: a temporary beside the target, then
 * rename, so an error never leaves half a kernel in out/. */
#include "outfile.h"
#include "util.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *write_temp(const char *path, const char *text)
{
    static const char suffix[] = ".tmpXXXXXX";
    size_t n = strlen(path);
    char *tmp = xmalloc(n + sizeof suffix);
    memcpy(tmp, path, n);
    memcpy(tmp + n, suffix, sizeof suffix);
    int fd = mkstemp(tmp);
    if (fd < 0) die("%s: cannot create: %s", tmp, strerror(errno));
    size_t len = strlen(text), done = 0;
    while (done < len) {
        ssize_t w = write(fd, text + done, len - done);
        if (w < 0) { unlink(tmp); die("%s: write failed: %s", tmp, strerror(errno)); }
        done += (size_t)w;
    }
    if (fchmod(fd, 0644) != 0 || close(fd) != 0) { unlink(tmp); die("%s: close failed", tmp); }
    return tmp;
}

void write_files_atomic(const char *const *paths, const char *const *texts, int n)
{
    char *tmp[8];
    for (int i = 0; i < n; i++) tmp[i] = write_temp(paths[i], texts[i]);
    for (int i = 0; i < n; i++) {
        if (rename(tmp[i], paths[i]) != 0) {
            for (int j = i; j < n; j++) unlink(tmp[j]);
            die("%s: cannot rename into place: %s", paths[i], strerror(errno));
        }
        free(tmp[i]);
    }
}
