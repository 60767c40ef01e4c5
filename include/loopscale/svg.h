/*
 * loopscale/svg.h — charts written directly as SVG, for the plots of `fit`,
 * `holdout`, `isoflop` and `solve` (loopscale/plot.h computes what they show).
 *
 * A figure is a grid of panels (small multiples) under one title, with one
 * legend to the right of the panels, so that the legend never covers data.
 * Each panel has an x and a y axis, linear or logarithmic, with ticks, grid
 * lines and labels; its data are lines (polylines, optionally with a marker
 * at every point; NaN or, on a log axis, non-positive values break a line),
 * horizontal reference lines, shaded bands between two curves and text.
 * Ranges are taken from the data unless set; drawing is clipped to the plot
 * area.  Text is escaped for XML, so any label is safe.
 *
 * The figure owns copies of everything given to it.  Adding to a figure can
 * only fail for want of memory; that failure is sticky (the adders return
 * LS_ERR_INTERNAL and ls_svg_figure_render() reports it), so a caller may add
 * many things and check once, at render time.  svg_figure_render() returns
 * the document as a malloc'd string, which the caller writes (atomically,
 * through outfile.h) and frees.
 *
 * Thread safety: a figure belongs to one thread at a time; the functions
 * keep no state of their own.
 */
#ifndef LOOPSCALE_SVG_H
#define LOOPSCALE_SVG_H

#include <stddef.h>

#include "loopscale/error.h"
#include "loopscale/export.h"

LS_API_BEGIN

typedef enum { SVG_SCALE_LINEAR, SVG_SCALE_LOG } svg_scale;
typedef enum { SVG_AXIS_X, SVG_AXIS_Y } svg_axis;

typedef enum {
    SVG_MARKER_NONE,
    SVG_MARKER_CIRCLE,
    SVG_MARKER_SQUARE,
    SVG_MARKER_TRIANGLE,
    SVG_MARKER_DIAMOND,
    SVG_MARKER_STAR
} svg_marker;

typedef enum { SVG_DASH_SOLID, SVG_DASH_DASHED, SVG_DASH_DOTTED, SVG_DASH_DASHDOT } svg_dash;

/* Colours: 0..SVG_NCOLORS-1 index a palette that stays apart in print and
 * for the common colour-vision deficiencies; SVG_BLACK and SVG_GREY. */
#define SVG_NCOLORS 8
#define SVG_BLACK (-1)
#define SVG_GREY (-2)

typedef struct svg_style {
    int color;         /* palette index (taken modulo SVG_NCOLORS), or SVG_BLACK, SVG_GREY */
    svg_dash dash;
    double width;      /* line width in pixels; 0 draws no line (markers only) */
    svg_marker marker; /* drawn at every point */
    double marker_size;/* radius in pixels (default 3.5 when 0) */
    int hollow;        /* markers outlined on white instead of filled */
    double fill_opacity; /* legend swatch of a shaded band when > 0 */
} svg_style;

/* A line in colour c: solid, 1.8 px, no marker. */
svg_style ls_svg_line_style(int color);
/* Markers only. */
svg_style ls_svg_marker_style(int color, svg_marker marker);

typedef struct svg_figure svg_figure;
typedef struct svg_panel svg_panel;

/* A figure of rows x cols panels (both >= 1); NULL when out of memory. */
svg_figure *ls_svg_figure_new(const char *title, size_t rows, size_t cols);
void ls_svg_figure_free(svg_figure *f);
/* Plot-area size of every panel in pixels (default 420 x 300). */
void ls_svg_figure_set_panel_size(svg_figure *f, double width, double height);
/* The panel at (row, col), counted from 0; NULL when outside the grid. */
svg_panel *ls_svg_figure_panel(svg_figure *f, size_t row, size_t col);
/* A legend entry (in the order added) and a line of small text under the
 * panels (a caption: what is held fixed, where the data come from). */
int ls_svg_figure_legend(svg_figure *f, const char *label, const svg_style *style);
int ls_svg_figure_note(svg_figure *f, const char *text);

int ls_svg_panel_title(svg_panel *p, const char *title);
int ls_svg_panel_axis(svg_panel *p, svg_axis axis, const char *label, svg_scale scale);
/* Fix an axis range (lo < hi; both > 0 on a log axis). */
void ls_svg_panel_range(svg_panel *p, svg_axis axis, double lo, double hi);
/* Ticks at these values instead of the automatic ones. */
int ls_svg_panel_ticks(svg_panel *p, svg_axis axis, const double *values, size_t n);

int ls_svg_panel_line(svg_panel *p, const double *x, const double *y, size_t n, const svg_style *style);
/* A horizontal line across the whole panel at y, with an optional label
 * written above its right end. */
int ls_svg_panel_hline(svg_panel *p, double y, const svg_style *style, const char *label);
/* The region between lo(x) and hi(x), filled with colour at opacity. */
int ls_svg_panel_band(svg_panel *p, const double *x, const double *lo, const double *hi, size_t n, int color,
                   double opacity);
/* Text at data coordinates (x, y); anchor -1 left, 0 centre, 1 right. */
int ls_svg_panel_text(svg_panel *p, double x, double y, const char *text, int anchor);

/* The SVG document (malloc'd, NUL-terminated), or NULL with an error. */
char *ls_svg_figure_render(const svg_figure *f, ls_error *err) LS_MUST_CHECK;

/* Append text to a buffer with XML's five special characters escaped and
 * control characters dropped (exposed for the tests).  Returns the length
 * the escaped text needs, like snprintf. */
size_t ls_svg_escape(char *buf, size_t size, const char *text);

LS_API_END

#endif
