/* gemmab: two builds of libgemmgen and OpenBLAS on one GEMM shape, in the
 * same process, alternating in short windows; the best window of each.
 * For changes worth a few percent, which a noisy host hides from
 * separate runs (turbo bins and neighbours move whole runs).
 *
 *   GEMMAB_A=old/libgemmgen.so GEMMAB_B=build/runtime/libgemmgen.so \
 *   GEMMGEN_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 OPENBLAS_CORETYPE=Cooperlake \
 *   taskset -c 1 build/runtime/bench/gemmab s 100 100 100
 *
 * Each window starts with an untimed call, so that small shapes are timed
 * warm, as an application calling them in a loop runs them (the first
 * call after another library's window runs cold and slow). The libraries
 * take turns to go first. Comparing two builds on 2 threads, keep
 * OPENBLAS_NUM_THREADS=1: OpenBLAS's threads spin on after its window and
 * take the second core from the next one.
 *
 * Prints GFLOPS of A, B and OpenBLAS and the ratios B/A, A/OpenBLAS,
 * B/OpenBLAS; types s, d and c, z (complex: GFLOPS count 8 m n k), and
 * b (sbgemm) and i (u8s8s32, GOPS) against oneDNN, row major as its API.
 * Column-major, alpha = beta = 1 (u8s8s32: beta 0); --trans-a takes A
 * transposed (lda = k), --trans-b B (ldb = n); GEMMAB_LDC_PAD pads C's leading dimension.
 * Either library may be left out; GEMMAB_PEER names another Fortran BLAS
 * to take OpenBLAS's place. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "measure.h"

typedef int gg_s(int, int, int, int64_t, int64_t, int64_t, float, const float *, int64_t,
                 const float *, int64_t, float, float *, int64_t);
typedef int gg_d(int, int, int, int64_t, int64_t, int64_t, double, const double *, int64_t,
                 const double *, int64_t, double, double *, int64_t);
typedef void fb_s(const char *, const char *, const int *, const int *, const int *, const float *,
                  const float *, const int *, const float *, const int *, const float *, float *,
                  const int *);
typedef void fb_d(const char *, const char *, const int *, const int *, const int *, const double *,
                  const double *, const int *, const double *, const int *, const double *,
                  double *, const int *);

typedef int gg_b(int, int, int, int64_t, int64_t, int64_t, float, const uint16_t *, int64_t,
                 const uint16_t *, int64_t, float, float *, int64_t);
typedef int dn_b(char, char, int64_t, int64_t, int64_t, float, const uint16_t *, int64_t,
                 const uint16_t *, int64_t, float, float *, int64_t);
typedef int gg_i(char, char, char, int64_t, int64_t, int64_t, float, const uint8_t *, int64_t,
                 uint8_t, const int8_t *, int64_t, int8_t, float, int32_t *, int64_t,
                 const int32_t *);

typedef int gg_z(int, int, int, int64_t, int64_t, int64_t, const void *, const void *, int64_t,
                 const void *, int64_t, const void *, void *, int64_t);
typedef void fb_z(const char *, const char *, const int *, const int *, const int *, const void *,
                  const void *, const int *, const void *, const int *, const void *, void *,
                  const int *);

enum { NLIB = 3 };
/* peer: a peer library (a Fortran BLAS; oneDNN for b and i), not libgemmgen */
struct lib { const char *label; void *s, *d, *c, *z, *b, *i; int peer; };

static void *sym(void *h, const char *name) { return h ? dlsym(h, name) : NULL; }

/* The functions of the library loaded as h (NULL: none). */
static struct lib lib_of(const char *label, void *h, int peer)
{
    struct lib l = { label, NULL, NULL, NULL, NULL, NULL, NULL, peer };
    l.s = sym(h, peer ? "sgemm_" : "gemmgen_sgemm");
    l.d = sym(h, peer ? "dgemm_" : "gemmgen_dgemm");
    l.c = sym(h, peer ? "cgemm_" : "gemmgen_cgemm");
    l.z = sym(h, peer ? "zgemm_" : "gemmgen_zgemm");
    l.b = sym(h, peer ? "dnnl_gemm_bf16bf16f32" : "gemmgen_sbgemm");
    l.i = sym(h, peer ? "dnnl_gemm_u8s8s32" : "gemmgen_gemm_u8s8s32");
    return l;
}

static struct lib load(const char *label, const char *path, int peer)
{
    void *h = path && *path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    if (path && *path && !h) fprintf(stderr, "gemmab: %s: %s\n", path, dlerror());
    return lib_of(label, h, peer);
}

/* The library's function for the type. */
static void *fn_of(const struct lib *l, char type)
{
    return type == 's' ? l->s : type == 'd' ? l->d : type == 'c' ? l->c : type == 'z' ? l->z
         : type == 'b' ? l->b : l->i;
}

/* C's leading dimension is m plus GEMMAB_LDC_PAD elements (default 0),
 * to tell what C's stride costs from what m does: DGEMM m = 512 puts C's
 * columns 4 KB apart, where loads and stores match on their low 12 bits. */
static int ldc_pad;

/* One call of library l on x (col-major; A transposed when ta, B when tb). */
static void call(const struct lib *l, char type, int ta, int tb, struct gb_mats *x)
{
    int m = (int)x->m, n = (int)x->n, k = (int)x->k, lda = ta ? k : m, ldb = tb ? n : k;
    int ldc = m + ldc_pad;
    const char *tra = ta ? "T" : "N", *trb = tb ? "T" : "N";
    const double one_z[2] = { 1, 0 };
    const float one_c[2] = { 1, 0 };
    const void *unit = type == 'z' ? (const void *)one_z : (const void *)one_c;
    if (type == 'b' || type == 'i') {              /* row major, oneDNN's order */
        int64_t rlda = ta ? m : k, rldb = tb ? k : n;
        static const int32_t co = 0;
        if (type == 'i')
            ((gg_i *)l->i)(*tra, *trb, 'F', m, n, k, 1.0f, x->a, rlda, 0, x->b, rldb, 0, 0.0f,
                           x->c, n, &co);
        else if (l->peer)
            ((dn_b *)l->b)(*tra, *trb, m, n, k, 1.0f, x->a, rlda, x->b, rldb, 1.0f, x->c, n);
        else
            ((gg_b *)l->b)(101, ta ? 112 : 111, tb ? 112 : 111, m, n, k, 1.0f, x->a, rlda, x->b,
                           rldb, 1.0f, x->c, n);
    } else if (type == 'z' || type == 'c') {       /* complex: scalars by address */
        if (l->peer)
            ((fb_z *)fn_of(l, type))(tra, trb, &m, &n, &k, unit, x->a, &lda, x->b, &ldb, unit,
                                     x->c, &ldc);
        else
            ((gg_z *)fn_of(l, type))(102, ta ? 112 : 111, tb ? 112 : 111, m, n, k, unit, x->a,
                                     lda, x->b, ldb, unit, x->c, ldc);
    } else if (l->peer && type == 's') {
        float one = 1;
        ((fb_s *)l->s)(tra, trb, &m, &n, &k, &one, x->a, &lda, x->b, &ldb, &one, x->c, &ldc);
    } else if (l->peer) {
        double one = 1;
        ((fb_d *)l->d)(tra, trb, &m, &n, &k, &one, x->a, &lda, x->b, &ldb, &one, x->c, &ldc);
    } else if (type == 's') {
        ((gg_s *)l->s)(102, ta ? 112 : 111, tb ? 112 : 111, m, n, k, 1.0f, x->a, lda, x->b, ldb,
                       1.0f, x->c, ldc);
    } else {
        ((gg_d *)l->d)(102, ta ? 112 : 111, tb ? 112 : 111, m, n, k, 1.0, x->a, lda, x->b, ldb,
                       1.0, x->c, ldc);
    }
}

/* The Fortran BLAS to compare with: GEMMAB_PEER when set (e.g.
 * libblis.so.4, whose sgemm_ runs BLIS as a user gets it), labelled
 * "peer"; else OpenBLAS. */
static struct lib load_peer(void)
{
    const char *p = getenv("GEMMAB_PEER");
    return p && *p ? load("peer", p, 1) : load("OpenBLAS", "libopenblas.so.0", 1);
}

/* oneDNN, the reduced-precision types' peer: 3.x, else Debian's 2.x */
static struct lib load_dnnl(void)
{
    void *h = dlopen("libdnnl.so.3", RTLD_NOW | RTLD_LOCAL);
    return h ? lib_of("oneDNN", h, 1) : load("oneDNN", "libdnnl.so.2", 1);
}

int main(int argc, char **argv)
{
    int ta = 0, tb = 0;
    for (; argc > 1 && argv[1][0] == '-'; argv++, argc--) {
        if (!strcmp(argv[1], "--trans-a")) ta = 1;
        else if (!strcmp(argv[1], "--trans-b")) tb = 1;
        else argc = 0;                     /* unknown: the usage below */
    }
    if (argc < 5 || !strchr("sdczbi", argv[1][0]) || !argv[1][0]) {
        fprintf(stderr, "usage: gemmab [--trans-a] [--trans-b] s|d|c|z|b|i M N K [WINDOWS]\n"
                        "  GEMMAB_A, GEMMAB_B: paths of the two libgemmgen builds\n");
        return 2;
    }
    char type = argv[1][0];
    int64_t m = atoll(argv[2]), n = atoll(argv[3]), k = atoll(argv[4]);
    int windows = argc > 5 ? atoi(argv[5]) : 200;
    const int lowp = type == 'b' || type == 'i';
    struct lib libs[NLIB] = { load("A", getenv("GEMMAB_A"), 0), load("B", getenv("GEMMAB_B"), 0),
                              lowp ? load_dnnl() : load_peer() };
    struct gb_mats x;
    if (m < 1 || n < 1 || k < 1 || gb_mats_alloc_type(&x, type, m, n, k)) {
        fprintf(stderr, "gemmab: bad sizes or out of memory\n");
        return 2;
    }
    const char *pad = getenv("GEMMAB_LDC_PAD");
    ldc_pad = pad ? atoi(pad) : 0;
    if (ldc_pad > 0) {                   /* C again, ldc x n, 64-byte aligned as before */
        const size_t c_elem = lowp ? 4 : (size_t)x.elem * (gb_real_type(type) != type ? 2 : 1);
        size_t bytes = (size_t)((m + ldc_pad) * n) * c_elem;
        free(x.c);
        x.c = aligned_alloc(64, (bytes + 63) / 64 * 64);
        if (x.c) memset(x.c, 0, bytes);
    }
    if (ldc_pad < 0 || !x.c) {
        fprintf(stderr, "gemmab: bad GEMMAB_LDC_PAD or out of memory\n");
        return 2;
    }
    double flops = gb_flops(type, m, n, k), best[NLIB] = { 0 };
    int calls = (int)(2e7 / flops) + 1;            /* ~20 MFLOP a window */
    /* each window starts with the next library: which library a window
     * follows decided memory-bound shapes, one build against itself */
    for (int w = 0; w < windows; w++)
        for (int j = 0; j < NLIB; j++) {
            const int i = (j + w) % NLIB;
            if (!fn_of(&libs[i], type)) continue;
            call(&libs[i], type, ta, tb, &x);   /* untimed: code and predictors warm */
            double t = gb_now();
            for (int c = 0; c < calls; c++) call(&libs[i], type, ta, tb, &x);
            double g = flops * calls / (gb_now() - t) * 1e-9;
            if (g > best[i]) best[i] = g;
        }
    printf("%c %lldx%lldx%lld%s%s", type, (long long)m, (long long)n, (long long)k, ta ? " A^T" : "",
           tb ? " B^T" : "");
    for (int i = 0; i < NLIB; i++)
        if (best[i] > 0) printf("  %s %.1f", libs[i].label, best[i]);
    if (best[0] > 0 && best[1] > 0) printf("  B/A %.3f", best[1] / best[0]);
    if (best[2] > 0)
        for (int i = 0; i < 2; i++)
            if (best[i] > 0) printf("  %s/%s %.3f", libs[i].label, libs[2].label, best[i] / best[2]);
    printf("\n");
    gb_mats_free(&x);
    return 0;
}
