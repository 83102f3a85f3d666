/* tails.c: which row tails a kernel gets and from which k. A row vector
 * computes the last few rows of a short row panel as if the panel were
 * whole; a tail computes them cheaper: the dot products along k
 * (NAME_dot), G k steps in every vector (NAME_pair, NAME_quad) or
 * half-width row vectors (NAME_half). Each tail is costed in full-width
 * FMAs per column of B against a row vector (k FMAs) and the other tails
 * that take as many rows; it runs from the first k where it is the
 * cheapest. Counting only: nothing per machine but the machine file's
 * units and widths. See docs/decisions.md (row tails). */
#include "plan.h"
#include "tails.h"

enum { MAX_K = 4096,         /* the k searched for a crossing */
       DOT_HSUM_COST = 12 }; /* instructions of one hsum4, per column of 4 rows */

/* instructions of one sumG_, per column: G = 2, 4 */
static const int kg_sum_cost[2] = { 3, 5 };

static int gi(int g) { return g == 4; }   /* index of G in the tables (2, 4) */

/* The share of a full-width FMA's pipe time that a half-width one takes:
 * 1/2 where the pipes are half a vector wide or narrower, else 1. */
static double half_share(const struct plan *pl)
{
    int bits = pl->m.vector_bits / 2;
    return (double)(bits > pl->m.datapath_bits ? bits : pl->m.datapath_bits) / pl->m.vector_bits;
}

/* Rows a k-group tail takes where the target spells it (0: none): only
 * for kernels that read B's columns (scalar-broadcast strategies), and a
 * vector of at least 4 * G elements (fewer rows cost as much as one row
 * vector). G = 1 needs a half-width spelling and half-width pipes. */
static int kgroup_rows(const struct plan *pl, int g)
{
    const struct spell *sp = &pl->t->sp[pl->k.elem];
    int vl = pl->k.vl;
    if (!kernel_b_cols(&pl->k)) return 0;
    if (g == 1) return sp->half && sp->widen && half_share(pl) < 1 ? vl / 2 : 0;
    return sp->groups[gi(g)] && vl >= 4 * g ? vl / g : 0;
}

/* The FMA pipe time, in FMAs, that one broadcast of G elements takes from
 * the FMAs it feeds: none for a broadcast of up to 8 bytes (a load, on
 * every target so far), and for a wider block what the machine's
 * vbroadcast_block says: spread evenly over its units, the share that
 * lands on FMA units (measured on Zen 4: docs/decisions.md). */
static double bcast_share(const struct plan *pl, int g)
{
    const struct machine *m = &pl->m;
    const struct timing *b = &m->ic[IC_VBROADCAST_BLOCK], *f = &m->ic[IC_VFMA];
    if (g * elem_bytes(pl->k.elem) <= 8 || !b->present || !f->present || !b->nalt) return 0;
    double on_fma = 0;
    for (int i = 0; i < b->nalt; i++)
        for (int j = 0; j < f->nalt; j++)
            if (b->alt[i] == f->alt[j]) on_fma += (double)b->occupancy / b->nalt;
    return on_fma / f->occupancy;
}

/* Cost per column in full-width FMAs: k/G FMAs with their broadcasts'
 * share of the FMA pipes, and a sumG_; G = 1, k half-width FMAs. */
double kgroup_cost(const struct plan *pl, int g, int k)
{
    if (g == 1) return k * half_share(pl);
    return (double)k / g * (1 + bcast_share(pl, g)) + kg_sum_cost[gi(g)];
}

/* Is a k-group tail other than G = except, taking at least `rows` rows,
 * no dearer than `cost` at this k? Then a tail tried before it, of that
 * cost, does not pay (the dot kernel, the quads). */
static bool kgroup_cheaper(const struct plan *pl, int except, int rows, double cost, int k)
{
    for (int g = 1; g <= 4; g *= 2)
        if (g != except && kgroup_rows(pl, g) >= rows && cost >= kgroup_cost(pl, g, k)) return true;
    return false;
}

/* Does G beat a row vector (k FMAs per column) at this k, and for G = 4
 * the other k groups that also take its rows (tried after it)? */
static bool kgroup_best(const struct plan *pl, int g, int k)
{
    double c = kgroup_cost(pl, g, k);
    return c < k && (g != 4 || !kgroup_cheaper(pl, 4, kgroup_rows(pl, 4), c, k));
}

/* The k from which G pays (kgroup_best); 0: none up to MAX_K. */
static int kgroup_min_k(const struct plan *pl, int g)
{
    for (int k = 1; k <= MAX_K; k++)
        if (kgroup_best(pl, g, k)) return k;
    return 0;
}

/* Instructions per column of DOT_ROWS rows: DOT_ROWS * k / VL FMAs and a
 * share of a reduction. */
static double dot_cost(const struct plan *pl, int k)
{
    return (double)DOT_ROWS * k / pl->k.vl + DOT_HSUM_COST;
}

/* Does the dot kernel pay at this k, costed for `steps` k steps (k, or k
 * rounded up to whole vectors), against a row vector and the k groups? */
static bool dot_pays(const struct plan *pl, int k, int steps)
{
    double d = dot_cost(pl, steps);
    return d < k && !kgroup_cheaper(pl, 0, DOT_ROWS, d, k);
}

/* The k from which DOT_ROWS dot products cost less than a row vector (k
 * FMAs per column) and each k-group kernel that takes 4 rows; 0: no such
 * k. Where a k-group tail costs the same FMAs, it wins: it needs no hsum4
 * and no whole vectors of k. */
static int dot_min_k(const struct plan *pl)
{
    for (int k = 1; k <= MAX_K; k++)
        if (dot_pays(pl, k, k)) return k;
    return 0;
}

/* The k from which the dot kernel pays for every k, its last vector of k
 * steps counted whole (a masked load and full-width FMAs); 0: dot_min_k
 * is already that. Between dot_min_k and this k a ragged last vector can
 * cost more than the k-group tails save. The runtime pads A's copied rows
 * to whole cache lines, so only B's columns, read in place, cross them:
 * hence one vector whole, not two (docs/decisions.md). */
static int dot_all_k(const struct plan *pl)
{
    int lo = dot_min_k(pl), vl = pl->k.vl;
    for (int k = MAX_K; lo && k >= lo; k--)
        if (!dot_pays(pl, k, (k + vl - 1) / vl * vl)) return k + 1;
    return 0;
}

/* The dot kernel needs B's columns, the target's hsum4 and a vector of at
 * least 2 * DOT_ROWS elements (else the rows cost as much as one row
 * vector); below all_k it takes whole vectors of k only. */
static struct tail_choice dot_choice(const struct plan *pl)
{
    const struct spell *sp = &pl->t->sp[pl->k.elem];
    struct tail_choice c = { 0 };
    if (!kernel_b_cols(&pl->k) || !sp->hsum4 || pl->k.vl < 2 * DOT_ROWS) return c;
    c.min_k = dot_min_k(pl);
    if (!c.min_k) return c;
    c.rows = DOT_ROWS;
    c.all_k = dot_all_k(pl);
    c.kstep = c.all_k ? pl->k.vl : 0;
    return c;
}

static struct tail_choice kgroup_choice(const struct plan *pl, int g, int rows)
{
    return (struct tail_choice){ .rows = rows, .min_k = rows ? kgroup_min_k(pl, g) : 0 };
}

void tails_choose(struct tail_choice out[TAIL_COUNT], const struct plan *pl)
{
    int pair = kgroup_rows(pl, 2), half = kgroup_rows(pl, 1);
    out[TAIL_DOT] = dot_choice(pl);
    out[TAIL_QUAD] = kgroup_choice(pl, 4, kgroup_rows(pl, 4));
    out[TAIL_HALF] = kgroup_choice(pl, 1, half);
    /* the half-width rows cost the pairs' FMAs without their sums, and
     * are tried first: no pairs where they take as many rows */
    out[TAIL_PAIR] = kgroup_choice(pl, 2, pair && half >= pair ? 0 : pair);
}
