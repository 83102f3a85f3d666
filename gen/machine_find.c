/* machine_find.c: where the machine files are (installed or in the source
 * tree), and --machine NAME to a file there. */
#define _XOPEN_SOURCE 700   /* realpath */
#include "machine_find.h"
#include "util.h"
#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef GEMMGEN_MACHINES_DIR
#define GEMMGEN_MACHINES_DIR "machines"
#endif
#ifndef GEMMGEN_MACHINES_INSTALL
#define GEMMGEN_MACHINES_INSTALL "../share/gemmgen/machines"
#endif

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The install's directory, relative to the executable's own (so a moved or
 * DESTDIR-staged install still finds it), or absolute; "" when absent. */
static const char *installed_dir(char *out, size_t size)
{
    if (GEMMGEN_MACHINES_INSTALL[0] == '/')
        return is_dir(GEMMGEN_MACHINES_INSTALL) ? GEMMGEN_MACHINES_INSTALL : "";
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return "";
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) return "";
    *slash = '\0';
    char dir[8192], real[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/%s", exe, GEMMGEN_MACHINES_INSTALL);
    if (!realpath(dir, real) || !is_dir(real) || strlen(real) >= size) return "";
    return strcpy(out, real);
}

const char *machines_dir(void)
{
    static char dir[4096];
    const char *env = getenv("GEMMGEN_MACHINES");
    if (env && *env) return env;
    if (!*dir && !*installed_dir(dir, sizeof dir)) strfmt(dir, sizeof dir, "%s", GEMMGEN_MACHINES_DIR);
    return dir;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int machine_names(char **names, int max)
{
    DIR *dir = opendir(machines_dir());
    if (!dir) return 0;
    int n = 0;
    for (struct dirent *de; n < max && (de = readdir(dir));) {
        size_t len = strlen(de->d_name);
        if (len > 5 && !strcmp(de->d_name + len - 5, ".yaml")) names[n++] = xstrdup(de->d_name);
    }
    closedir(dir);
    qsort(names, (size_t)n, sizeof *names, by_name);
    return n;
}

static bool is_path(const char *arg)
{
    size_t len = strlen(arg);
    return strchr(arg, '/') || (len >= 5 && !strcmp(arg + len - 5, ".yaml"));
}

_Noreturn static void unknown(const char *arg)
{
    char *names[256];
    int n = machine_names(names, 256);
    struct buf known = { 0 };
    for (int i = 0; i < n; i++) {
        buf_printf(&known, "%s%.*s", i ? ", " : "", (int)strlen(names[i]) - 5, names[i]);
        free(names[i]);
    }
    die_input("--machine: no machine named '%s' in %s (known: %s; or give a file path)", arg,
              machines_dir(), n ? known.s : "none");
}

const char *machine_find(const char *arg, char *out, size_t size)
{
    if (is_path(arg)) return arg;
    if (!*arg || strlen(machines_dir()) + strlen(arg) + 7 > size) unknown(arg);
    strfmt(out, size, "%s/%s.yaml", machines_dir(), arg);
    if (access(out, R_OK) != 0) unknown(arg);
    return out;
}
