/* e2e_kernel.c: one generated kernel against a plain reference GEMM.
 * Built once per kernel with -DKNAME=<symbol> -DKHEADER="<symbol>.h"
 * -DKTYPE=double|float -DKISA="avx512f"|...; exit 77 (skip) when the host
 * cannot run the kernel's instructions. Checks odd k, edge tiles,
 * alpha/beta not 1, beta = 0 with NaN in C, column-, row- and
 * general-stride C, and that nothing outside the m x n tile is written.
 * The _direct variant runs the same cases on A and B in place, with
 * leading dimensions larger than the tile and NaN in the rows of A and
 * columns of B past m and n (the kernel reads them; they must not reach C);
 * so does every edge kernel (EDGE_LIST) on the tiles it covers. The packed
 * row-edge kernels (PEDGE_LIST) run on A packed MR' rows high, NaN in the
 * padding rows. Every row tail (TAIL_LIST) runs on the m <= rows
 * it takes, with B in place and A as it reads it: rows along k with NaN
 * past k (group 0, the dot kernel), or packed in groups of G k steps with
 * NaN in the rows past m and between the groups. The _stream variant
 * (when emitted) runs as _direct with a_next on a NaN-filled block: it
 * may prefetch those lines but must not read them into C. The _rows
 * variants (DIRECT_ROWS: _direct_rows and ROW_EDGE_LIST) run as _direct
 * and the edges do, on B in place by rows (b[p*ldb + j], NaN past n). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include KHEADER

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define STR_(a) #a
#define STR(a) STR_(a)
#define MR CAT(KNAME, _MR)
#define NR CAT(KNAME, _NR)
#define DIRECT CAT(KNAME, _direct)
#define B_COLS CAT(KNAME, _DIRECT_B_COLS)
#define NEDGES CAT(KNAME, _NEDGES)
#define EDGE_LIST CAT(KNAME, _EDGE_LIST)
#define NPEDGES CAT(KNAME, _NPEDGES)
#define PEDGE_LIST CAT(KNAME, _PEDGE_LIST)
#define NTAILS CAT(KNAME, _NTAILS)
#define TAIL_LIST CAT(KNAME, _TAIL_LIST)
#define HAS_STREAM CAT(KNAME, _STREAM)
#define STREAM CAT(KNAME, _stream)
#define HAS_ROWS CAT(KNAME, _DIRECT_ROWS)
#define DIRECT_ROWS CAT(KNAME, _direct_rows)
#define ROW_EDGE_LIST CAT(KNAME, _ROW_EDGE_LIST)
typedef KTYPE T;
typedef void direct_fn(int64_t, int64_t, int64_t, const T *, const T *, int64_t, const T *,
                       int64_t, const T *, T *, int64_t, int64_t);
static const struct { int mr, nr; direct_fn *fn; } edges[] = {
#if NEDGES
    EDGE_LIST
#else
    { 0, 0, 0 }
#endif
};
#if HAS_ROWS
/* the edges' _rows variants, in EDGE_LIST's order */
static const struct { int mr, nr; direct_fn *fn; } row_edges[] = {
#if NEDGES
    ROW_EDGE_LIST
#else
    { 0, 0, 0 }
#endif
};
#endif
typedef void packed_fn(int64_t, int64_t, int64_t, const T *, const T *, const T *, const T *, T *,
                       int64_t, int64_t, const T *, const T *);
static const struct { int mr; packed_fn *fn; } pedges[] = {
#if NPEDGES
    PEDGE_LIST
#else
    { 0, 0 }
#endif
};
/* the row tails: kernel, rows, from k, A's layout, k step, all k (the
 * k rules are unused here: every tail runs on every k) */
static const struct { void *fn; int rows, min_k, group, kstep, all_k; } tails[] = {
#if NTAILS
    TAIL_LIST
#else
    { 0, 0, 0, 0, 0, 0 }
#endif
};

static uint64_t rng = 88172645463325252ull;
static T rnd(void)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (T)((double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0);
}

static int failures, checks;

/* A and B of one case, packed and in place. */
struct operands {
    T *a, *b;                /* packed: a[i + p*MR], b[j + p*NR] */
    T *ad, *bd;              /* in place: ad[i + p*lda], bd[p + j*ldb] or bd[p*ldb + j] */
    int64_t lda, ldb;
    T *br;                   /* in place by rows, br[p*ldr + j] (the _rows variants) */
    int64_t ldr;
};

static void operands_make(struct operands *o, int m, int n, int k)
{
    o->lda = MR + 5;
    o->ldb = B_COLS ? k + 3 : NR + 2;
    o->a = calloc((size_t)(MR * (k + 1)), sizeof(T));
    o->b = calloc((size_t)(NR * (k + 1)), sizeof(T));
    size_t bsz = B_COLS ? (size_t)(o->ldb * NR) : (size_t)(o->ldb * (k + 1));
    o->ad = malloc((size_t)(o->lda * (k + 1)) * sizeof(T));
    o->bd = malloc(bsz * sizeof(T));
    o->ldr = NR + 2;
    o->br = malloc((size_t)(o->ldr * (k + 1)) * sizeof(T));
    for (int64_t x = 0; x < o->ldr * (k + 1); x++) o->br[x] = (T)NAN;
    for (size_t x = 0; x < (size_t)(o->lda * (k + 1)); x++) o->ad[x] = (T)NAN;
    for (size_t x = 0; x < bsz; x++) o->bd[x] = (T)NAN;
    for (int p = 0; p < k; p++) {
        for (int i = 0; i < m; i++) o->ad[i + p * o->lda] = o->a[i + p * MR] = rnd();
        for (int j = 0; j < n; j++)
            o->bd[B_COLS ? p + j * o->ldb : p * o->ldb + j] = o->b[j + p * NR] = rnd();
        for (int j = 0; j < n; j++) o->br[p * o->ldr + j] = o->b[j + p * NR];
    }
}

static void operands_free(struct operands *o)
{
    free(o->a); free(o->b); free(o->ad); free(o->bd); free(o->br);
}

/* Compares buf with ref over the whole span (sentinels included). */
static void compare(const T *buf, const T *ref, size_t span, int m, int n, int k, T alpha, T beta,
                    int layout, const char *which)
{
    double tol = sizeof(T) == 8 ? 1e-12 : 2e-5;
    for (size_t x = 0; x < span; x++) {
        double got = buf[x], want = ref[x];
        double err = fabs(got - want), lim = tol * (fabs(alpha) * (k + 1) + fabs(beta) + 1);
        checks++;
        if (!(err <= lim)) {   /* NaN fails too */
            if (failures++ < 10)
                fprintf(stderr, "%s m=%d n=%d k=%d alpha=%g beta=%g layout=%d: offset %ld got %g want %g\n",
                        which, m, n, k, (double)alpha, (double)beta, layout, (long)x - 32, got, want);
        }
    }
}

/* A's m rows as a row tail of h rows and layout g reads them: g = 0,
 * rows along k, NaN past k; else packed in groups of g k steps, groups
 * three elements further apart than they need (*ld > g*h), NaN in the
 * rows past m and between the groups, zero past k as the contract asks. */
static T *tail_pack(const struct operands *o, int m, int k, int g, int h, int64_t *ld)
{
    if (!g) {
        int64_t ldr = k + 3;
        T *ar = malloc((size_t)(m * ldr) * sizeof(T));
        for (int i = 0; i < m; i++)
            for (int p = 0; p < ldr; p++) ar[i * ldr + p] = p < k ? o->a[i + p * MR] : (T)NAN;
        *ld = ldr;
        return ar;
    }
    int64_t ldg = (int64_t)g * h + 3, ng = (k + g - 1) / g;
    T *ag = malloc((size_t)(ldg * (ng + 1)) * sizeof(T));
    for (int64_t x = 0; x < ldg * (ng + 1); x++) ag[x] = (T)NAN;
    for (int p = 0; p < g * ng; p++)
        for (int i = 0; i < m; i++)
            ag[(p / g) * ldg + g * i + p % g] = p < k ? o->a[i + p * MR] : 0;
    *ld = ldg;
    return ag;
}

static void check_one(int m, int n, int k, T alpha, T beta, int layout)
{
    struct operands o;
    operands_make(&o, m, n, k);
    /* C lives inside a larger buffer filled with a sentinel */
    int64_t rs, cs, ld = MR + 3;
    if (layout == 0) { rs = 1; cs = ld; }
    else if (layout == 1) { rs = NR + 5; cs = 1; }
    else { rs = 2; cs = 2 * ld + 1; }
    size_t span = (size_t)((MR - 1) * rs + (NR - 1) * cs + 1) + 64;
    T *buf = malloc(span * sizeof *buf), *ref = malloc(span * sizeof *ref),
      *start = malloc(span * sizeof *start), *c = buf + 32;
    const T sentinel = (T)12345.0;
    for (size_t x = 0; x < span; x++) buf[x] = sentinel;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) c[i * rs + j * cs] = beta == 0 ? (T)NAN : rnd();
    memcpy(ref, buf, span * sizeof *buf);
    memcpy(start, buf, span * sizeof *buf);
    T *rc = ref + 32;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double s = 0;
            for (int p = 0; p < k; p++) s += (double)o.a[i + p * MR] * o.b[j + p * NR];
            double old = beta == 0 ? 0 : rc[i * rs + j * cs];
            rc[i * rs + j * cs] = (T)(alpha * s + (beta == 0 ? 0 : beta * old));
        }
    KNAME(m, n, k, &alpha, o.a, o.b, &beta, c, rs, cs, o.a, o.b);
    compare(buf, ref, span, m, n, k, alpha, beta, layout, "packed");
    memcpy(buf, start, span * sizeof *buf);
    DIRECT(m, n, k, &alpha, o.ad, o.lda, o.bd, o.ldb, &beta, c, rs, cs);
    compare(buf, ref, span, m, n, k, alpha, beta, layout, "direct");
#if HAS_STREAM
    T *nan_next = malloc((size_t)(o.lda * (k + 1)) * sizeof(T));
    for (int64_t x = 0; x < o.lda * (k + 1); x++) nan_next[x] = (T)NAN;
    memcpy(buf, start, span * sizeof *buf);
    STREAM(m, n, k, &alpha, o.ad, o.lda, o.bd, o.ldb, &beta, c, rs, cs, nan_next);
    compare(buf, ref, span, m, n, k, alpha, beta, layout, "stream");
    free(nan_next);
#endif
    for (int e = 0; e < NEDGES; e++)
        if (m <= edges[e].mr && n <= edges[e].nr) {
            memcpy(buf, start, span * sizeof *buf);
            edges[e].fn(m, n, k, &alpha, o.ad, o.lda, o.bd, o.ldb, &beta, c, rs, cs);
            compare(buf, ref, span, m, n, k, alpha, beta, layout, "edge");
        }
#if HAS_ROWS
    memcpy(buf, start, span * sizeof *buf);
    DIRECT_ROWS(m, n, k, &alpha, o.ad, o.lda, o.br, o.ldr, &beta, c, rs, cs);
    compare(buf, ref, span, m, n, k, alpha, beta, layout, "direct_rows");
    for (int e = 0; e < NEDGES; e++)
        if (m <= row_edges[e].mr && n <= row_edges[e].nr) {
            memcpy(buf, start, span * sizeof *buf);
            row_edges[e].fn(m, n, k, &alpha, o.ad, o.lda, o.br, o.ldr, &beta, c, rs, cs);
            compare(buf, ref, span, m, n, k, alpha, beta, layout, "edge_rows");
        }
#endif
    for (int e = 0; e < NPEDGES; e++)
        if (m <= pedges[e].mr) {
            int h = pedges[e].mr;
            T *ap = malloc((size_t)(h * (k + 1)) * sizeof(T));
            for (int p = 0; p <= k; p++)
                for (int i = 0; i < h; i++) ap[i + p * h] = i < m ? o.a[i + p * MR] : (T)NAN;
            memcpy(buf, start, span * sizeof *buf);
            pedges[e].fn(m, n, k, &alpha, ap, o.b, &beta, c, rs, cs, ap, o.b);
            compare(buf, ref, span, m, n, k, alpha, beta, layout, "packed edge");
            free(ap);
        }
    for (int t = 0; t < NTAILS; t++)
        if (m <= tails[t].rows) {
            static const char *const names[] = { "dot", "half", "pair", "", "quad" };
            int64_t ldt;
            T *at = tail_pack(&o, m, k, tails[t].group, tails[t].rows, &ldt);
            memcpy(buf, start, span * sizeof *buf);
            ((direct_fn *)tails[t].fn)(m, n, k, &alpha, at, ldt, o.bd, o.ldb, &beta, c, rs, cs);
            compare(buf, ref, span, m, n, k, alpha, beta, layout, names[tails[t].group]);
            free(at);
        }
    operands_free(&o);
    free(buf); free(ref); free(start);
}

int main(void)
{
#ifdef KISA
    __builtin_cpu_init();
    if (!__builtin_cpu_supports(KISA)) {
        printf("SKIP: host lacks %s\n", KISA);
        return 77;
    }
#endif
    const int ks[] = { 0, 1, 2, 3, 5, 8, 17, 64, 129 };
    int ms[] = { MR, 1, MR > 1 ? MR - 1 : 1, (MR + 1) / 2, MR, MR < 2 ? MR : 2, MR < 3 ? MR : 3,
                 MR < 4 ? MR : 4, MR < 7 ? MR : 7, MR < 8 ? MR : 8 };   /* 2-4: the dot-product
                                                           * tail, 7-8: the k-pair tail */
    int ns[4 + sizeof edges / sizeof *edges] = { NR, 1, NR > 1 ? NR - 1 : 1, (NR + 1) / 2 };
    int nn = 4;
    for (int e = 0; e < NEDGES; e++) {      /* the edge kernels' own sizes: each width */
        if (edges[e].mr < ms[4]) ms[4] = edges[e].mr;
        int seen = 0;
        for (int j = 0; j < nn; j++) seen |= ns[j] == edges[e].nr;
        if (!seen) ns[nn++] = edges[e].nr;
    }
    const T alphas[] = { (T)1.5, (T)-0.75, 1 }, betas[] = { 0, (T)-1.25, 1 };
    for (size_t ki = 0; ki < sizeof ks / sizeof *ks; ki++)
        for (size_t mi = 0; mi < sizeof ms / sizeof *ms; mi++)
            for (int ni = 0; ni < nn; ni++)
                /* past the first edge width, k 1, 17 and 129 only (under
                 * qemu the checks are the suite's time) */
                for (int layout = 0; layout < 3 && (ni < 5 || ks[ki] % 16 == 1); layout++)
                    for (int ab = 0; ab < 9; ab++)
                        check_one(ms[mi], ns[ni], ks[ki], alphas[ab % 3], betas[ab / 3], layout);
    printf("%s: %d checks, %d failed\n", STR(KNAME), checks, failures);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures != 0;
}
