/* plot_svg.h: gemmbench --svg, GFLOPS against size as SVG line plots,
 * one per measured table, from the table's numbers alone. */
#ifndef GB_PLOT_SVG_H
#define GB_PLOT_SVG_H
#include <stdio.h>

enum { GB_PLOT_MAXX = 20, GB_PLOT_MAXSERIES = 8 };

struct gb_plot {
    char title[128];                        /* "DGEMM f64, 1 thread" */
    double peak;                            /* GFLOPS, drawn as a line; <= 0: none */
    int nx, nseries;
    char xlabel[GB_PLOT_MAXX][32];          /* one per size, in order */
    char series[GB_PLOT_MAXSERIES][48];     /* series 0 is drawn first and boldest */
    double y[GB_PLOT_MAXSERIES][GB_PLOT_MAXX];   /* GFLOPS; <= 0: not measured, no point */
};

/* "n³" for a square, else "m×n×k" (UTF-8). */
void gb_plot_size_label(char out[32], long long m, long long n, long long k);

/* The plots one under the other, under `caption`, as one SVG document. */
void gb_plot_svg(FILE *f, const char *caption, const struct gb_plot *plots, int nplots);

/* The same into `path`, by a temporary file renamed over it: a failed
 * run leaves nothing half-written. Returns 0, or -1 with errno set. */
int gb_plot_write(const char *path, const char *caption, const struct gb_plot *plots, int nplots);
#endif
