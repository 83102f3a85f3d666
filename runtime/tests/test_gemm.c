/* test_gemm.c: libgemmgen against the naive reference GEMM (ref.h), for
 * every kernel set this CPU runs, with 1 and 2 threads: all transposes,
 * both layouts, leading dimensions larger than needed, sizes 0, 1,
 * MR+-1, NR+-1, KC+-1, MC+1 and odd primes, alpha/beta including 0, and
 * NaN-filled C with beta = 0, then a reproducible stream of random shapes
 * near the kernel's units (test_random). The padding around C must stay
 * untouched, and A and B end where an inaccessible page begins, so reading
 * past an operand (the unpacked path's edge tiles) faults. */
#define _DEFAULT_SOURCE             /* MAP_ANONYMOUS */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gemm_case.h"
#include "plan.h"

/* One case; any element in error fails the test (gemm_case.h prints it). */
static void run(const struct gcase *g)
{
    assert_int_equal(run_case(g), 0);
}

/* ---- the size list, from the blocking of the kernel in use ---- */
struct size3 { int64_t m, n, k; };
enum { MAX_SIZES = 100 };
/* one size more, the list's bound checked before it is written */
#define SIZE(...) \
    do { assert_true(i < MAX_SIZES); s[i++] = (struct size3){ __VA_ARGS__ }; } while (0)

static int sizes_for(char type, struct size3 *s)
{
    int mr, nr, mc, kc, nc, i = 0;
    gemmgen_blocking(type, &mr, &nr, &mc, &kc, &nc);
    SIZE(0, 5, 3);
    SIZE(5, 0, 3);
    SIZE(5, 3, 0);
    SIZE(1, 1, 1);
    SIZE(mr - 1 > 0 ? mr - 1 : 1, nr + 1, 7);
    SIZE(mr + 1, nr - 1 > 0 ? nr - 1 : 1, kc - 1);
    SIZE(mr, nr, kc);
    SIZE(2 * mr + 1, 2 * nr - 1, kc + 1);
    SIZE(mc + 1, nr + 1, 13);
    SIZE(17, 19, 23);
    SIZE(37, 41, 2 * kc + 3);
    SIZE(131, 127, 67);       /* big enough for 2 threads */
    /* 3 NR + 6 columns: narrow edge panels all the way when they compute
     * fewer columns than NR panels with a padded last one (edge_tmpl.h) */
    SIZE(2 * mr + 3, 3 * nr + 6, 29);
    /* the fine widths (AVX-512: NR 14, 8, 6, 4; the forced paths run
     * them streamed and packed too): 10 as 6 + 4 and NR + 6, a short
     * last row panel copied as tall as they read; 6 alone */
    SIZE(2 * mr + 5, nr > 4 ? nr - 4 : 1, 70);
    SIZE(mr + 9, nr + 6, 33);
    SIZE(3 * mr + 2, nr > 8 ? nr - 8 : 1, 50);
    /* 4 rows past whole tiles at k of whole vectors and past them: the
     * row tails (dot products on Zen 5 f64 from k = 37 when k is whole
     * 8-element vectors, any k from 66; else pairs, quads or half width) */
    SIZE(mr + 4, 2 * nr + 3, 40);
    SIZE(mr + 3, nr + 5, 97);
    /* the set's small_tile kernel (gemm_tmpl.h): whole tiles alone, with
     * rows left to the main kernel at its k limit (256), and past it */
    int smr, snr;
    if (gemmgen_small_tile(type, &smr, &snr)) {
        SIZE(2 * smr, 7 * snr, 64);
        SIZE(2 * smr + 9, 3 * snr, 256);
        SIZE(smr + 1, 5 * snr, 257);
        /* the rows past whole tiles as tall as its edge kernel (half height on
         * Zen 4): on the small tile set too (small_rows), with and without
         * whole tiles above them */
        SIZE(smr + smr / 2, 3 * snr, 61);
        SIZE(smr / 2, 2 * snr, 100);
        /* one whole tile and a row tail past it (Zen 5: both on the unpacked
         * path, the tail by the main kernel's row tail) */
        SIZE(smr + 3, 5 * snr, 48);
        /* C no wider than the tile: one column panel at any k, the rows
         * past whole tiles by its edges and row tails (small_tile_loops) */
        SIZE(2 * smr + 7, snr, 301);
        SIZE(smr + 5, snr - 2, 150);
        SIZE(3 * smr + smr / 2 + 4, snr - 1, 97);
        SIZE(8 * smr + 5, snr, 2000);   /* split among threads */
        /* whole tiles within the small path's limits: the kernels take them
         * (tiles_whole) */
        SIZE(smr, 4 * snr, 32);
    }
    /* tiny: plain loops when the path is left to size (tiny_tmpl.h), the
     * kernels when it is forced; 3x7x7 has m < n (computed as C^T) */
    SIZE(2, 3, 5);
    SIZE(4, 6, 6);
    SIZE(3, 7, 7);
    SIZE(7, 2, 10);
    SIZE(6, 2, 9);
    SIZE(5, 1, 29);
    /* one column of C: the matrix-vector loops (gemv_tmpl.h) unless a
     * path is forced; 67 and 45 rows leave every remainder of their blocks */
    SIZE(67, 1, 45);
    SIZE(45, 1, 67);
    SIZE(30, 1, 50);        /* rows in one pass of 2-4 vectors, the last shifted back */
    SIZE(20, 1, 21);
    SIZE(1, 1, 200);
    SIZE(300, 1, 9);
    SIZE(1100, 1, 503);     /* A past 2 MB: streamed */
    SIZE(150, 1, 101);      /* more rows than two blocks, k past m/2: streamed in cache */
    SIZE(7, 1, 33);         /* below a vector: narrower vectors, the last shifted back */
    SIZE(13, 1, 50);
    SIZE(3, 1, 60);         /* below a dot vector: each column one vector read past row m */
    SIZE(2, 1, 61);
    SIZE(1, 1, 203);        /* one dot product in four sums, every rest of k */
    SIZE(3, 3, 200);        /* a few columns below a vector of rows: one after another */
    SIZE(7, 4, 61);
    SIZE(3, 11, 40);        /* rows below a vector: 8, 2 and 1 columns of C a pass */
    SIZE(6, 9, 33);
    SIZE(5, 7, 301);        /* A^T B of few rows and columns, k long: dot products */
    SIZE(13, 6, 450);
    SIZE(2, 11, 130);       /* two rows: 2 x 8 tiles (f64), 3 columns past */
    /* one side long (A^T: many rows; else few rows of A copied into rows,
     * against B's columns at a power-of-two stride for f64), two threads */
    SIZE(301, 5, 260);
    SIZE(3, 70, 150);
    SIZE(70, 3, 150);       /* A^T B^T of few columns: C^T's few rows */
    SIZE(1100, 5, 300);     /* narrower than a panel, A past L2: in place */
    SIZE(6, 80, 512);
    SIZE(20, 30, 1024);     /* more rows, B's columns crowding L1 */
    SIZE(1, 67, 45);        /* one row: as C^T when contiguous */
    SIZE(1, 45, 67);
    /* two columns: the matrix-vector loops two at a time (few_cols), rows
     * past whole vectors by a last one shifted back (100, 17, 150), none (64) */
    SIZE(100, 2, 37);
    SIZE(17, 2, 40);
    SIZE(64, 2, 5);
    SIZE(150, 2, 33);       /* eight-vector blocks (64-byte), then the rest */
    /* k of 3 with C past 512 KB: C column after column (few_k), 5 rows past
     * whole vectors */
    SIZE(501, 300, 3);
    /* small operands: the loops of small_tmpl.h unless a path is forced;
     * m below a vector (A copied, 6 rows), a last vector shifted back (10,
     * 21 rows), column rests of every width, k past their limit (700) */
    SIZE(6, 9, 11);
    SIZE(10, 11, 13);
    SIZE(21, 7, 19);
    SIZE(13, 23, 5);
    SIZE(3, 4, 700);
    SIZE(29, 30, 31);       /* between 24^3 and the 32^3 limit */
    SIZE(24, 37, 33);       /* A^T B^T: A by transposes past 16384 */
    SIZE(48, 44, 50);       /* B^T by rows: no row tail, n whole small-tile panels */
    /* A^T B^T as C^T = B A stored transposed (small_ct): n rows with a
     * shifted last vector, m columns leaving a narrower last tile, k past
     * the small path's limit; the larger one past one thread's share */
    SIZE(37, 21, 150);
    SIZE(130, 45, 90);
    /* a last half vector: exact (24 f32 rows; 20 and 12 f64), shifted back
     * (20 f32; f64 by 17x19x23 above), alone (8 f32 rows, 4 f64: A copied,
     * so m*n*k stays within SMALL_COPY_MNK = 2000) */
    SIZE(24, 17, 24);
    SIZE(20, 12, 33);
    SIZE(12, 9, 21);
    SIZE(8, 13, 15);
    SIZE(4, 19, 26);
    return i;
}

static void sweep(char type)
{
    static const double ab[][2] = { {1, 0}, {-1.5, 0.5}, {0.75, 1}, {1, 1} };
    struct size3 s[MAX_SIZES];
    int ns = sizes_for(type, s);
    for (int z = 0; z < ns; z++)
        for (int lay = 0; lay < 2; lay++)
            for (int t = 0; t < 4; t++)
                for (int v = 0; v < 4; v++) {
                    struct gcase g = { type, lay ? GEMMGEN_ROW_MAJOR : GEMMGEN_COL_MAJOR,
                                       t & 1 ? GEMMGEN_TRANS : GEMMGEN_NO_TRANS,
                                       t & 2 ? GEMMGEN_TRANS : GEMMGEN_NO_TRANS,
                                       s[z].m, s[z].n, s[z].k, (z + t) % 3,
                                       ab[v][0], ab[v][1], 0 };
                    run(&g);
                    if (g.beta == 0) { g.nan_c = 1; run(&g); }
                }
}

/* Runs body for every kernel set the CPU supports and 1 and 2 threads. */
static void each_kernel(void (*body)(char), char type)
{
    for (int i = 0; i < gemmgen_kernel_count(); i++) {
        if (!gemmgen_kernel_supported(i)) continue;
        assert_int_equal(gemmgen_kernel_select(gemmgen_kernel_name(i)), 0);
        for (int th = 1; th <= 2; th++) {
            gemmgen_set_num_threads(th);
            body(type);
        }
    }
    gemmgen_set_num_threads(0);
}

static void test_dgemm_sweep(void **st) { (void)st; each_kernel(sweep, 'd'); }
static void test_sgemm_sweep(void **st) { (void)st; each_kernel(sweep, 's'); }

/* alpha = 0 and k = 0 only scale C; beta = 0 then writes zeros over NaN. */
static void scale_only(char type)
{
    for (int v = 0; v < 4; v++) {
        struct gcase g = { type, GEMMGEN_COL_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_TRANS,
                           9, 7, v < 2 ? 5 : 0, 2, v < 2 ? 0.0 : 1.0, v & 1 ? 2.0 : 0.0,
                           !(v & 1) };
        run(&g);
    }
}
static void test_scale_only(void **st) { (void)st; each_kernel(scale_only, 'd'); each_kernel(scale_only, 's'); }

/* A big problem: several KC, MC and NC blocks, with two threads. */
static void big(char type)
{
    struct gcase g = { type, GEMMGEN_ROW_MAJOR, GEMMGEN_TRANS, GEMMGEN_NO_TRANS,
                       301, 283, 0, 1, 1.25, -0.5, 0 };
    int kc;
    gemmgen_blocking(type, NULL, NULL, NULL, &kc, NULL);
    g.k = 2 * kc + 5;
    run(&g);
    /* n < m: two threads split the rows (tm = 2), so slabs start at m0 > 0 */
    struct gcase h = { type, GEMMGEN_COL_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_TRANS,
                       301, 150, 2 * kc + 5, 2, -0.75, 0, 1 };
    run(&h);
    /* C's columns 1024 elements apart (4 or 8 KB: a tile's columns on the
     * same L1 sets), m above MC and A transposed (not the streamed path):
     * the packed path with KC doubled (gemm_tmpl.h, deepen_for_c), k past
     * KC but inside 2 KC */
    struct gcase d = { type, GEMMGEN_COL_MAJOR, GEMMGEN_TRANS, GEMMGEN_NO_TRANS,
                       700, 47, kc + 5, 1024 - 700, 1.5, -0.5, 0 };
    run(&d);
}
static void test_big(void **st) { (void)st; each_kernel(big, 'd'); each_kernel(big, 's'); }

/* Random shapes around the kernel's units (gemm_case.h, random_case): a
 * reproducible stream of cases (GEMMGEN_TEST_SEED, GEMMGEN_TEST_CASES to
 * run more). It reaches remainders the fixed list above does not: every
 * m mod MR (the packed row edges), n mod NR of 1 and 2 (the tail split
 * into two narrow panels), k just past KC. */
static long env_long(const char *name, long dflt)
{
    const char *s = getenv(name);
    return s && *s ? strtol(s, NULL, 0) : dflt;
}

static void random_cases(char type)
{
    case_rng = (uint64_t)env_long("GEMMGEN_TEST_SEED", 0x9e3779b97f4a7c15) | 1;
    long count = env_long("GEMMGEN_TEST_CASES", 40);
    for (long i = 0; i < count; i++) {
        struct gcase g = random_case(type);
        run(&g);
    }
}
static void test_random(void **st) { (void)st; each_kernel(random_cases, 'd'); each_kernel(random_cases, 's'); }

/* Invalid arguments: the position comes back negative, C is untouched. */
static void test_bad_args(void **st)
{
    (void)st;
    double a[4] = {1, 2, 3, 4}, c[4] = {7, 7, 7, 7};
    assert_int_equal(gemmgen_dgemm(99, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS, 2, 2, 2, 1, a, 2, a, 2, 0, c, 2), -1);
    assert_int_equal(gemmgen_dgemm(GEMMGEN_COL_MAJOR, 5, GEMMGEN_NO_TRANS, 2, 2, 2, 1, a, 2, a, 2, 0, c, 2), -2);
    assert_int_equal(gemmgen_dgemm(GEMMGEN_COL_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS, -1, 2, 2, 1, a, 2, a, 2, 0, c, 2), -4);
    assert_int_equal(gemmgen_dgemm(GEMMGEN_COL_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS, 2, 2, 2, 1, a, 1, a, 2, 0, c, 2), -9);
    assert_int_equal(gemmgen_dgemm(GEMMGEN_ROW_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS, 2, 3, 2, 1, a, 2, a, 2, 0, c, 3), -11);
    assert_int_equal(gemmgen_dgemm(GEMMGEN_COL_MAJOR, GEMMGEN_NO_TRANS, GEMMGEN_NO_TRANS, 2, 2, 2, 1, a, 2, a, 2, 0, c, 1), -14);
    for (int i = 0; i < 4; i++) assert_true(c[i] == 7);
}

/* General strides, none of them 1, both types of C storage order. */
static void test_strided(void **st)
{
    (void)st;
    enum { M = 23, N = 17, K = 29 };
    static double a[3 * M * K + 64], b[3 * K * N + 64], c[5 * M * N + 64], w[5 * M * N + 64];
    double bound[M * N];
    for (size_t i = 0; i < sizeof a / sizeof *a; i++) a[i] = rnd();
    for (size_t i = 0; i < sizeof b / sizeof *b; i++) b[i] = rnd();
    for (int order = 0; order < 2; order++) {
        for (size_t i = 0; i < sizeof c / sizeof *c; i++) c[i] = w[i] = rnd();
        int64_t rsc = order ? 2 * N + 1 : 2, csc = order ? 2 : 2 * M + 1;
        /* B(p, j) at b[p*3N + j*3]: 3K as its row stride ran past b (and
         * read c, which the call writes) until clang's layout showed it */
        ref_gemm(M, N, K, 0.5, a, 3, 3 * M, b, 3 * N, 3, 2, w, rsc, csc, bound);
        gemmgen_dgemm_strided(M, N, K, 0.5, a, 3, 3 * M, b, 3 * N, 3, 2, c, rsc, csc);
        for (size_t i = 0; i < sizeof c / sizeof *c; i++)
            assert_true(fabs(c[i] - w[i]) <= 1e-13);
    }
}

/* Columns of A that do not advance (cs_a = 0: every column the same) on
 * the few-rows loops, which read a column as a vector where it stays in A:
 * two rows are a whole 16-byte vector of f64. */
static void test_strided_zero(void **st)
{
    (void)st;
    enum { M = 2, N = 3, K = 40 };
    static double a[M], b[K * N], c[M * N], w[M * N];
    double bound[M * N];
    for (int i = 0; i < M; i++) a[i] = rnd();
    for (int i = 0; i < K * N; i++) b[i] = rnd();
    for (int i = 0; i < M * N; i++) c[i] = w[i] = rnd();
    ref_gemm(M, N, K, 0.5, a, 1, 0, b, 1, K, 2, w, 1, M, bound);
    gemmgen_dgemm_strided(M, N, K, 0.5, a, 1, 0, b, 1, K, 2, c, 1, M);
    for (int i = 0; i < M * N; i++) assert_true(fabs(c[i] - w[i]) <= 1e-12);
}

/* --path NAME: every call of both types planned with that path forced in
 * the kernel set's limits (plan.h), so each path runs every case. */
static const struct { const char *name; int direct_mode, row_tails, small_tile, narrow_k; } forced[] = {
    { "packed", 0, 1, 1, -1 },          /* the five loops with packing */
    { "direct", 1, 1, 1, -1 },          /* the unpacked loops, row tails */
    { "stream", 2, 1, 1, -1 },          /* the streamed loops where they can run */
    { "direct-nodot", 1, 0, 1, -1 },    /* unpacked, edge kernels for every row */
    { "narrow", 1, 1, 1, 1 << 30 },     /* unpacked, narrow column panels at any k */
    { "no-small-tile", -1, 1, 0, -1 },  /* by size, without the small tile */
};

static int force_path(const char *name)
{
    for (size_t i = 0; i < sizeof forced / sizeof *forced; i++) {
        if (strcmp(name, forced[i].name)) continue;
        for (int t = 0; t < GG_NTYPES; t++) {
            struct gg_limits l = gg_ctx_current((enum gg_type)t)->lim;
            l.direct_mode = forced[i].direct_mode;
            l.row_tails = forced[i].row_tails;
            l.small_tile = forced[i].small_tile;
            l.narrow_k = forced[i].narrow_k;
            gg_ctx_set_limits((enum gg_type)t, &l);
        }
        return 0;
    }
    fprintf(stderr, "test_gemm: --path %s: unknown\n", name);
    return -1;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--path") && force_path(argv[2]))
        return 2;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_args),
        cmocka_unit_test(test_scale_only),
        cmocka_unit_test(test_strided),
        cmocka_unit_test(test_strided_zero),
        cmocka_unit_test(test_dgemm_sweep),
        cmocka_unit_test(test_sgemm_sweep),
        cmocka_unit_test(test_big),
        cmocka_unit_test(test_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
