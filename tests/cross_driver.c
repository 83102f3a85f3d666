/* cross_driver: generate one kernel, build the e2e check with the
 * compiler and flags gemmgen names for its instruction set, and run it
 * (under qemu-user for other ISAs). Exit 77 (skip) only when the cross
 * compiler or emulator is not installed.
 * usage: cross_driver GEMMGEN MACHINE.yaml TYPE E2E.c WORKDIR (f64|f32 with
 *        e2e_kernel.c, c64|c32 with e2e_cplx.c, bf16|u8s8s32|s8u8s32 with e2e_group.c)
 *        [--expect-sigill-cpu CPU] [--b-strategy S]
 * --b-strategy generates the kernel with that strategy rather than the
 * one gemmgen picks (a strategy the shipped machines do not take).
 * With the option a second binary is built, the test harness with
 * -mcpu=CPU and the kernel with its own flags, and run by the runner's
 * emulator with -cpu CPU; it must die by SIGILL. The harness is built for
 * CPU so that only the kernel can hold the instruction CPU lacks (built
 * whole with -mcpu=power10, main's prefixed loads fault first): proof that
 * the kernel's own path (POWER10 MMA) runs. GCC and qemu name CPUs alike. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
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

/* Runs CHECK with the emulator of RUNNER under -cpu CPU; 0 when it died
 * by SIGILL. qemu-user re-raises the guest's SIGILL on itself, and the
 * shell reports that as 128 + signal; no core file is left behind. */
static int expect_sigill(const char *runner, const char *cpu, const char *check)
{
    char emu[256] = "", cmd[4608];   /* room for a CHECK path of 4096 */
    sscanf(runner, "%255s", emu);
    snprintf(cmd, sizeof cmd, "ulimit -c 0; %s -cpu %s '%s' >/dev/null 2>&1", emu, cpu, check);
    printf("+ %s (must die by SIGILL)\n", cmd);
    fflush(stdout);
    int st = system(cmd);
    int sig = WIFSIGNALED(st) ? WTERMSIG(st)
              : WIFEXITED(st) && WEXITSTATUS(st) > 128 ? WEXITSTATUS(st) - 128 : 0;
    if (sig != SIGILL) {
        printf("FAIL: on -cpu %s the binary %s %d, not SIGILL\n", cpu,
               sig ? "died by signal" : "exited with status", sig ? sig : st);
        return 1;
    }
    printf("ok: SIGILL on -cpu %s\n", cpu);
    return 0;
}

/* The harness's defines for TYPE: its element type, and for the rank-G
 * types which of the two e2e_group.c checks. */
static void harness_defs(char *out, size_t size, const char *type)
{
    const char *kt = strcmp(type, "f64") && strcmp(type, "c64") ? "float" : "double";
    const char *grp = !strcmp(type, "bf16") ? " -DKBF16" : !strcmp(type, "u8s8s32") ? " -DKU8S8"
                    : !strcmp(type, "s8u8s32") ? " -DKS8U8" : "";
    snprintf(out, size, "-DKNAME=kk -DKHEADER='\"kk.h\"' -DKTYPE=%s%s", kt, grp);
}

/* The harness for CPU, the kernel for its target, linked statically. */
static int build_mixed(const char *cc, const char *cflags, const char *cpu, const char *dir,
                       const char *src, const char *defs)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s -O2 -mcpu=%s -I'%s' %s "
             "-c '%s' -o '%s/harness.o' && %s -O2 %s -c '%s/kk.c' -o '%s/kk.o' && "
             "%s -static '%s/harness.o' '%s/kk.o' -o '%s/check_mixed' -lm",
             cc, cpu, dir, defs, src, dir, cc, cflags, dir, dir, cc, dir, dir, dir);
    return run(cmd);
}

int main(int argc, char **argv)
{
    const char *sigill_cpu = NULL, *bstrat = NULL;
    for (int i = 6; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--expect-sigill-cpu")) sigill_cpu = argv[i + 1];
        else if (!strcmp(argv[i], "--b-strategy")) bstrat = argv[i + 1];
        else argc = 0;
    }
    if (argc < 6 || argc % 2) {
        fprintf(stderr, "usage: cross_driver GEMMGEN YAML TYPE E2E.c WORKDIR "
                        "[--expect-sigill-cpu CPU] [--b-strategy S]\n");
        return 2;
    }
    const char *gg = argv[1], *yaml = argv[2], *type = argv[3], *src = argv[4], *dir = argv[5];
    char cc[256], cflags[512], runner[256], cmd[4096];
    mkdir(dir, 0755);
    snprintf(cmd, sizeof cmd, "'%s' --machine '%s' --type %s --name kk -o '%s'%s%s", gg, yaml,
             type, dir, bstrat ? " --b-strategy " : "", bstrat ? bstrat : "");
    if (run(cmd)) return 1;
    ask(cc, sizeof cc, gg, yaml, type, "cc");
    ask(cflags, sizeof cflags, gg, yaml, type, "cflags");
    ask(runner, sizeof runner, gg, yaml, type, "runner");
    if (!installed(cc) || (runner[0] && !installed(runner))) {
        printf("SKIP: %s or %s is not installed (scripts/install-deps.sh installs them)\n", cc, runner);
        return 77;
    }
    char defs[128];
    harness_defs(defs, sizeof defs, type);
    snprintf(cmd, sizeof cmd, "%s -O2 %s %s -I'%s' %s '%s' '%s/kk.c' -o '%s/check' -lm", cc,
             cflags, runner[0] ? "-static" : "", dir, defs, src, dir, dir);
    if (run(cmd)) return 1;
    snprintf(cmd, sizeof cmd, "%s '%s/check'", runner, dir);
    int rc = run(cmd);
    if (rc || !sigill_cpu) return rc;
    if (!runner[0]) { fprintf(stderr, "--expect-sigill-cpu needs an emulator runner\n"); return 1; }
    if (build_mixed(cc, cflags, sigill_cpu, dir, src, defs)) return 1;
    snprintf(cmd, sizeof cmd, "%s/check_mixed", dir);
    return expect_sigill(runner, sigill_cpu, cmd);
}
