/* peers.c: see peers.h. The child loads the library with dlopen
 * (RTLD_LOCAL), times every shape and writes one line per result to a
 * pipe: first "info TEXT", then "GFLOPS" per shape. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "measure.h"
#include "peers.h"

typedef void fgemm(const char *, const char *, const int *, const int *, const int *,
                   const void *, const void *, const int *, const void *, const int *,
                   const void *, void *, const int *, size_t, size_t);

/* oneDNN's u8 x s8 -> s32 GEMM (row major) */
typedef int dnnl_igemm(char, char, char, int64_t, int64_t, int64_t, float, const uint8_t *,
                       int64_t, uint8_t, const int8_t *, int64_t, int8_t, float, int32_t *,
                       int64_t, const int32_t *);

/* oneDNN's bf16 x bf16 -> f32 GEMM (row major): exported by libdnnl 2.x
 * though its header does not declare it */
typedef int dnnl_bgemm(char, char, int64_t, int64_t, int64_t, float, const uint16_t *, int64_t,
                       const uint16_t *, int64_t, float, float *, int64_t);

struct call { void *fn; struct gb_mats x; double one_d[2]; float one_s[2]; };   /* {1, 0}: real or complex */

/* u8s8s32 as gemmbench times gemmgen's: alpha 1, beta 0, no offsets */
static void call_dnnl(void *p)
{
    struct call *c = p;
    static const int32_t co = 0;
    ((dnnl_igemm *)c->fn)('N', 'N', 'F', c->x.m, c->x.n, c->x.k, 1.0f, c->x.a, c->x.k, 0,
                          c->x.b, c->x.n, 0, 0.0f, c->x.c, c->x.n, &co);
}

/* bf16 as gemmbench times gemmgen's: alpha = beta = 1 */
static void call_dnnl_bf16(void *p)
{
    struct call *c = p;
    ((dnnl_bgemm *)c->fn)('N', 'N', c->x.m, c->x.n, c->x.k, 1.0f, c->x.a, c->x.k, c->x.b,
                          c->x.n, 1.0f, c->x.c, c->x.n);
}

static void call_peer(void *p)
{
    struct call *c = p;
    int m = (int)c->x.m, n = (int)c->x.n, k = (int)c->x.k;
    const void *one = c->x.elem == 8 ? (const void *)c->one_d : (const void *)c->one_s;
    ((fgemm *)c->fn)("N", "N", &m, &n, &k, one, c->x.a, &m, c->x.b, &k, one, c->x.c, &m, 1, 1);
}

static void set_env(const struct gb_peer *p, int threads)
{
    char t[16];
    snprintf(t, sizeof t, "%d", threads);
    setenv("OPENBLAS_NUM_THREADS", t, 1);
    setenv("BLIS_NUM_THREADS", t, 1);
    setenv("OMP_NUM_THREADS", t, 1);
    for (int i = 0; i < 3 && p->env[i]; i++) {
        char name[64];
        const char *eq = strchr(p->env[i], '=');
        snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - p->env[i]) : 63, p->env[i]);
        if (eq) setenv(name, eq + 1, 1);
        else unsetenv(name);
    }
}

/* What the library chose for this CPU, in its own words. */
static void describe(void *h, FILE *out)
{
    void (*blis_init)(void) = (void (*)(void))dlsym(h, "bli_init");
    if (blis_init) blis_init();           /* its arch query needs the context table */
    const char *(*corename)(void) = (const char *(*)(void))dlsym(h, "openblas_get_corename");
    int (*arch_id)(void) = (int (*)(void))dlsym(h, "bli_arch_query_id");
    const char *(*arch_str)(int) = (const char *(*)(int))dlsym(h, "bli_arch_string");
    const int *(*dnnl_version)(void) = (const int *(*)(void))dlsym(h, "dnnl_version");
    if (dnnl_version) fprintf(out, "info oneDNN %d.%d.%d\n", dnnl_version()[0], dnnl_version()[1],
                              dnnl_version()[2]);
    else if (corename) fprintf(out, "info OpenBLAS core %s\n", corename());
    else if (arch_id && arch_str) fprintf(out, "info BLIS arch %s\n", arch_str(arch_id()));
    else fprintf(out, "info ?\n");
}

static void child(const struct gb_peer *p, char type, int threads,
                  const struct gb_shape *s, int ns, double budget, FILE *out)
{
    set_env(p, threads);
    void *h = NULL;
    char lib[256];
    for (const char *l = p->lib; !h && *l; l += strcspn(l, "|"), l += *l == '|') {
        snprintf(lib, sizeof lib, "%.*s", (int)strcspn(l, "|"), l);
        h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    }
    /* libgomp read OMP_NUM_THREADS once, when gemmbench loaded it (with
     * BLIS), so a peer on OpenMP (oneDNN) is told the count again */
    void (*omp_threads)(int) = (void (*)(int))dlsym(RTLD_DEFAULT, "omp_set_num_threads");
    if (omp_threads) omp_threads(threads);
    struct call c = { NULL, {0}, {1.0, 0.0}, {1.0f, 0.0f} };
    /* the symbol each type is timed with, and how it is called */
    static const struct { char type; const char *sym; void (*call)(void *); } entry[] = {
        { 'd', "dgemm_", call_peer }, { 's', "sgemm_", call_peer }, { 'z', "zgemm_", call_peer },
        { 'c', "cgemm_", call_peer }, { 'i', "dnnl_gemm_u8s8s32", call_dnnl },
        { 'b', "dnnl_gemm_bf16bf16f32", call_dnnl_bf16 },
    };
    void (*call)(void *) = NULL;
    for (size_t e = 0; h && e < sizeof entry / sizeof *entry; e++)
        if (entry[e].type == type && (c.fn = dlsym(h, entry[e].sym))) call = entry[e].call;
    if (!call) _exit(3);
    describe(h, out);
    for (int i = 0; i < ns; i++) {
        double g = -1;
        if (gb_mats_alloc_type(&c.x, type, s[i].m, s[i].n, s[i].k) == 0)
            g = gb_measure(call, &c, gb_flops(type, s[i].m, s[i].n, s[i].k), budget);
        gb_mats_free(&c.x);
        fprintf(out, "%.3f\n", g);
        fflush(out);
    }
    _exit(0);
}

int gb_peer_run(const struct gb_peer *p, char type, int threads,
                const struct gb_shape *shapes, int nshapes, double budget,
                double *gflops, char *info, size_t infocap)
{
    int fd[2];
    for (int i = 0; i < nshapes; i++) gflops[i] = -1;
    snprintf(info, infocap, "not loaded");
    if (pipe(fd)) return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        child(p, type, threads, shapes, nshapes, budget, fdopen(fd[1], "w"));
    }
    close(fd[1]);
    if (pid < 0) { close(fd[0]); return -1; }
    FILE *in = fdopen(fd[0], "r");
    char line[256];
    int i = 0, got_info = 0;
    while (fgets(line, sizeof line, in)) {
        if (!strncmp(line, "info ", 5)) {
            line[strcspn(line, "\n")] = 0;
            snprintf(info, infocap, "%s", line + 5);
            got_info = 1;
        } else if (i < nshapes) {
            gflops[i++] = atof(line);
        }
    }
    fclose(in);
    int st;
    waitpid(pid, &st, 0);
    return got_info ? 0 : -1;
}
