/*
 * chart_internal.h — charts drawn with cairo and pango and written as SVG,
 * PDF or PNG, for the plots of `fit`, `holdout`, `isoflop`, `solve` and
 * `report` (loopscale/plot.h computes what they show).
 *
 * A chart is a grid of panels (small multiples) under one title, with one
 * legend to the right of the panels, so that the legend never covers data.
 * Each panel has an x and a y axis, linear or logarithmic; a log axis is
 * labelled at powers of ten written 10^k (as a superscript), with minor
 * ticks at 2..9 x 10^k; a tick label that would overlap another is left
 * out (powers of ten keep theirs first).  A panel's data are lines (polylines, optionally
 * with a marker at every point; NaN or, on a log axis, non-positive values
 * break a line), horizontal reference lines, shaded bands between two curves
 * and text.  Ranges are taken from the data unless set; drawing is clipped
 * to the plot area, and where a line leaves the plot area through its top or
 * bottom a small arrow on the edge says so (with a legend entry).
 *
 * All text given to a chart is Pango markup ("N<sub>act</sub>",
 * "&#961;<sub>eff</sub>", "10<sup>21</sup>"): ls_text_escape_xml() turns plain
 * text (a file name, a column label) into markup.  Text that is not valid
 * markup is drawn as it stands.
 *
 * The chart owns copies of everything given to it.  Adding to a chart can
 * only fail for want of memory; that failure is sticky (the adders return
 * LS_ERR_INTERNAL and ls_chart_render() reports it), so a caller may add
 * many things and check once, at render time.  ls_chart_render() returns
 * the file's bytes as a malloc'd buffer, which the caller writes
 * (atomically, through outfile.h) and frees.
 */
#ifndef LOOPSCALE_CHART_INTERNAL_H
#define LOOPSCALE_CHART_INTERNAL_H

#include <stddef.h>

#include "loopscale/error.h"
#include "loopscale/plot.h"


typedef enum { CHART_SCALE_LINEAR, CHART_SCALE_LOG } chart_scale;
typedef enum { CHART_AXIS_X, CHART_AXIS_Y } chart_axis;

typedef enum {
    CHART_MARKER_NONE,
    CHART_MARKER_CIRCLE,
    CHART_MARKER_SQUARE,
    CHART_MARKER_TRIANGLE,
    CHART_MARKER_DIAMOND,
    CHART_MARKER_STAR
} chart_marker;

typedef enum { CHART_DASH_SOLID, CHART_DASH_DASHED, CHART_DASH_DOTTED, CHART_DASH_DASHDOT } chart_dash;

/* Colours: 0..CHART_NCOLORS-1 index a palette that stays apart in print and
 * for the common colour-vision deficiencies; CHART_BLACK and CHART_GREY. */
#define CHART_NCOLORS 8
#define CHART_BLACK (-1)
#define CHART_GREY (-2)
/* A colour reserved for boundaries and annotations (what is out of reach),
 * outside the palette so that no series shares it. */
#define CHART_BOUNDARY (-3)

typedef struct chart_style {
    int color;         /* palette index (taken modulo CHART_NCOLORS), or CHART_BLACK, CHART_GREY, CHART_BOUNDARY */
    chart_dash dash;
    double width;      /* line width in points; 0 draws no line (markers only) */
    chart_marker marker; /* drawn at every point */
    double marker_size;/* radius in points (default 2.2 when 0) */
    int hollow;        /* markers outlined on white instead of filled */
    double fill_opacity; /* legend swatch of a shaded band when > 0 */
    int hatch;         /* legend swatch of a hatched region (a vspan) */
    int edged;         /* legend swatch of a band whose edges are drawn: lines along its top and bottom */
} chart_style;

/* A line in colour c: solid, 1.1 pt, no marker. */
chart_style ls_chart_line_style(int color);
/* Markers only. */
chart_style ls_chart_marker_style(int color, chart_marker marker);

typedef struct chart chart;
typedef struct chart_panel chart_panel;

/* A chart of rows x cols panels (both >= 1); NULL when out of memory. */
chart *ls_chart_new(const char *title, size_t rows, size_t cols);
void ls_chart_free(chart *f);
/* Plot-area size of every panel in points at its natural size (default
 * 210 x 150); a ls_figure with a size scales the panels to fit. */
void ls_chart_set_panel_size(chart *f, double width, double height);
/* The panel at (row, col), counted from 0; NULL when outside the grid. */
chart_panel *ls_chart_panel(chart *f, size_t row, size_t col);
/* A legend entry (in the order added) and a line of small text under the
 * panels (a caption: what is held fixed, where the data come from). */
int ls_chart_legend(chart *f, const char *label, const chart_style *style);
/* A shorter label for the legend entry added last, used when a small
 * figure (a paper column) has no room for the full one. */
int ls_chart_legend_brief(chart *f, const char *brief);
int ls_chart_note(chart *f, const char *text);

int ls_chart_panel_title(chart_panel *p, const char *title);
int ls_chart_panel_axis(chart_panel *p, chart_axis axis, const char *label, chart_scale scale);
/* Fix an axis range (lo < hi; both > 0 on a log axis). */
void ls_chart_panel_range(chart_panel *p, chart_axis axis, double lo, double hi);
/* Ticks at these values instead of the automatic ones. */
int ls_chart_panel_ticks(chart_panel *p, chart_axis axis, const double *values, size_t n);

int ls_chart_panel_line(chart_panel *p, const double *x, const double *y, size_t n, const chart_style *style);
/* A horizontal line across the whole panel at y, with an optional label
 * written above its right end. */
int ls_chart_panel_hline(chart_panel *p, double y, const chart_style *style, const char *label);
/* The region between lo(x) and hi(x), filled with colour at opacity. */
int ls_chart_panel_band(chart_panel *p, const double *x, const double *lo, const double *hi, size_t n, int color,
                   double opacity);
/* The full height of the panel from x0 to x1 shaded and hatched with
 * diagonal lines (-INFINITY and INFINITY reach the edges; a region beyond
 * what a law has seen), so that it reads apart from a band's plain fill. */
int ls_chart_panel_vspan(chart_panel *p, double x0, double x1, int color, double opacity);
/* Text at data coordinates (x, y); anchor -1 left, 0 centre, 1 right. */
int ls_chart_panel_text(chart_panel *p, double x, double y, const char *text, int anchor);

/* 0 when a figure of o's size (if it has one) and text size has room for
 * at least one panel, else LS_ERR_USAGE with a message: a check to make
 * before any work or output. Larger grids of panels degrade (brief legend
 * labels, fewer ticks, a compact view) rather than fail. */
int ls_chart_check_size(const ls_figure *o, ls_error *err) LS_MUST_CHECK;

/* The file's bytes (malloc'd, *len of them; NUL-terminated for SVG), or
 * NULL with an error: LS_ERR_INTERNAL when out of memory or cairo fails,
 * LS_ERR_USAGE when the requested size leaves no room for the panels;
 * LS_ERR_DATA when the figure at its natural size would be too large to
 * draw (past 200 in a side, or a PNG past 32767 pixels a side or 100
 * million in all: a legend of thousands of entries). */
unsigned char *ls_chart_render(const chart *f, const ls_figure *o, size_t *len, ls_error *err) LS_MUST_CHECK;

/* A number as markup, as tick labels write it: plain from 10^-3 to 10^5
 * ("0.25", "2000"), else m x 10^k with a superscript exponent ("10<sup>21</sup>",
 * "6&#215;10<sup>10</sup>", 3 significant digits).  Returns its length. */
size_t ls_chart_number(char *buf, size_t size, double v);


#endif
