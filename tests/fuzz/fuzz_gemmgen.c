/* fuzz_gemmgen.c: a libFuzzer target for the whole generator: a machine
 * file (the input after its first four bytes) through plan_build, the
 * edge plans and emission, with the options the first four bytes choose
 * (type, --mr, --nr, --max-regs, --unroll, --b-strategy, --blis,
 * --no-sched, --no-pipeline). Bad input must end in die_input (exit 2):
 * exit is wrapped (-Wl,--wrap=exit) to jump back here, so a rejected
 * input is a normal run and only crashes, sanitizer reports and other
 * exit statuses are findings. Built by -Dfuzz=true with clang; see
 * tests/fuzz/README.md. Without GEMMGEN_LIBFUZZER it gets a main that
 * replays the shipped machine files under fixed option sets: the
 * fuzz-replay test. */
#include "plan.h"
#include <fcntl.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static jmp_buf back;
static int exit_status, armed;   /* armed: exit comes from the generator */

_Noreturn void __real_exit(int status);
_Noreturn void __wrap_exit(int status)
{
    if (!armed) __real_exit(status);       /* libFuzzer's own exits */
    armed = 0;
    exit_status = status;
    longjmp(back, 1);
}

/* Descriptors open before the first run. A rejected input must not leave
 * one open: the generator closes its files before die_input, so that it
 * can serve as a library (and a fuzzer does not stop at EMFILE). */
enum { MAXFD = 256 };
static bool open_before[MAXFD];

static void note_fds(void)
{
    for (int fd = 0; fd < MAXFD; fd++) open_before[fd] = fcntl(fd, F_GETFD) != -1;
}

static int leaked_fd(void)
{
    for (int fd = 3; fd < MAXFD; fd++)
        if (!open_before[fd] && fcntl(fd, F_GETFD) != -1) return fd;
    return -1;
}

static char path[64];           /* the machine file of the current run */

static const char *machine_file(const uint8_t *data, size_t size)
{
    snprintf(path, sizeof path, "/tmp/gemmgen-fuzz-%d.yaml", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    fwrite(data, 1, size, f);
    fclose(f);
    return path;
}

static struct options options_of(const uint8_t o[4], const char *path)
{
    struct options opt = { .machine_path = path, .outdir = "unused", .force_bs = -1 };
    opt.elem = (enum elem)(o[0] & 1);
    opt.mr = o[1] & 0x3f;                          /* 0 derives; --mr takes 1..64 */
    opt.cplx = o[1] & 0x40;                        /* --type c64 / c32 */
    opt.nr = o[2] & 0x3f;
    if (o[0] & 0x02) opt.max_regs = 2 + (o[3] & 0x7f);
    if (o[0] & 0x04) opt.unroll = 1 + (o[3] & 0x0f);
    if (o[0] & 0x08) opt.force_bs = (o[3] >> 4) % BS_COUNT;
    opt.blis = o[0] & 0x10;
    opt.blis_api = (o[0] >> 5) & 1;
    opt.no_sched = o[0] & 0x40;
    opt.no_pipeline = o[0] & 0x80;
    return opt;
}

static void generate(const struct options *o)
{
    struct plan pl, edges[MAX_EDGES];
    struct edge_spec es[MAX_EDGES];
    struct buf c = { 0 }, h = { 0 }, d = { 0 }, x = { 0 };
    char dname[128];
    plan_build(&pl, o);
    int ne = plan_edges(&pl, es);
    for (int i = 0; i < ne; i++) plan_build_edge(&edges[i], &pl, o, &es[i]);
    emit_kernel(&pl, edges, ne, o, plan_default_name(&pl, dname, sizeof dname), &c, &h, &d);
    explain_json(&pl, &x);
    explain_svg(&pl, &x);
    for (int i = 0; i < ne; i++) plan_free(&edges[i]);
    plan_free(&pl);
    buf_free(&c); buf_free(&h); buf_free(&d); buf_free(&x);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool noted;
    if (!noted) { note_fds(); noted = true; }
    if (size < 4) return 0;
    struct options o = options_of(data, machine_file(data + 4, size - 4));
    exit_status = -1;
    if (setjmp(back) == 0) {
        armed = 1;
        generate(&o);
        armed = 0;
    }
    else if (exit_status != 2) {
        fprintf(stderr, "fuzz: exit status %d (bad input must exit 2)\n", exit_status);
        abort();
    }
    if (leaked_fd() >= 0) {
        fprintf(stderr, "fuzz: descriptor %d left open\n", leaked_fd());
        abort();
    }
    return 0;
}

#ifndef GEMMGEN_LIBFUZZER
/* Without libFuzzer (the test suite's fuzz-replay): every machine file
 * named on the command line under a fixed set of option bytes, and with
 * --raw, files that already carry their option bytes (a corpus or a
 * finding). Each must generate or be rejected with status 2. */
static const uint8_t option_sets[][4] = {
    { 0x00, 0, 0, 0 },          /* f64, everything derived */
    { 0x01, 0, 0, 0 },          /* f32 */
    { 0x10, 8, 6, 0 },          /* --blis --mr 8 --nr 6 */
    { 0x31, 4, 4, 0 },          /* f32 --blis-api 1 --mr 4 --nr 4 */
    { 0x0e, 0, 0, 0x35 },       /* --max-regs 55 --unroll 6 --b-strategy 3 */
    { 0x06, 0, 0, 0x14 },       /* --max-regs 22 --unroll 5 */
    { 0x09, 12, 3, 0x20 },      /* f32 --mr 12 --nr 3 --b-strategy 2 */
    { 0xc0, 0, 0, 0 },          /* --no-sched --no-pipeline */
    { 0x00, 0x40, 0, 0 },       /* c64 */
    { 0x11, 0x40, 0, 0 },       /* c32 --blis */
    { 0x06, 0x44, 3, 0x14 },    /* c64 --mr 4 --nr 3 --max-regs 22 --unroll 5 */
};

static uint8_t *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); __real_exit(1); }
    uint8_t *d = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 4096 > cap) d = realloc(d, cap = 2 * cap + 4096 + 4);
        if (!d) abort();
        size_t got = fread(d + 4 + n, 1, 4096, f);
        n += got;
        if (got < 4096) break;
    }
    fclose(f);
    *size = n;
    return d;                   /* the file at d + 4: room for option bytes */
}

int main(int argc, char **argv)
{
    int raw = 0, runs = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--raw")) { raw = 1; continue; }
        size_t n;
        uint8_t *d = slurp(argv[i], &n);
        if (raw) { LLVMFuzzerTestOneInput(d + 4, n); runs++; }
        else
            for (size_t s = 0; s < sizeof option_sets / sizeof option_sets[0]; s++) {
                memcpy(d, option_sets[s], 4);
                LLVMFuzzerTestOneInput(d, n + 4);
                runs++;
            }
        free(d);
    }
    if (*path) unlink(path);
    printf("fuzz-replay: %d runs, none crashed or exited other than 0 or 2\n", runs);
    return runs ? 0 : 1;
}
#endif
