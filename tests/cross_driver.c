/* cross_driver: generate one kernel, build the e2e check with the
 * compiler and flags gemmgen names for its instruction set, and run it
 * (under qemu-user for other ISAs). Exit 77 (skip) only when the cross
 * compiler or emulator is not installed.
 * usage: cross_driver GEMMGEN MACHINE.yaml f64|f32 e2e_kernel.c WORKDIR */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

static void ask(char *out, size_t size, const char *gg, const char *yaml, const char *type,
                const char *what)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' --machine '%s' --type %s --print-%s", gg, yaml, type, what);
    FILE *p = popen(cmd, "r");
    if (!p || !fgets(out, (int)size, p)) { fprintf(stderr, "failed: %s\n", cmd); exit(1); }
    out[strcspn(out, "\n")] = '\0';
    if (pclose(p) != 0) { fprintf(stderr, "failed: %s\n", cmd); exit(1); }
}

static int run(const char *cmd)
{
    printf("+ %s\n", cmd);
    fflush(stdout);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

static int installed(const char *prog)
{
    char cmd[512], word[256];
    sscanf(prog, "%255s", word);
    snprintf(cmd, sizeof cmd, "command -v '%s' >/dev/null 2>&1", word);
    return system(cmd) == 0;
}

int main(int argc, char **argv)
{
    if (argc != 6) { fprintf(stderr, "usage: cross_driver GEMMGEN YAML TYPE E2E.c WORKDIR\n"); return 2; }
    const char *gg = argv[1], *yaml = argv[2], *type = argv[3], *src = argv[4], *dir = argv[5];
    char cc[256], cflags[512], runner[256], cmd[4096];
    mkdir(dir, 0755);
    snprintf(cmd, sizeof cmd, "'%s' --machine '%s' --type %s --name kk -o '%s'", gg, yaml, type, dir);
    if (run(cmd)) return 1;
    ask(cc, sizeof cc, gg, yaml, type, "cc");
    ask(cflags, sizeof cflags, gg, yaml, type, "cflags");
    ask(runner, sizeof runner, gg, yaml, type, "runner");
    if (!installed(cc) || (runner[0] && !installed(runner))) {
        printf("SKIP: %s or %s is not installed (scripts/install-deps.sh installs them)\n", cc, runner);
        return 77;
    }
    snprintf(cmd, sizeof cmd, "%s -O2 %s %s -I'%s' -DKNAME=kk -DKHEADER='\"kk.h\"' -DKTYPE=%s "
             "'%s' '%s/kk.c' -o '%s/check' -lm", cc, cflags, runner[0] ? "-static" : "", dir,
             strcmp(type, "f64") ? "float" : "double", src, dir, dir);
    if (run(cmd)) return 1;
    snprintf(cmd, sizeof cmd, "%s '%s/check'", runner, dir);
    return run(cmd);
}
