/* pdgemm_mpi.c: ScaLAPACK's PDGEMM across the MPI ranks (a 2 x 1 and a
 * 1 x 2 process grid, block-cyclic with blocks that do not divide the odd
 * sizes), each rank checking its local part of C against a serial loop
 * over the whole operands. Entries are small integers, so every sum is
 * exact and the result must be equal, whatever the BLAS's order of sums.
 * Prints which library the process's dgemm_ comes from: run with
 * libgemmgen preloaded (runtime/tests/pdgemm_mpi.sh), it is libgemmgen's. */
#define _GNU_SOURCE   /* dladdr, RTLD_DEFAULT */
#include <dlfcn.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void Cblacs_pinfo(int *me, int *np);
void Cblacs_get(int ctx, int what, int *val);
void Cblacs_gridinit(int *ctx, const char *order, int nprow, int npcol);
void Cblacs_gridinfo(int ctx, int *nprow, int *npcol, int *myrow, int *mycol);
void Cblacs_gridexit(int ctx);
int numroc_(const int *n, const int *nb, const int *iproc, const int *isrc, const int *nprocs);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb, const int *irsrc,
               const int *icsrc, const int *ctx, const int *lld, int *info);
void pdgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
             const double *alpha, const double *a, const int *ia, const int *ja, const int *desca,
             const double *b, const int *ib, const int *jb, const int *descb, const double *beta,
             double *c, const int *ic, const int *jc, const int *descc);

/* The global matrices, by formula: every rank knows every entry. */
static double a_at(int i, int j) { return (double)((i * 7 + j * 3) % 11) - 5.0; }
static double b_at(int i, int j) { return (double)((i * 5 + j * 2) % 13) - 6.0; }
static double c_at(int i, int j) { return (double)((i + j * 3) % 7) - 3.0; }

struct dist { int rows, cols, nb, myrow, mycol, nprow, npcol, lrows, lcols; };

/* Global index of local index l in a dimension of blocks nb over np processes. */
static int global(int l, int nb, int me, int np) { return (l / nb * np + me) * nb + l % nb; }

/* The local part of a rows x cols global matrix, column major, and its descriptor. */
static double *local(struct dist *d, int ctx, int rows, int cols, double (*at)(int, int), int *desc)
{
    int zero = 0, info;
    d->rows = rows; d->cols = cols;
    d->lrows = numroc_(&rows, &d->nb, &d->myrow, &zero, &d->nprow);
    d->lcols = numroc_(&cols, &d->nb, &d->mycol, &zero, &d->npcol);
    int lld = d->lrows > 1 ? d->lrows : 1;
    descinit_(desc, &rows, &cols, &d->nb, &d->nb, &zero, &zero, &ctx, &lld, &info);
    if (info) { fprintf(stderr, "descinit_: info %d\n", info); MPI_Abort(MPI_COMM_WORLD, 1); }
    double *x = malloc(sizeof(double) * (size_t)(lld * (d->lcols ? d->lcols : 1)));
    for (int lj = 0; lj < d->lcols; lj++)
        for (int li = 0; li < d->lrows; li++)
            x[li + lj * lld] = at(global(li, d->nb, d->myrow, d->nprow), global(lj, d->nb, d->mycol, d->npcol));
    return x;
}

/* PDGEMM of one case; returns this rank's largest |C - serial|. */
static double one_case(int ctx, char ta, char tb, int m, int n, int k, int nb)
{
    struct dist d = { .nb = nb };
    Cblacs_gridinfo(ctx, &d.nprow, &d.npcol, &d.myrow, &d.mycol);
    int desca[9], descb[9], descc[9], one = 1;
    struct dist da = d, db = d, dc = d;
    double *a = ta == 'N' ? local(&da, ctx, m, k, a_at, desca) : local(&da, ctx, k, m, a_at, desca);
    double *b = tb == 'N' ? local(&db, ctx, k, n, b_at, descb) : local(&db, ctx, n, k, b_at, descb);
    double *c = local(&dc, ctx, m, n, c_at, descc);
    double alpha = 2.0, beta = -1.0;
    pdgemm_(&ta, &tb, &m, &n, &k, &alpha, a, &one, &one, desca, b, &one, &one, descb,
            &beta, c, &one, &one, descc);
    double err = 0.0;
    int lld = dc.lrows > 1 ? dc.lrows : 1;
    for (int lj = 0; lj < dc.lcols; lj++)
        for (int li = 0; li < dc.lrows; li++) {
            int i = global(li, nb, d.myrow, d.nprow), j = global(lj, nb, d.mycol, d.npcol);
            double s = 0.0;
            for (int p = 0; p < k; p++)
                s += (ta == 'N' ? a_at(i, p) : a_at(p, i)) * (tb == 'N' ? b_at(p, j) : b_at(j, p));
            err = fmax(err, fabs(c[li + lj * lld] - (alpha * s + beta * c_at(i, j))));
        }
    free(a); free(b); free(c);
    return err;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, np;
    Cblacs_pinfo(&me, &np);
    Dl_info where = { 0 };
    void *fn = dlsym(RTLD_DEFAULT, "dgemm_");
    if (!fn || !dladdr(fn, &where) || !where.dli_fname) where.dli_fname = "(none)";
    printf("rank %d of %d: dgemm_ from %s\n", me, np, where.dli_fname);
    fflush(stdout);

    static const struct { char ta, tb; int m, n, k, nb, nprow; } cases[] = {
        { 'N', 'N', 131, 77, 103, 16, 2 }, { 'N', 'N', 131, 77, 103, 16, 1 },
        { 'T', 'N', 97, 113, 59, 8, 2 }, { 'N', 'T', 61, 45, 211, 32, 1 },
        { 'T', 'T', 33, 251, 37, 5, 2 },
    };
    int bad = 0;
    for (size_t x = 0; x < sizeof cases / sizeof cases[0]; x++) {
        int ctx, nprow = cases[x].nprow < np ? cases[x].nprow : np;
        Cblacs_get(-1, 0, &ctx);
        Cblacs_gridinit(&ctx, "Row", nprow, np / nprow);
        double err = one_case(ctx, cases[x].ta, cases[x].tb, cases[x].m, cases[x].n, cases[x].k, cases[x].nb);
        double worst;
        MPI_Allreduce(&err, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (me == 0)
            printf("PDGEMM %c%c %dx%dx%d, %dx%d grid, blocks %d: max |C - serial| = %g %s\n",
                   cases[x].ta, cases[x].tb, cases[x].m, cases[x].n, cases[x].k, nprow, np / nprow,
                   cases[x].nb, worst, worst == 0.0 ? "ok" : "WRONG");
        bad |= worst != 0.0;
        Cblacs_gridexit(ctx);
    }
    MPI_Finalize();
    return bad;
}
