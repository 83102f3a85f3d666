/* plot_svg.c: see plot_svg.h. Sizes are evenly spaced categories (the
 * tables' squares double in size, so this reads like a log axis); GFLOPS
 * start at 0 so heights compare. Coordinates are printed %.1f: the same
 * table gives the same bytes. */
#include "plot_svg.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { LEFT = 72, TOP = 52, PLOT_H = 300, BOTTOM = 58, LEGEND_W = 230, GAP = 24, CHAR_W = 7 };

static const char *const colour[GB_PLOT_MAXSERIES] = { "#d62728", "#1f77b4", "#2ca02c", "#9467bd",
                                                        "#8c564b", "#17becf", "#7f7f7f", "#bcbd22" };

void gb_plot_size_label(char out[32], long long m, long long n, long long k)
{
    if (m == n && n == k) snprintf(out, 32, "%lld\xc2\xb3", m);
    else snprintf(out, 32, "%lld\xc3\x97%lld\xc3\x97%lld", m, n, k);
}

static void esc(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<') fputs("&lt;", f);
        else if (*s == '>') fputs("&gt;", f);
        else if (*s == '&') fputs("&amp;", f);
        else if (*s == '"') fputs("&quot;", f);
        else fputc(*s, f);
    }
}

/* Characters as drawn: a UTF-8 sequence counts once. */
static int width_chars(const char *s)
{
    int n = 0;
    for (; *s; s++) n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

/* A tick step of 1, 2 or 5 times a power of ten giving 4 to 8 ticks. */
static double tick_step(double top)
{
    double p = pow(10, floor(log10(top / 5)));
    return top / p > 40 ? 10 * p : top / p > 20 ? 5 * p : top / p > 8 ? 2 * p : p;
}

struct frame { double x0, dx, y0, scale, step; int width; };   /* y(v) = y0 - v * scale */

static struct frame frame_of(const struct gb_plot *p, int width, int top)
{
    double hi = p->peak > 0 ? p->peak : 1;
    for (int s = 0; s < p->nseries; s++)
        for (int x = 0; x < p->nx; x++) if (p->y[s][x] > hi) hi = p->y[s][x];
    double step = tick_step(hi * 1.08), ymax = ceil(hi * 1.08 / step) * step;
    struct frame fr = { .x0 = LEFT, .y0 = top + PLOT_H, .scale = PLOT_H / ymax, .step = step,
                        .width = width };
    fr.dx = (width - LEFT - LEGEND_W) / (p->nx > 0 ? p->nx : 1);   /* whole pixels: even spacing survives %.1f */
    return fr;
}

static double x_at(const struct frame *fr, int x) { return fr->x0 + fr->dx * (x + 0.5); }
static double y_at(const struct frame *fr, double v) { return fr->y0 - v * fr->scale; }

static void axes(FILE *f, const struct gb_plot *p, const struct frame *fr, int top)
{
    double right = fr->x0 + fr->dx * p->nx;
    for (int i = 0; i * fr->step <= PLOT_H / fr->scale * (1 + 1e-9); i++) {
        double v = i * fr->step, y = y_at(fr, v);
        fprintf(f, "<line class=\"tick\" data-v=\"%g\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                   "stroke=\"%s\"/>\n", v, fr->x0, y, right, y, i ? "#e0e0e0" : "#555");
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\">%g</text>\n",
                fr->x0 - 6, y + 4, v);
    }
    fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#555\"/>\n", fr->x0, top,
            fr->x0, fr->y0);
    for (int x = 0; x < p->nx; x++) {
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\">", x_at(fr, x),
                fr->y0 + 18);
        esc(f, p->xlabel[x]);
        fputs("</text>\n", f);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\">size m\xc3\x97n\xc3\x97k "
               "(n\xc2\xb3: a square)</text>\n", (fr->x0 + right) / 2, fr->y0 + 40);
    fprintf(f, "<text transform=\"translate(20 %.1f) rotate(-90)\" font-size=\"12\" "
               "text-anchor=\"middle\">GFLOPS</text>\n", fr->y0 - PLOT_H / 2.0);
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"15\" font-weight=\"bold\">", LEFT, top - 16);
    esc(f, p->title);
    fputs("</text>\n", f);
}

static void peak_line(FILE *f, const struct gb_plot *p, const struct frame *fr)
{
    if (p->peak <= 0) return;
    double y = y_at(fr, p->peak), right = fr->x0 + fr->dx * p->nx;
    fprintf(f, "<line class=\"peak\" data-v=\"%g\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
               "stroke=\"#000\" stroke-width=\"1.5\" stroke-dasharray=\"8 4\"/>\n",
            p->peak, fr->x0, y, right, y);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\" stroke=\"#fff\" stroke-width=\"4\" paint-order=\"stroke\">peak %.1f GFLOPS</text>\n",
            right - 4, y - 5, p->peak);
}

/* A series' line, broken where a size was not measured, and its points. */
static void series(FILE *f, const struct gb_plot *p, const struct frame *fr, int s)
{
    const char *col = colour[s % GB_PLOT_MAXSERIES];
    double w = s ? 1.8 : 3.0;
    for (int x = 0; x + 1 < p->nx; x++)
        if (p->y[s][x] > 0 && p->y[s][x + 1] > 0)
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                       "stroke-width=\"%.1f\"/>\n", x_at(fr, x), y_at(fr, p->y[s][x]), x_at(fr, x + 1),
                    y_at(fr, p->y[s][x + 1]), col, w);
    for (int x = 0; x < p->nx; x++) {
        if (p->y[s][x] <= 0) continue;
        fprintf(f, "<circle class=\"pt\" data-s=\"%d\" data-x=\"%d\" data-v=\"%.1f\" cx=\"%.1f\" cy=\"%.1f\" "
                   "r=\"%.1f\" fill=\"%s\"><title>", s, x, p->y[s][x], x_at(fr, x), y_at(fr, p->y[s][x]),
                s ? 3.5 : 4.5, col);
        esc(f, p->series[s]);
        fputs(", ", f);
        esc(f, p->xlabel[x]);
        fprintf(f, ": %.1f GFLOPS</title></circle>\n", p->y[s][x]);
    }
}

static void legend(FILE *f, const struct gb_plot *p, const struct frame *fr, int top)
{
    double x = fr->x0 + fr->dx * p->nx + 20;
    for (int s = 0; s < p->nseries; s++) {
        double y = top + 10 + 20 * s;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%s\"/>\n",
                x, y, x + 26, y, colour[s % GB_PLOT_MAXSERIES], s ? "1.8" : "3");
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n", x + 13, y,
                colour[s % GB_PLOT_MAXSERIES]);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\"%s>", x + 34, y + 4,
                s ? "" : " font-weight=\"bold\"");
        esc(f, p->series[s]);
        fputs("</text>\n", f);
    }
    if (p->peak > 0) {
        double y = top + 10 + 20 * p->nseries;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" "
                   "stroke-width=\"1.5\" stroke-dasharray=\"8 4\"/>\n", x, y, x + 26, y);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\">peak (FMA probe)</text>\n", x + 34, y + 4);
    }
}

static int plot_width(const struct gb_plot *plots, int n)
{
    int nx = 1, chars = 4;
    for (int i = 0; i < n; i++) {
        if (plots[i].nx > nx) nx = plots[i].nx;
        for (int x = 0; x < plots[i].nx; x++)
            if (width_chars(plots[i].xlabel[x]) > chars) chars = width_chars(plots[i].xlabel[x]);
    }
    int dx = chars * CHAR_W + 16 > 60 ? chars * CHAR_W + 16 : 60;
    int w = LEFT + nx * dx + LEGEND_W;
    return w > 760 ? w : 760;
}

void gb_plot_svg(FILE *f, const char *caption, const struct gb_plot *plots, int nplots)
{
    int width = plot_width(plots, nplots), one = TOP + PLOT_H + BOTTOM + GAP;
    int height = 40 + nplots * one;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"DejaVu Sans, Verdana, sans-serif\">\n", width, height, width, height);
    fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", width, height);
    fputs("<text x=\"16\" y=\"26\" font-size=\"13\">", f);
    esc(f, caption);
    fputs("</text>\n", f);
    for (int i = 0; i < nplots; i++) {
        int top = 40 + i * one + TOP;
        struct frame fr = frame_of(&plots[i], width, top);
        fprintf(f, "<g class=\"plot\">\n");
        axes(f, &plots[i], &fr, top);
        for (int s = plots[i].nseries - 1; s >= 0; s--) series(f, &plots[i], &fr, s);
        peak_line(f, &plots[i], &fr);
        legend(f, &plots[i], &fr, top);
        fputs("</g>\n", f);
    }
    fputs("</svg>\n", f);
}

int gb_plot_write(const char *path, const char *caption, const struct gb_plot *plots, int nplots)
{
    size_t len = strlen(path);
    char *tmp = malloc(len + 8);
    if (!tmp) return -1;
    memcpy(tmp, path, len);
    memcpy(tmp + len, ".XXXXXX", 8);
    int fd = mkstemp(tmp), e;
    FILE *f = fd >= 0 && fchmod(fd, 0644) == 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        e = errno;
        if (fd >= 0) { close(fd); unlink(tmp); }
        free(tmp);
        errno = e;
        return -1;
    }
    gb_plot_svg(f, caption, plots, nplots);
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        e = bad ? EIO : errno;
        unlink(tmp);
        free(tmp);
        errno = e;
        return -1;
    }
    free(tmp);
    return 0;
}
