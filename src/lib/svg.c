#include "loopscale/svg.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow_internal.h"

/* Layout, in pixels.  Every panel occupies a cell: its plot area plus room
 * for the title above it, the tick labels and axis label to its left and
 * below.  The legend is a column to the right of the grid. */
#define MARGIN_LEFT 78.0
#define MARGIN_RIGHT 18.0
#define MARGIN_TOP 28.0
#define MARGIN_BOTTOM 52.0
#define FIGURE_TITLE 40.0
#define FONT 12.0
#define CHAR_WIDTH 7.0 /* a generous average advance of the sans font at 12 px */
#define LEGEND_ROW 20.0
#define LEGEND_SWATCH 30.0
#define NOTE_ROW 16.0
#define PI 3.14159265358979323846

static const char *const PALETTE[SVG_NCOLORS] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                                 "#e69f00", "#56b4e9", "#7a4a00", "#5d5d5d"};

typedef enum { ITEM_LINE, ITEM_HLINE, ITEM_BAND, ITEM_TEXT } item_kind;

typedef struct item {
    item_kind kind;
    svg_style style;
    size_t n;
    double *x, *y, *y2; /* y2: a band's upper edge */
    double value;       /* hline */
    int anchor;
    char *text;
} item;

typedef struct axis_spec {
    char *label;
    svg_scale scale;
    int fixed;
    double lo, hi;
    double *ticks;
    size_t nticks;
} axis_spec;

struct svg_panel {
    svg_figure *owner;
    char *title;
    axis_spec axis[2];
    item *items;
    size_t nitems, cap;
};

typedef struct legend_entry {
    char *label;
    svg_style style;
} legend_entry;

struct svg_figure {
    char *title;
    size_t rows, cols;
    double panel_w, panel_h;
    svg_panel *panels;
    legend_entry *legend;
    size_t nlegend, legend_cap;
    char **notes;
    size_t nnotes, notes_cap;
    int failed; /* out of memory somewhere: sticky */
};

/* ---- styles ------------------------------------------------------------- */

svg_style ls_svg_line_style(int color)
{
    svg_style s = {color, SVG_DASH_SOLID, 1.8, SVG_MARKER_NONE, 0.0, 0, 0.0};
    return s;
}

svg_style ls_svg_marker_style(int color, svg_marker marker)
{
    svg_style s = {color, SVG_DASH_SOLID, 0.0, marker, 3.5, 0, 0.0};
    return s;
}

static const char *color_of(int c)
{
    if (c == SVG_BLACK)
        return "#000000";
    if (c < 0)
        return "#8a8a8a";
    return PALETTE[c % SVG_NCOLORS];
}

static const char *dash_of(svg_dash d)
{
    switch (d) {
    case SVG_DASH_DASHED: return "7 4";
    case SVG_DASH_DOTTED: return "2 3";
    case SVG_DASH_DASHDOT: return "9 3 2 3";
    default: return NULL;
    }
}

/* ---- construction ----------------------------------------------------- */

static char *dup_text(svg_figure *f, const char *s)
{
    if (!s)
        return NULL;
    char *d = strdup(s);
    if (!d)
        f->failed = 1;
    return d;
}

svg_figure *ls_svg_figure_new(const char *title, size_t rows, size_t cols)
{
    if (rows == 0 || cols == 0)
        return NULL;
    svg_figure *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->rows = rows;
    f->cols = cols;
    f->panel_w = 420.0;
    f->panel_h = 300.0;
    f->panels = calloc(rows * cols, sizeof *f->panels);
    f->title = title ? strdup(title) : NULL;
    if (!f->panels || (title && !f->title)) {
        ls_svg_figure_free(f);
        return NULL;
    }
    for (size_t i = 0; i < rows * cols; i++)
        f->panels[i].owner = f;
    return f;
}

static void free_panel(svg_panel *p)
{
    free(p->title);
    for (int a = 0; a < 2; a++) {
        free(p->axis[a].label);
        free(p->axis[a].ticks);
    }
    for (size_t i = 0; i < p->nitems; i++) {
        free(p->items[i].x);
        free(p->items[i].y);
        free(p->items[i].y2);
        free(p->items[i].text);
    }
    free(p->items);
}

void ls_svg_figure_free(svg_figure *f)
{
    if (!f)
        return;
    if (f->panels)
        for (size_t i = 0; i < f->rows * f->cols; i++)
            free_panel(&f->panels[i]);
    free(f->panels);
    for (size_t i = 0; i < f->nlegend; i++)
        free(f->legend[i].label);
    free(f->legend);
    for (size_t i = 0; i < f->nnotes; i++)
        free(f->notes[i]);
    free(f->notes);
    free(f->title);
    free(f);
}

void ls_svg_figure_set_panel_size(svg_figure *f, double width, double height)
{
    if (width > 50 && height > 50) {
        f->panel_w = width;
        f->panel_h = height;
    }
}

svg_panel *ls_svg_figure_panel(svg_figure *f, size_t row, size_t col)
{
    if (row >= f->rows || col >= f->cols)
        return NULL;
    return &f->panels[row * f->cols + col];
}

static int oom(svg_figure *f)
{
    f->failed = 1;
    return LS_ERR_INTERNAL;
}

int ls_svg_figure_legend(svg_figure *f, const char *label, const svg_style *style)
{
    if (ls_grow((void **)&f->legend, &f->legend_cap, f->nlegend + 1, sizeof *f->legend) != 0)
        return oom(f);
    char *copy = dup_text(f, label ? label : "");
    if (!copy)
        return LS_ERR_INTERNAL;
    f->legend[f->nlegend].label = copy;
    f->legend[f->nlegend].style = *style;
    f->nlegend++;
    return 0;
}

int ls_svg_figure_note(svg_figure *f, const char *text)
{
    if (ls_grow((void **)&f->notes, &f->notes_cap, f->nnotes + 1, sizeof *f->notes) != 0)
        return oom(f);
    char *copy = dup_text(f, text ? text : "");
    if (!copy)
        return LS_ERR_INTERNAL;
    f->notes[f->nnotes++] = copy;
    return 0;
}

int ls_svg_panel_title(svg_panel *p, const char *title)
{
    free(p->title);
    p->title = dup_text(p->owner, title);
    return p->title || !title ? 0 : LS_ERR_INTERNAL;
}

int ls_svg_panel_axis(svg_panel *p, svg_axis axis, const char *label, svg_scale scale)
{
    axis_spec *a = &p->axis[axis];
    free(a->label);
    a->label = dup_text(p->owner, label);
    a->scale = scale;
    return a->label || !label ? 0 : LS_ERR_INTERNAL;
}

void ls_svg_panel_range(svg_panel *p, svg_axis axis, double lo, double hi)
{
    axis_spec *a = &p->axis[axis];
    if (!(lo < hi) || !isfinite(lo) || !isfinite(hi))
        return;
    a->fixed = 1;
    a->lo = lo;
    a->hi = hi;
}

int ls_svg_panel_ticks(svg_panel *p, svg_axis axis, const double *values, size_t n)
{
    axis_spec *a = &p->axis[axis];
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return oom(p->owner);
    if (n)
        memcpy(v, values, n * sizeof *v);
    free(a->ticks);
    a->ticks = v;
    a->nticks = n;
    return 0;
}

static item *new_item(svg_panel *p, item_kind kind)
{
    if (p->owner->failed)
        return NULL;
    if (ls_grow((void **)&p->items, &p->cap, p->nitems + 1, sizeof *p->items) != 0) {
        oom(p->owner);
        return NULL;
    }
    item *it = &p->items[p->nitems++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    return it;
}

static double *dup_values(svg_figure *f, const double *v, size_t n)
{
    double *d = malloc((n ? n : 1) * sizeof *d);
    if (!d) {
        f->failed = 1;
        return NULL;
    }
    if (n)
        memcpy(d, v, n * sizeof *d);
    return d;
}

int ls_svg_panel_line(svg_panel *p, const double *x, const double *y, size_t n, const svg_style *style)
{
    item *it = new_item(p, ITEM_LINE);
    if (!it)
        return LS_ERR_INTERNAL;
    it->style = *style;
    it->n = n;
    it->x = dup_values(p->owner, x, n);
    it->y = dup_values(p->owner, y, n);
    return p->owner->failed ? LS_ERR_INTERNAL : 0;
}

int ls_svg_panel_hline(svg_panel *p, double y, const svg_style *style, const char *label)
{
    item *it = new_item(p, ITEM_HLINE);
    if (!it)
        return LS_ERR_INTERNAL;
    it->style = *style;
    it->value = y;
    it->text = dup_text(p->owner, label);
    return p->owner->failed ? LS_ERR_INTERNAL : 0;
}

int ls_svg_panel_band(svg_panel *p, const double *x, const double *lo, const double *hi, size_t n, int color,
                   double opacity)
{
    item *it = new_item(p, ITEM_BAND);
    if (!it)
        return LS_ERR_INTERNAL;
    it->style = ls_svg_line_style(color);
    it->style.fill_opacity = opacity;
    it->n = n;
    it->x = dup_values(p->owner, x, n);
    it->y = dup_values(p->owner, lo, n);
    it->y2 = dup_values(p->owner, hi, n);
    return p->owner->failed ? LS_ERR_INTERNAL : 0;
}

int ls_svg_panel_text(svg_panel *p, double x, double y, const char *text, int anchor)
{
    item *it = new_item(p, ITEM_TEXT);
    if (!it)
        return LS_ERR_INTERNAL;
    it->n = 1;
    it->x = dup_values(p->owner, &x, 1);
    it->y = dup_values(p->owner, &y, 1);
    it->anchor = anchor;
    it->text = dup_text(p->owner, text ? text : "");
    return p->owner->failed ? LS_ERR_INTERNAL : 0;
}

/* ---- text buffer ---------------------------------------------------------- */

typedef struct buffer {
    char *s;
    size_t len, cap;
    int failed;
} buffer;

static void put(buffer *b, const char *fmt, ...) LS_PRINTF(2, 3);

static int reserve(buffer *b, size_t more)
{
    if (b->failed)
        return -1;
    if (b->len + more + 1 <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + more + 1)
        cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s) {
        b->failed = 1;
        return -1;
    }
    b->s = s;
    b->cap = cap;
    return 0;
}

static void put(buffer *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || reserve(b, (size_t)n) != 0) {
        b->failed = 1;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

size_t ls_svg_escape(char *buf, size_t size, const char *text)
{
    size_t n = 0;
    for (const unsigned char *s = (const unsigned char *)text; *s; s++) {
        const char *rep = NULL;
        char one[2] = {(char)*s, '\0'};
        switch (*s) {
        case '&': rep = "&amp;"; break;
        case '<': rep = "&lt;"; break;
        case '>': rep = "&gt;"; break;
        case '"': rep = "&quot;"; break;
        case '\'': rep = "&apos;"; break;
        case '\t': rep = " "; break;
        default: rep = *s < 0x20 || *s == 0x7f ? "" : one; break;
        }
        for (const char *r = rep; *r; r++, n++)
            if (n + 1 < size)
                buf[n] = *r;
    }
    if (size > 0)
        buf[n < size ? n : size - 1] = '\0';
    return n;
}

static void put_text(buffer *b, const char *text)
{
    size_t n = ls_svg_escape(NULL, 0, text);
    if (reserve(b, n) != 0)
        return;
    ls_svg_escape(b->s + b->len, n + 1, text);
    b->len += n;
}

/* ---- axes ----------------------------------------------------------------- */

typedef struct frame {
    double x0, y0, w, h; /* plot area in pixels; y0 is the top */
    double lo[2], hi[2];  /* data ranges (log10 of them on a log axis) */
    svg_scale scale[2];
} frame;

static int usable(const frame *fr, svg_axis a, double v)
{
    return isfinite(v) && (fr->scale[a] == SVG_SCALE_LINEAR || v > 0);
}

static double coord(const frame *fr, svg_axis a, double v)
{
    double t = fr->scale[a] == SVG_SCALE_LOG ? log10(v) : v;
    double u = (t - fr->lo[a]) / (fr->hi[a] - fr->lo[a]);
    return a == SVG_AXIS_X ? fr->x0 + u * fr->w : fr->y0 + fr->h - u * fr->h;
}

static void extend(double *lo, double *hi, svg_scale scale, double v)
{
    if (!isfinite(v) || (scale == SVG_SCALE_LOG && !(v > 0)))
        return;
    double t = scale == SVG_SCALE_LOG ? log10(v) : v;
    *lo = fmin(*lo, t);
    *hi = fmax(*hi, t);
}

/* The data range of an axis (in log10 on a log axis), padded by 4%, or the
 * fixed range. */
static void axis_range(const svg_panel *p, svg_axis a, double *lo, double *hi)
{
    const axis_spec *ax = &p->axis[a];
    if (ax->fixed) {
        *lo = ax->scale == SVG_SCALE_LOG ? log10(ax->lo) : ax->lo;
        *hi = ax->scale == SVG_SCALE_LOG ? log10(ax->hi) : ax->hi;
        return;
    }
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t i = 0; i < p->nitems; i++) {
        const item *it = &p->items[i];
        if (it->kind == ITEM_HLINE) {
            if (a == SVG_AXIS_Y)
                extend(lo, hi, ax->scale, it->value);
            continue;
        }
        if (it->kind == ITEM_TEXT)
            continue;
        for (size_t k = 0; k < it->n; k++) {
            extend(lo, hi, ax->scale, a == SVG_AXIS_X ? it->x[k] : it->y[k]);
            if (a == SVG_AXIS_Y && it->y2)
                extend(lo, hi, ax->scale, it->y2[k]);
        }
    }
    if (!(*lo <= *hi)) { /* no data */
        *lo = ax->scale == SVG_SCALE_LOG ? 0.0 : 0.0;
        *hi = 1.0;
        return;
    }
    double span = *hi - *lo;
    if (span <= 0) /* one value: a range around it */
        span = ax->scale == SVG_SCALE_LOG ? 0.5 : fmax(fabs(*lo) * 0.1, 1e-9) * 2;
    if (*hi - *lo <= 0) {
        *lo -= span / 2;
        *hi += span / 2;
        return;
    }
    *lo -= 0.04 * span;
    *hi += 0.04 * span;
}

/* A round step near span / want: 1, 2 or 5 times a power of ten. */
static double nice_step(double span, double want)
{
    double raw = span / want, mag = pow(10.0, floor(log10(raw))), r = raw / mag;
    double step = r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10;
    return step * mag;
}

/* Tick values (in data units) into v (at most max). */
static size_t auto_ticks(svg_scale scale, double lo, double hi, double *v, size_t max)
{
    size_t n = 0;
    if (scale == SVG_SCALE_LINEAR) {
        double step = nice_step(hi - lo, 5.0);
        for (double t = ceil(lo / step) * step; t <= hi + 1e-9 * step && n < max; t += step)
            v[n++] = fabs(t) < 1e-12 * step ? 0.0 : t;
        return n;
    }
    double decades = hi - lo;
    if (decades >= 2.5) {
        double every = decades > 12 ? ceil(decades / 6) : decades > 6 ? 2 : 1;
        for (double e = ceil(lo / every) * every; e <= hi + 1e-9 && n < max; e += every)
            v[n++] = pow(10.0, e);
        return n;
    }
    static const double mant_wide[] = {1, 2, 5};
    static const double mant_narrow[] = {1, 1.5, 2, 3, 4, 5, 6, 7, 8, 9};
    const double *m = decades >= 0.8 ? mant_wide : mant_narrow;
    size_t nm = decades >= 0.8 ? 3 : 10;
    for (double e = floor(lo); e <= ceil(hi) && n < max; e += 1)
        for (size_t k = 0; k < nm && n < max; k++) {
            double t = m[k] * pow(10.0, e), lt = log10(t);
            if (lt >= lo - 1e-9 && lt <= hi + 1e-9)
                v[n++] = t;
        }
    if (n < 2 && decades < 0.8) { /* a very narrow log range: linear ticks */
        n = 0;
        return auto_ticks(SVG_SCALE_LINEAR, pow(10.0, lo), pow(10.0, hi), v, max);
    }
    return n;
}

/* A tick label: short, and in e-notation for large or small magnitudes
 * ("3e8", "1.5e21"). */
static void tick_label(char *buf, size_t size, double v, double step)
{
    double a = fabs(v);
    if (v == 0) {
        snprintf(buf, size, "0");
        return;
    }
    if (a >= 1e5 || a < 1e-3) {
        int e = (int)floor(log10(a));
        double m = v / pow(10.0, e);
        if (fabs(m) >= 9.9995) {
            m /= 10;
            e++;
        }
        char mant[32];
        snprintf(mant, sizeof mant, "%.3g", m);
        snprintf(buf, size, "%se%d", mant, e);
        return;
    }
    int decimals = 0;
    if (step > 0 && step < 1)
        decimals = (int)ceil(-log10(step) - 1e-9);
    if (step <= 0) /* log ticks */
        snprintf(buf, size, "%.4g", v);
    else
        snprintf(buf, size, "%.*f", decimals > 6 ? 6 : decimals, v);
}

/* ---- drawing ---------------------------------------------------------------- */

static void put_style(buffer *b, const svg_style *s)
{
    put(b, " fill=\"none\" stroke=\"%s\" stroke-width=\"%.2f\" stroke-linejoin=\"round\"", color_of(s->color),
        s->width);
    const char *dash = dash_of(s->dash);
    if (dash)
        put(b, " stroke-dasharray=\"%s\"", dash);
}

static void put_marker(buffer *b, svg_marker m, double x, double y, double r, const svg_style *s)
{
    const char *c = color_of(s->color);
    char paint[96];
    snprintf(paint, sizeof paint, "fill=\"%s\" stroke=\"%s\" stroke-width=\"1.2\"", s->hollow ? "#ffffff" : c, c);
    switch (m) {
    case SVG_MARKER_CIRCLE:
        put(b, "<circle class=\"marker\" cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" %s/>\n", x, y, r, paint);
        break;
    case SVG_MARKER_SQUARE:
        put(b, "<rect class=\"marker\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" %s/>\n", x - r * 0.9,
            y - r * 0.9, 1.8 * r, 1.8 * r, paint);
        break;
    case SVG_MARKER_TRIANGLE:
        put(b, "<polygon class=\"marker\" points=\"%.2f,%.2f %.2f,%.2f %.2f,%.2f\" %s/>\n", x, y - 1.2 * r,
            x - 1.1 * r, y + 0.8 * r, x + 1.1 * r, y + 0.8 * r, paint);
        break;
    case SVG_MARKER_DIAMOND:
        put(b, "<polygon class=\"marker\" points=\"%.2f,%.2f %.2f,%.2f %.2f,%.2f %.2f,%.2f\" %s/>\n", x,
            y - 1.3 * r, x + r, y, x, y + 1.3 * r, x - r, y, paint);
        break;
    case SVG_MARKER_STAR: {
        put(b, "<polygon class=\"marker\" points=\"");
        for (int k = 0; k < 10; k++) {
            double ang = -PI / 2 + k * PI / 5, rr = k % 2 ? 0.45 * r : r;
            put(b, "%s%.2f,%.2f", k ? " " : "", x + rr * cos(ang), y + rr * sin(ang));
        }
        put(b, "\" %s/>\n", paint);
        break;
    }
    default: break;
    }
}

static void draw_line(buffer *b, const frame *fr, const item *it)
{
    const svg_style *s = &it->style;
    if (s->width > 0) {
        size_t k = 0;
        while (k < it->n) {
            while (k < it->n && !(usable(fr, SVG_AXIS_X, it->x[k]) && usable(fr, SVG_AXIS_Y, it->y[k])))
                k++;
            size_t start = k;
            while (k < it->n && usable(fr, SVG_AXIS_X, it->x[k]) && usable(fr, SVG_AXIS_Y, it->y[k]))
                k++;
            if (k - start >= 2) {
                put(b, "<polyline class=\"series\" points=\"");
                for (size_t j = start; j < k; j++)
                    put(b, "%s%.2f,%.2f", j > start ? " " : "", coord(fr, SVG_AXIS_X, it->x[j]),
                        coord(fr, SVG_AXIS_Y, it->y[j]));
                put(b, "\"");
                put_style(b, s);
                put(b, "/>\n");
            }
        }
    }
    if (s->marker != SVG_MARKER_NONE)
        for (size_t k = 0; k < it->n; k++)
            if (usable(fr, SVG_AXIS_X, it->x[k]) && usable(fr, SVG_AXIS_Y, it->y[k]))
                put_marker(b, s->marker, coord(fr, SVG_AXIS_X, it->x[k]), coord(fr, SVG_AXIS_Y, it->y[k]),
                           s->marker_size > 0 ? s->marker_size : 3.5, s);
}

static void draw_band(buffer *b, const frame *fr, const item *it)
{
    size_t k = 0;
    while (k < it->n) {
        while (k < it->n && !(usable(fr, SVG_AXIS_X, it->x[k]) && usable(fr, SVG_AXIS_Y, it->y[k]) &&
                              usable(fr, SVG_AXIS_Y, it->y2[k])))
            k++;
        size_t start = k;
        while (k < it->n && usable(fr, SVG_AXIS_X, it->x[k]) && usable(fr, SVG_AXIS_Y, it->y[k]) &&
               usable(fr, SVG_AXIS_Y, it->y2[k]))
            k++;
        if (k - start < 2)
            continue;
        put(b, "<polygon class=\"band\" points=\"");
        for (size_t j = start; j < k; j++)
            put(b, "%.2f,%.2f ", coord(fr, SVG_AXIS_X, it->x[j]), coord(fr, SVG_AXIS_Y, it->y2[j]));
        for (size_t j = k; j-- > start;)
            put(b, "%.2f,%.2f%s", coord(fr, SVG_AXIS_X, it->x[j]), coord(fr, SVG_AXIS_Y, it->y[j]),
                j > start ? " " : "");
        put(b, "\" fill=\"%s\" fill-opacity=\"%.3f\" stroke=\"none\"/>\n", color_of(it->style.color),
            it->style.fill_opacity);
    }
}

static const char *anchor_name(int anchor) { return anchor < 0 ? "start" : anchor > 0 ? "end" : "middle"; }

static void draw_axis_ticks(buffer *b, const frame *fr, const svg_panel *p, svg_axis a)
{
    const axis_spec *ax = &p->axis[a];
    double v[64];
    size_t n;
    double step = 0;
    if (ax->ticks) {
        n = 0;
        for (size_t i = 0; i < ax->nticks && n < 64; i++) {
            double t = ax->scale == SVG_SCALE_LOG ? log10(ax->ticks[i]) : ax->ticks[i];
            if (usable(fr, a, ax->ticks[i]) && t >= fr->lo[a] - 1e-9 && t <= fr->hi[a] + 1e-9)
                v[n++] = ax->ticks[i];
        }
    } else {
        n = auto_ticks(ax->scale, fr->lo[a], fr->hi[a], v, 64);
        if (ax->scale == SVG_SCALE_LINEAR)
            step = nice_step(fr->hi[a] - fr->lo[a], 5.0);
        else if (fr->hi[a] - fr->lo[a] < 0.8 && n >= 2 && v[1] - v[0] > 0 &&
                 fabs(log10(v[1] / v[0]) - log10(v[n - 1] / v[n - 2])) > 1e-6)
            step = nice_step(pow(10.0, fr->hi[a]) - pow(10.0, fr->lo[a]), 5.0); /* fell back to linear */
    }
    for (size_t i = 0; i < n; i++) {
        char label[48];
        tick_label(label, sizeof label, v[i], step);
        double c = coord(fr, a, v[i]);
        if (a == SVG_AXIS_X) {
            put(b, "<line class=\"grid\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#e6e6e6\"/>\n", c,
                fr->y0, c, fr->y0 + fr->h);
            put(b, "<line class=\"tick\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#000000\"/>\n", c,
                fr->y0 + fr->h, c, fr->y0 + fr->h + 5);
            put(b, "<text class=\"tick-label\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">", c, fr->y0 + fr->h + 18);
        } else {
            put(b, "<line class=\"grid\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#e6e6e6\"/>\n",
                fr->x0, c, fr->x0 + fr->w, c);
            put(b, "<line class=\"tick\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#000000\"/>\n",
                fr->x0 - 5, c, fr->x0, c);
            put(b, "<text class=\"tick-label\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\">", fr->x0 - 8, c + 4);
        }
        put_text(b, label);
        put(b, "</text>\n");
    }
}

static void draw_panel(buffer *b, const svg_figure *f, const svg_panel *p, size_t index, double cx, double cy)
{
    if (p->nitems == 0 && !p->title && !p->axis[0].label && !p->axis[1].label)
        return; /* an unused cell of the grid */
    frame fr;
    fr.x0 = cx + MARGIN_LEFT;
    fr.y0 = cy + MARGIN_TOP;
    fr.w = f->panel_w;
    fr.h = f->panel_h;
    for (int a = 0; a < 2; a++) {
        fr.scale[a] = p->axis[a].scale;
        axis_range(p, (svg_axis)a, &fr.lo[a], &fr.hi[a]);
    }
    put(b, "<g class=\"panel\">\n");
    put(b, "<clipPath id=\"clip%zu\"><rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"/></clipPath>\n", index,
        fr.x0, fr.y0, fr.w, fr.h);
    put(b, "<rect class=\"plot-area\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#ffffff\" "
           "stroke=\"none\"/>\n",
        fr.x0, fr.y0, fr.w, fr.h);
    draw_axis_ticks(b, &fr, p, SVG_AXIS_X);
    draw_axis_ticks(b, &fr, p, SVG_AXIS_Y);
    put(b, "<g clip-path=\"url(#clip%zu)\">\n", index);
    /* Bands first, then reference lines, then data on top. */
    for (int pass = 0; pass < 3; pass++)
        for (size_t i = 0; i < p->nitems; i++) {
            const item *it = &p->items[i];
            if (pass == 0 && it->kind == ITEM_BAND)
                draw_band(b, &fr, it);
            if (pass == 1 && it->kind == ITEM_HLINE && usable(&fr, SVG_AXIS_Y, it->value)) {
                double y = coord(&fr, SVG_AXIS_Y, it->value);
                put(b, "<line class=\"hline\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"", fr.x0, y, fr.x0 + fr.w,
                    y);
                put_style(b, &it->style);
                put(b, "/>\n");
                if (it->text && *it->text) {
                    put(b, "<text class=\"hline-label\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\" font-size=\"11\" "
                           "fill=\"%s\">",
                        fr.x0 + fr.w - 4, y - 4, color_of(it->style.color));
                    put_text(b, it->text);
                    put(b, "</text>\n");
                }
            }
            if (pass == 2 && it->kind == ITEM_LINE)
                draw_line(b, &fr, it);
        }
    put(b, "</g>\n");
    for (size_t i = 0; i < p->nitems; i++) {
        const item *it = &p->items[i];
        if (it->kind != ITEM_TEXT || !usable(&fr, SVG_AXIS_X, it->x[0]) || !usable(&fr, SVG_AXIS_Y, it->y[0]))
            continue;
        put(b, "<text class=\"note\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\" font-size=\"11\">",
            coord(&fr, SVG_AXIS_X, it->x[0]), coord(&fr, SVG_AXIS_Y, it->y[0]), anchor_name(it->anchor));
        put_text(b, it->text);
        put(b, "</text>\n");
    }
    put(b, "<rect class=\"frame\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"none\" "
           "stroke=\"#000000\"/>\n",
        fr.x0, fr.y0, fr.w, fr.h);
    if (p->title) {
        put(b, "<text class=\"panel-title\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" font-weight=\"bold\">",
            fr.x0 + fr.w / 2, cy + MARGIN_TOP - 9);
        put_text(b, p->title);
        put(b, "</text>\n");
    }
    if (p->axis[SVG_AXIS_X].label) {
        put(b, "<text class=\"axis-label\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">", fr.x0 + fr.w / 2,
            fr.y0 + fr.h + 40);
        put_text(b, p->axis[SVG_AXIS_X].label);
        put(b, "</text>\n");
    }
    if (p->axis[SVG_AXIS_Y].label) {
        double x = cx + 16, y = fr.y0 + fr.h / 2;
        put(b, "<text class=\"axis-label\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" "
               "transform=\"rotate(-90 %.2f %.2f)\">",
            x, y, x, y);
        put_text(b, p->axis[SVG_AXIS_Y].label);
        put(b, "</text>\n");
    }
    put(b, "</g>\n");
}

static void draw_swatch(buffer *b, const svg_style *s, double x, double y)
{
    if (s->fill_opacity > 0) {
        put(b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"12\" fill=\"%s\" fill-opacity=\"%.3f\" "
               "stroke=\"none\"/>\n",
            x, y - 6, LEGEND_SWATCH - 6, color_of(s->color), s->fill_opacity);
        return;
    }
    if (s->width > 0) {
        put(b, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"", x, y, x + LEGEND_SWATCH - 6, y);
        put_style(b, s);
        put(b, "/>\n");
    }
    if (s->marker != SVG_MARKER_NONE)
        put_marker(b, s->marker, x + (LEGEND_SWATCH - 6) / 2, y, s->marker_size > 0 ? s->marker_size : 3.5, s);
}

char *ls_svg_figure_render(const svg_figure *f, ls_error *err)
{
    if (f->failed) {
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory while building the plot");
        return NULL;
    }
    double cell_w = MARGIN_LEFT + f->panel_w + MARGIN_RIGHT, cell_h = MARGIN_TOP + f->panel_h + MARGIN_BOTTOM;
    double legend_w = 0;
    for (size_t i = 0; i < f->nlegend; i++)
        legend_w = fmax(legend_w, LEGEND_SWATCH + CHAR_WIDTH * (double)strlen(f->legend[i].label) + 24);
    double grid_w = cell_w * (double)f->cols, grid_h = cell_h * (double)f->rows;
    double legend_h = 28 + LEGEND_ROW * (double)f->nlegend;
    double width = grid_w + legend_w + 12;
    double notes_w = 0;
    for (size_t i = 0; i < f->nnotes; i++)
        notes_w = fmax(notes_w, 24 + 6.2 * (double)strlen(f->notes[i]));
    width = fmax(width, notes_w);
    if (f->title) /* the title's bold 16 px text, about 9.5 px a character */
        width = fmax(width, 40 + 9.5 * (double)strlen(f->title));
    double title_h = f->title ? FIGURE_TITLE : 10;
    double height = title_h + fmax(grid_h, legend_h) + NOTE_ROW * (double)f->nnotes + (f->nnotes ? 10 : 0);
    width = ceil(width);
    height = ceil(height);

    buffer b = {0};
    put(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    put(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\" font-size=\"%.0f\">\n",
        width, height, width, height, FONT);
    if (f->title) {
        put(&b, "<title>");
        put_text(&b, f->title);
        put(&b, "</title>\n");
    }
    put(&b, "<rect class=\"background\" x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n", width,
        height);
    if (f->title) {
        put(&b, "<text class=\"figure-title\" x=\"%.2f\" y=\"26\" text-anchor=\"middle\" font-size=\"16\" "
                "font-weight=\"bold\">",
            ceil(width) / 2);
        put_text(&b, f->title);
        put(&b, "</text>\n");
    }
    for (size_t r = 0; r < f->rows; r++)
        for (size_t c = 0; c < f->cols; c++)
            draw_panel(&b, f, &f->panels[r * f->cols + c], r * f->cols + c, cell_w * (double)c,
                       title_h + cell_h * (double)r);
    if (f->nlegend) {
        double lx = grid_w + 4, ly = title_h + MARGIN_TOP;
        put(&b, "<g class=\"legend\">\n");
        put(&b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#ffffff\" stroke=\"#bbbbbb\"/>\n",
            lx, ly, legend_w, legend_h - 8);
        for (size_t i = 0; i < f->nlegend; i++) {
            double y = ly + 18 + LEGEND_ROW * (double)i;
            put(&b, "<g class=\"legend-entry\">\n");
            draw_swatch(&b, &f->legend[i].style, lx + 10, y);
            put(&b, "<text x=\"%.2f\" y=\"%.2f\">", lx + 10 + LEGEND_SWATCH, y + 4);
            put_text(&b, f->legend[i].label);
            put(&b, "</text>\n</g>\n");
        }
        put(&b, "</g>\n");
    }
    for (size_t i = 0; i < f->nnotes; i++) {
        put(&b, "<text class=\"caption\" x=\"12\" y=\"%.2f\" font-size=\"11\" fill=\"#333333\">",
            title_h + fmax(grid_h, legend_h) + NOTE_ROW * (double)(i + 1));
        put_text(&b, f->notes[i]);
        put(&b, "</text>\n");
    }
    put(&b, "</svg>\n");
    if (b.failed) {
        free(b.s);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory while writing the plot");
        return NULL;
    }
    return b.s;
}
