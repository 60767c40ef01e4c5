#include "chart_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>
#include <pango/pangocairo.h>
#include <zlib.h>

#include "grow_internal.h"
#include "text_internal.h"

#ifndef LOOPSCALE_VERSION
#define LOOPSCALE_VERSION "unknown"
#endif

#define PI 3.14159265358979323846
#define FONT_FAMILY "DejaVu Sans"
#define TICK_LEN 3.5 /* points */
#define MINOR_TICK_LEN 2.0

static const char *const PALETTE[CHART_NCOLORS] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                                 "#e69f00", "#56b4e9", "#7a4a00", "#5d5d5d"};

typedef enum { ITEM_LINE, ITEM_HLINE, ITEM_BAND, ITEM_TEXT, ITEM_VSPAN } item_kind;

typedef struct item {
    item_kind kind;
    chart_style style;
    size_t n;
    double *x, *y, *y2; /* y2: a band's upper edge */
    double value;       /* hline */
    int anchor;
    char *text;
} item;

typedef struct axis_spec {
    char *label;
    chart_scale scale;
    int fixed;
    double lo, hi;
    double *ticks;
    size_t nticks;
} axis_spec;

struct chart_panel {
    chart *owner;
    char *title;
    axis_spec axis[2];
    item *items;
    size_t nitems, cap;
};

typedef struct legend_entry {
    char *label;
    char *brief; /* a shorter label for a cramped figure, or NULL */
    chart_style style;
} legend_entry;

struct chart {
    char *title;
    size_t rows, cols;
    double panel_w, panel_h;
    chart_panel *panels;
    legend_entry *legend;
    size_t nlegend, legend_cap;
    char **notes;
    size_t nnotes, notes_cap;
    int failed; /* out of memory somewhere: sticky */
};

/* ---- styles ------------------------------------------------------------- */

chart_style ls_chart_line_style(int color)
{
    chart_style s = {color, CHART_DASH_SOLID, 1.1, CHART_MARKER_NONE, 0.0, 0, 0.0, 0, 0};
    return s;
}

chart_style ls_chart_marker_style(int color, chart_marker marker)
{
    chart_style s = {color, CHART_DASH_SOLID, 0.0, marker, 2.2, 0, 0.0, 0, 0};
    return s;
}

static void set_color(cairo_t *cr, int c, double alpha)
{
    unsigned v = 0x8a8a8a;
    if (c == CHART_BLACK)
        v = 0x000000;
    else if (c == CHART_BOUNDARY)
        v = 0x882255; /* wine: apart from every palette colour */
    else if (c >= 0)
        v = (unsigned)strtoul(PALETTE[c % CHART_NCOLORS] + 1, NULL, 16);
    cairo_set_source_rgba(cr, (double)((v >> 16) & 0xff) / 255.0, (double)((v >> 8) & 0xff) / 255.0,
                          (double)(v & 0xff) / 255.0, alpha);
}

/* Dash patterns in points, for a line of width w. */
static void set_dash(cairo_t *cr, chart_dash d, double w)
{
    double u = fmax(w, 0.8);
    double dashed[] = {3.6 * u, 2.0 * u}, dotted[] = {0.9 * u, 1.6 * u}, dashdot[] = {4.5 * u, 1.6 * u, 0.9 * u, 1.6 * u};
    switch (d) {
    case CHART_DASH_DASHED: cairo_set_dash(cr, dashed, 2, 0); break;
    case CHART_DASH_DOTTED: cairo_set_dash(cr, dotted, 2, 0); break;
    case CHART_DASH_DASHDOT: cairo_set_dash(cr, dashdot, 4, 0); break;
    default: cairo_set_dash(cr, NULL, 0, 0); break;
    }
}

/* ---- construction ----------------------------------------------------- */

static char *dup_text(chart *f, const char *s)
{
    if (!s)
        return NULL;
    char *d = strdup(s);
    if (!d)
        f->failed = 1;
    return d;
}

chart *ls_chart_new(const char *title, size_t rows, size_t cols)
{
    if (rows == 0 || cols == 0)
        return NULL;
    chart *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->rows = rows;
    f->cols = cols;
    f->panel_w = 210.0;
    f->panel_h = 150.0;
    f->panels = calloc(rows * cols, sizeof *f->panels);
    f->title = title ? strdup(title) : NULL;
    if (!f->panels || (title && !f->title)) {
        ls_chart_free(f);
        return NULL;
    }
    for (size_t i = 0; i < rows * cols; i++)
        f->panels[i].owner = f;
    return f;
}

static void free_panel(chart_panel *p)
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

void ls_chart_free(chart *f)
{
    if (!f)
        return;
    if (f->panels)
        for (size_t i = 0; i < f->rows * f->cols; i++)
            free_panel(&f->panels[i]);
    free(f->panels);
    for (size_t i = 0; i < f->nlegend; i++) {
        free(f->legend[i].label);
        free(f->legend[i].brief);
    }
    free(f->legend);
    for (size_t i = 0; i < f->nnotes; i++)
        free(f->notes[i]);
    free(f->notes);
    free(f->title);
    free(f);
}

void ls_chart_set_panel_size(chart *f, double width, double height)
{
    if (width > 20 && height > 20) {
        f->panel_w = width;
        f->panel_h = height;
    }
}

chart_panel *ls_chart_panel(chart *f, size_t row, size_t col)
{
    if (row >= f->rows || col >= f->cols)
        return NULL;
    return &f->panels[row * f->cols + col];
}

static int oom(chart *f)
{
    f->failed = 1;
    return LS_ERR_INTERNAL;
}

int ls_chart_legend(chart *f, const char *label, const chart_style *style)
{
    if (ls_grow((void **)&f->legend, &f->legend_cap, f->nlegend + 1, sizeof *f->legend) != 0)
        return oom(f);
    char *copy = dup_text(f, label ? label : "");
    if (!copy)
        return LS_ERR_INTERNAL;
    f->legend[f->nlegend].label = copy;
    f->legend[f->nlegend].brief = NULL;
    f->legend[f->nlegend].style = *style;
    f->nlegend++;
    return 0;
}

int ls_chart_legend_brief(chart *f, const char *brief)
{
    if (f->nlegend == 0 || !brief)
        return 0;
    char *copy = dup_text(f, brief);
    if (!copy)
        return LS_ERR_INTERNAL;
    free(f->legend[f->nlegend - 1].brief);
    f->legend[f->nlegend - 1].brief = copy;
    return 0;
}

int ls_chart_note(chart *f, const char *text)
{
    if (ls_grow((void **)&f->notes, &f->notes_cap, f->nnotes + 1, sizeof *f->notes) != 0)
        return oom(f);
    char *copy = dup_text(f, text ? text : "");
    if (!copy)
        return LS_ERR_INTERNAL;
    f->notes[f->nnotes++] = copy;
    return 0;
}

int ls_chart_panel_title(chart_panel *p, const char *title)
{
    free(p->title);
    p->title = dup_text(p->owner, title);
    return p->title || !title ? 0 : LS_ERR_INTERNAL;
}

int ls_chart_panel_axis(chart_panel *p, chart_axis axis, const char *label, chart_scale scale)
{
    axis_spec *a = &p->axis[axis];
    free(a->label);
    a->label = dup_text(p->owner, label);
    a->scale = scale;
    return a->label || !label ? 0 : LS_ERR_INTERNAL;
}

void ls_chart_panel_range(chart_panel *p, chart_axis axis, double lo, double hi)
{
    axis_spec *a = &p->axis[axis];
    if (!(lo < hi) || !isfinite(lo) || !isfinite(hi))
        return;
    a->fixed = 1;
    a->lo = lo;
    a->hi = hi;
}

int ls_chart_panel_ticks(chart_panel *p, chart_axis axis, const double *values, size_t n)
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

static item *new_item(chart_panel *p, item_kind kind)
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

static double *dup_values(chart *f, const double *v, size_t n)
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

int ls_chart_panel_line(chart_panel *p, const double *x, const double *y, size_t n, const chart_style *style)
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

int ls_chart_panel_hline(chart_panel *p, double y, const chart_style *style, const char *label)
{
    item *it = new_item(p, ITEM_HLINE);
    if (!it)
        return LS_ERR_INTERNAL;
    it->style = *style;
    it->value = y;
    it->text = dup_text(p->owner, label);
    return p->owner->failed ? LS_ERR_INTERNAL : 0;
}

int ls_chart_panel_band(chart_panel *p, const double *x, const double *lo, const double *hi, size_t n, int color,
                   double opacity)
{
    item *it = new_item(p, ITEM_BAND);
    if (!it)
        return LS_ERR_INTERNAL;
    it->style = ls_chart_line_style(color);
    it->style.fill_opacity = opacity;
    it->n = n;
    it->x = dup_values(p->owner, x, n);
    it->y = dup_values(p->owner, lo, n);
    it->y2 = dup_values(p->owner, hi, n);
    return p->owner->failed ? LS_ERR_INTERNAL : 0;
}

int ls_chart_panel_vspan(chart_panel *p, double x0, double x1, int color, double opacity)
{
    item *it = new_item(p, ITEM_VSPAN);
    if (!it)
        return LS_ERR_INTERNAL;
    double x[2] = {x0, x1};
    it->style = ls_chart_line_style(color);
    it->style.fill_opacity = opacity;
    it->n = 2;
    it->x = dup_values(p->owner, x, 2);
    return p->owner->failed ? LS_ERR_INTERNAL : 0;
}

int ls_chart_panel_text(chart_panel *p, double x, double y, const char *text, int anchor)
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

/* ---- output options --------------------------------------------------------- */

ls_figure ls_figure_default(void)
{
    ls_figure o;
    memset(&o, 0, sizeof o);
    o.format = LS_FIGURE_SVG;
    o.font_pt = 9.0;
    o.dpi = 150.0;
    o.look = LS_FIGURE_LIGHT;
    return o;
}

int ls_figure_format_of_path(const char *path, ls_figure_format *out, ls_error *err)
{
    static const struct {
        const char *ext;
        ls_figure_format format;
    } known[] = {{".svg", LS_FIGURE_SVG}, {".pdf", LS_FIGURE_PDF}, {".png", LS_FIGURE_PNG}};
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    if (dot && (!slash || dot > slash))
        for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
            if (strcasecmp(dot, known[i].ext) == 0) {
                *out = known[i].format;
                return 0;
            }
    return ls_error_set(err, LS_ERR_USAGE, "'%s': the file name must end in .svg, .pdf or .png", path);
}

/* ---- markup ------------------------------------------------------------------ */


static char *escape_dup(const char *text) { return ls_text_escape_xml_dup(text, 0); }

static int valid_markup(const char *markup)
{
    return pango_parse_markup(markup, -1, 0, NULL, NULL, NULL, NULL) ? 1 : 0;
}

/* Markup with its superscripts and subscripts written as plain text does:
 * "10<sup>22</sup>" as "10^22", "N<sub>act</sub>" as "N_act", a script of
 * more than one word (or with tags inside) in parentheses ("F^(a b)"), so
 * that flattening it to text does not run "10" and "22" together into
 * "1022".  NULL when out of memory. */
static char *scripts_as_text(const char *markup)
{
    size_t n = strlen(markup);
    char *out = malloc(2 * n + 1); /* each tag of 5 or 6 bytes becomes at most 2 */
    if (!out)
        return NULL;
    size_t len = 0;
    for (const char *p = markup; *p;) {
        int sup = strncmp(p, "<sup>", 5) == 0, sub = strncmp(p, "<sub>", 5) == 0;
        const char *end = sup || sub ? strstr(p + 5, sup ? "</sup>" : "</sub>") : NULL;
        if (!end) {
            out[len++] = *p++;
            continue;
        }
        const char *body = p + 5;
        int word = end > body;
        for (const char *q = body; q < end; q++)
            word &= !isspace((unsigned char)*q) && *q != '<';
        out[len++] = sup ? '^' : '_';
        if (!word)
            out[len++] = '(';
        memcpy(out + len, body, (size_t)(end - body));
        len += (size_t)(end - body);
        if (!word)
            out[len++] = ')';
        p = end + 6;
    }
    out[len] = '\0';
    return out;
}

/* The plain text of markup (malloc'd), for metadata: scripts written out
 * (scripts_as_text), the other tags dropped and entities resolved. */
static char *plain_of(const char *markup)
{
    char *scripted = scripts_as_text(markup), *text = NULL;
    if (!scripted)
        return NULL;
    if (pango_parse_markup(scripted, -1, 0, NULL, &text, NULL, NULL) && text) {
        char *copy = strdup(text);
        g_free(text);
        free(scripted);
        return copy;
    }
    free(scripted);
    return strdup(markup);
}

/* ---- bytes --------------------------------------------------------------------- */

typedef struct bytes {
    unsigned char *s;
    size_t len, cap;
    int failed;
} bytes;

static int bytes_put(bytes *b, const void *data, size_t n)
{
    if (b->failed)
        return -1;
    if (ls_grow((void **)&b->s, &b->cap, b->len + n + 1, 1) != 0) {
        b->failed = 1;
        return -1;
    }
    memcpy(b->s + b->len, data, n);
    b->len += n;
    b->s[b->len] = '\0';
    return 0;
}

static cairo_status_t write_stream(void *closure, const unsigned char *data, unsigned int length)
{
    return bytes_put(closure, data, length) == 0 ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

/* ---- text ------------------------------------------------------------------------ */

typedef struct painter {
    cairo_t *cr;
    PangoContext *pango;
    double fs;  /* base font size, points */
    ls_figure_look look;
} painter;

/* Markup with <sup> and <sub> turned into spans of a size and rise in
 * points, for text of the given size: pango's own sup and sub scale from
 * the context's default size, not the text's (malloc'd; NULL when out of
 * memory). */
static char *script_spans(const char *markup, double size)
{
    char sup[96], sub[96];
    snprintf(sup, sizeof sup, "<span size=\"%d\" rise=\"%d\">", (int)(0.72 * size * PANGO_SCALE),
             (int)(0.42 * size * PANGO_SCALE));
    snprintf(sub, sizeof sub, "<span size=\"%d\" rise=\"%d\">", (int)(0.72 * size * PANGO_SCALE),
             (int)(-0.18 * size * PANGO_SCALE));
    bytes b = {0};
    for (const char *p = markup; *p;) {
        if (strncmp(p, "<sup>", 5) == 0 || strncmp(p, "<sub>", 5) == 0) {
            const char *rep = p[3] == 'p' ? sup : sub;
            bytes_put(&b, rep, strlen(rep));
            p += 5;
        } else if (strncmp(p, "</sup>", 6) == 0 || strncmp(p, "</sub>", 6) == 0) {
            bytes_put(&b, "</span>", 7);
            p += 6;
        } else {
            bytes_put(&b, p, 1);
            p++;
        }
    }
    bytes_put(&b, "", 0);
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    return (char *)b.s;
}

static PangoLayout *layout_of(const painter *pt, const char *markup, double size, int bold)
{
    PangoLayout *lay = pango_layout_new(pt->pango);
    PangoFontDescription *fd = pango_font_description_from_string(FONT_FAMILY);
    pango_font_description_set_size(fd, (gint)(size * PANGO_SCALE)); /* points = user units at 72 dpi */
    if (bold)
        pango_font_description_set_weight(fd, PANGO_WEIGHT_BOLD);
    pango_layout_set_font_description(lay, fd);
    pango_font_description_free(fd);
    char *spans = script_spans(markup, size);
    if (spans && valid_markup(spans))
        pango_layout_set_markup(lay, spans, -1);
    else
        pango_layout_set_text(lay, markup, -1);
    free(spans);
    return lay;
}

static void text_extent(const painter *pt, const char *markup, double size, int bold, double *w, double *h)
{
    PangoLayout *lay = layout_of(pt, markup, size, bold);
    PangoRectangle logical;
    pango_layout_get_extents(lay, NULL, &logical);
    *w = (double)logical.width / PANGO_SCALE;
    *h = (double)logical.height / PANGO_SCALE;
    g_object_unref(lay);
}

/* As draw_text, within max_len points along its baseline: a longer text
 * is set smaller, down to 80% of size, then cut with an ellipsis. */
static void draw_text_within(const painter *pt, const char *markup, double x, double y, double size, int bold,
                             int ha, int va, double angle, double max_len, int lines)
{
    PangoLayout *lay = layout_of(pt, markup, size, bold);
    PangoRectangle logical;
    pango_layout_get_extents(lay, NULL, &logical);
    double w = (double)logical.width / PANGO_SCALE;
    if (max_len > 0 && w > max_len) {
        g_object_unref(lay);
        lay = layout_of(pt, markup, fmax(0.8 * size, size * max_len / w), bold);
        pango_layout_get_extents(lay, NULL, &logical);
        if ((double)logical.width / PANGO_SCALE > max_len) {
            /* Two lines when the caller made room for them (lines > 1),
             * and an ellipsis for what is left. */
            pango_layout_set_width(lay, (int)(max_len * PANGO_SCALE));
            pango_layout_set_wrap(lay, PANGO_WRAP_WORD);
            pango_layout_set_height(lay, lines > 1 ? -lines : -1);
            pango_layout_set_ellipsize(lay, PANGO_ELLIPSIZE_END);
            pango_layout_set_alignment(lay, PANGO_ALIGN_CENTER);
            pango_layout_get_extents(lay, NULL, &logical);
        }
    }
    w = (double)logical.width / PANGO_SCALE;
    double h = (double)logical.height / PANGO_SCALE;
    cairo_save(pt->cr);
    cairo_translate(pt->cr, x, y);
    cairo_rotate(pt->cr, angle);
    cairo_move_to(pt->cr, ha < 0 ? 0 : ha > 0 ? -w : -w / 2, va < 0 ? 0 : va > 0 ? -h : -h / 2);
    pango_cairo_update_layout(pt->cr, lay);
    pango_cairo_show_layout(pt->cr, lay);
    cairo_restore(pt->cr);
    g_object_unref(lay);
}

/* Text with its box anchored at (x, y): ha -1 left, 0 centre, 1 right; va
 * -1 top, 0 middle, 1 bottom; rotated by angle (radians) about (x, y). */
static void draw_text(const painter *pt, const char *markup, double x, double y, double size, int bold, int ha,
                      int va, double angle)
{
    draw_text_within(pt, markup, x, y, size, bold, ha, va, angle, 0, 1);
}

/* ---- axes ----------------------------------------------------------------- */

typedef struct frame {
    double x0, y0, w, h; /* plot area in points; y0 is the top */
    double lo[2], hi[2];  /* data ranges (log10 of them on a log axis) */
    chart_scale scale[2];
    double want[2]; /* about how many ticks on each axis (0: five) */
} frame;

static int usable(const frame *fr, chart_axis a, double v)
{
    return isfinite(v) && (fr->scale[a] == CHART_SCALE_LINEAR || v > 0);
}

static double data_t(const frame *fr, chart_axis a, double v)
{
    return fr->scale[a] == CHART_SCALE_LOG ? log10(v) : v;
}

static double coord(const frame *fr, chart_axis a, double v)
{
    double u = (data_t(fr, a, v) - fr->lo[a]) / (fr->hi[a] - fr->lo[a]);
    return a == CHART_AXIS_X ? fr->x0 + u * fr->w : fr->y0 + fr->h - u * fr->h;
}

static void extend(double *lo, double *hi, chart_scale scale, double v)
{
    if (!isfinite(v) || (scale == CHART_SCALE_LOG && !(v > 0)))
        return;
    double t = scale == CHART_SCALE_LOG ? log10(v) : v;
    *lo = fmin(*lo, t);
    *hi = fmax(*hi, t);
}

/* The data range of an axis (in log10 on a log axis), padded by 4%, or the
 * fixed range. */
static void axis_range(const chart_panel *p, chart_axis a, double *lo, double *hi)
{
    const axis_spec *ax = &p->axis[a];
    if (ax->fixed) {
        *lo = ax->scale == CHART_SCALE_LOG ? log10(ax->lo) : ax->lo;
        *hi = ax->scale == CHART_SCALE_LOG ? log10(ax->hi) : ax->hi;
        return;
    }
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t i = 0; i < p->nitems; i++) {
        const item *it = &p->items[i];
        if (it->kind == ITEM_HLINE) {
            if (a == CHART_AXIS_Y)
                extend(lo, hi, ax->scale, it->value);
            continue;
        }
        if (it->kind == ITEM_TEXT || it->kind == ITEM_VSPAN)
            continue;
        for (size_t k = 0; k < it->n; k++) {
            extend(lo, hi, ax->scale, a == CHART_AXIS_X ? it->x[k] : it->y[k]);
            if (a == CHART_AXIS_Y && it->y2)
                extend(lo, hi, ax->scale, it->y2[k]);
        }
    }
    if (!(*lo <= *hi)) { /* no data */
        *lo = 0.0;
        *hi = 1.0;
        return;
    }
    double span = *hi - *lo;
    if (span <= 0) { /* one value: a range around it */
        span = ax->scale == CHART_SCALE_LOG ? 0.5 : fmax(fabs(*lo) * 0.1, 1e-9) * 2;
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

#define MAX_TICKS 96

typedef struct ticks {
    double major[MAX_TICKS], minor[MAX_TICKS];
    size_t nmajor, nminor;
    double step; /* of linear ticks, for their decimals; 0 on a log axis */
} ticks;

static int inside(double t, double lo, double hi) { return t >= lo - 1e-9 && t <= hi + 1e-9; }

/* Linear ticks over [lo, hi] in data units. */
static void linear_ticks(double lo, double hi, double want, ticks *tk)
{
    double step = nice_step(hi - lo, want > 0 ? want : 5.0);
    tk->step = step;
    for (double t = ceil(lo / step - 1e-9) * step; t <= hi + 1e-9 * step && tk->nmajor < MAX_TICKS; t += step)
        tk->major[tk->nmajor++] = fabs(t) < 1e-12 * step ? 0.0 : t;
}

/* Ticks of a log axis over [lo, hi] (log10 units): majors at powers of ten
 * (every k-th decade when there are many), minors at 2..9 x 10^k; when fewer
 * than two powers of ten are in range, majors at 1, 2 and 5 x 10^k (or every
 * mantissa), and linear ticks when even that gives fewer than two. */
static void log_ticks(double lo, double hi, double want, ticks *tk)
{
    double decades = hi - lo;
    double first = ceil(lo - 1e-9), last = floor(hi + 1e-9);
    if (want <= 0)
        want = 5;
    if (last - first >= 1) {
        double every = decades > 14 ? ceil(decades / 6) : decades > 7 ? 2 : 1;
        if (want < 5 && decades / every > want + 1) /* a small panel: fewer decades labelled */
            every = ceil(decades / (want + 1));
        for (double e = ceil(first / every) * every; e <= last && tk->nmajor < MAX_TICKS; e += every)
            tk->major[tk->nmajor++] = pow(10.0, e);
        if (every == 1 && decades <= 8)
            for (double e = floor(lo); e <= hi && tk->nminor < MAX_TICKS; e += 1)
                for (int m = 2; m <= 9 && tk->nminor < MAX_TICKS; m++)
                    if (inside(log10(m) + e, lo, hi))
                        tk->minor[tk->nminor++] = m * pow(10.0, e);
        return;
    }
    static const int wide[] = {1, 2, 5}, narrow[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    for (int pass = 0; pass < 2; pass++) {
        const int *m = pass == 0 ? wide : narrow;
        size_t nm = pass == 0 ? 3 : 9;
        tk->nmajor = tk->nminor = 0;
        for (double e = floor(lo); e <= ceil(hi); e += 1)
            for (int k = 1; k <= 9; k++) {
                double t = k * pow(10.0, e);
                if (!inside(log10(t), lo, hi))
                    continue;
                int is_major = 0;
                for (size_t j = 0; j < nm; j++)
                    is_major |= m[j] == k;
                if (is_major && tk->nmajor < MAX_TICKS)
                    tk->major[tk->nmajor++] = t;
                else if (!is_major && tk->nminor < MAX_TICKS)
                    tk->minor[tk->nminor++] = t;
            }
        if (tk->nmajor >= 2)
            return;
    }
    tk->nmajor = tk->nminor = 0; /* a very narrow log range: linear ticks */
    linear_ticks(pow(10.0, lo), pow(10.0, hi), want, tk);
}

static void axis_ticks(const frame *fr, const chart_panel *p, chart_axis a, ticks *tk)
{
    const axis_spec *ax = &p->axis[a];
    memset(tk, 0, sizeof *tk);
    if (ax->ticks) {
        for (size_t i = 0; i < ax->nticks && tk->nmajor < MAX_TICKS; i++)
            if (usable(fr, a, ax->ticks[i]) && inside(data_t(fr, a, ax->ticks[i]), fr->lo[a], fr->hi[a]))
                tk->major[tk->nmajor++] = ax->ticks[i];
        tk->step = -1; /* label each as a number */
        return;
    }
    if (ax->scale == CHART_SCALE_LOG)
        log_ticks(fr->lo[a], fr->hi[a], fr->want[a], tk);
    else
        linear_ticks(fr->lo[a], fr->hi[a], fr->want[a], tk);
}

/* A number as markup: plain between 10^-3 and 10^5 ("0.25", "4", "2000"),
 * else m x 10^k with the exponent as a superscript ("10<sup>21</sup>",
 * "3&#215;10<sup>8</sup>"); a minus sign, not a hyphen. */
static void number_markup(char *buf, size_t size, double v, int decimals)
{
    double a = fabs(v);
    const char *sign = v < 0 ? "\xe2\x88\x92" : "";
    if (v == 0) {
        snprintf(buf, size, "0");
        return;
    }
    if (a >= 1e-3 && a < 1e5) {
        if (decimals >= 0)
            snprintf(buf, size, "%s%.*f", sign, decimals > 6 ? 6 : decimals, a);
        else
            snprintf(buf, size, "%s%.4g", sign, a);
        return;
    }
    int e = (int)floor(log10(a));
    double m = a / pow(10.0, e);
    if (m >= 9.9995) {
        m /= 10;
        e++;
    }
    char exp_text[32];
    snprintf(exp_text, sizeof exp_text, "%s%d", e < 0 ? "\xe2\x88\x92" : "", e < 0 ? -e : e);
    if (fabs(m - 1.0) < 5e-4)
        snprintf(buf, size, "%s10<sup>%s</sup>", sign, exp_text);
    else
        snprintf(buf, size, "%s%.3g\xc3\x97" "10<sup>%s</sup>", sign, m, exp_text);
}

size_t ls_chart_number(char *buf, size_t size, double v)
{
    number_markup(buf, size, v, -1);
    return strlen(buf);
}

static void tick_label(char *buf, size_t size, const ticks *tk, double v)
{
    int decimals = -1;
    if (tk->step > 0)
        decimals = tk->step < 1 ? (int)ceil(-log10(tk->step) - 1e-9) : 0;
    number_markup(buf, size, v, decimals);
}

/* ---- drawing ---------------------------------------------------------------- */

static void stroke_style(const painter *pt, const chart_style *s)
{
    double w = s->width * (pt->look == LS_FIGURE_PRINT ? 1.25 : 1.0);
    set_color(pt->cr, s->color, 1.0);
    cairo_set_line_width(pt->cr, w);
    cairo_set_line_join(pt->cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_cap(pt->cr, s->dash == CHART_DASH_DOTTED ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT);
    set_dash(pt->cr, s->dash, w);
}

static void draw_marker(const painter *pt, chart_marker m, double x, double y, double r, const chart_style *s)
{
    cairo_t *cr = pt->cr;
    cairo_new_path(cr);
    switch (m) {
    case CHART_MARKER_CIRCLE: cairo_arc(cr, x, y, r, 0, 2 * PI); break;
    case CHART_MARKER_SQUARE: cairo_rectangle(cr, x - 0.9 * r, y - 0.9 * r, 1.8 * r, 1.8 * r); break;
    case CHART_MARKER_TRIANGLE:
        cairo_move_to(cr, x, y - 1.2 * r);
        cairo_line_to(cr, x - 1.1 * r, y + 0.8 * r);
        cairo_line_to(cr, x + 1.1 * r, y + 0.8 * r);
        cairo_close_path(cr);
        break;
    case CHART_MARKER_DIAMOND:
        cairo_move_to(cr, x, y - 1.3 * r);
        cairo_line_to(cr, x + r, y);
        cairo_line_to(cr, x, y + 1.3 * r);
        cairo_line_to(cr, x - r, y);
        cairo_close_path(cr);
        break;
    case CHART_MARKER_STAR:
        for (int k = 0; k < 10; k++) {
            double ang = -PI / 2 + k * PI / 5, rr = k % 2 ? 0.45 * r : r;
            if (k == 0)
                cairo_move_to(cr, x + rr * cos(ang), y + rr * sin(ang));
            else
                cairo_line_to(cr, x + rr * cos(ang), y + rr * sin(ang));
        }
        cairo_close_path(cr);
        break;
    default: return;
    }
    if (s->hollow)
        cairo_set_source_rgb(cr, 1, 1, 1);
    else
        set_color(cr, s->color, 1.0);
    cairo_fill_preserve(cr);
    set_color(cr, s->color, 1.0);
    cairo_set_line_width(cr, 0.7);
    cairo_set_dash(cr, NULL, 0, 0);
    cairo_stroke(cr);
}

static double marker_radius(const chart_style *s) { return s->marker_size > 0 ? s->marker_size : 2.2; }

/* A small arrow on the top (dir -1) or bottom (dir 1) edge of the plot area
 * at x: data beyond the axis there. */
static void draw_clip_mark(const painter *pt, const frame *fr, double x, int dir, int color)
{
    double y = dir < 0 ? fr->y0 : fr->y0 + fr->h, s = 0.32 * pt->fs;
    cairo_t *cr = pt->cr;
    cairo_new_path(cr);
    cairo_move_to(cr, x, y);
    cairo_line_to(cr, x - s * 0.75, y - dir * s * 1.3);
    cairo_line_to(cr, x + s * 0.75, y - dir * s * 1.3);
    cairo_close_path(cr);
    set_color(cr, color, 1.0);
    cairo_fill(cr);
}

static int point_ok(const frame *fr, const item *it, size_t k)
{
    return usable(fr, CHART_AXIS_X, it->x[k]) && usable(fr, CHART_AXIS_Y, it->y[k]);
}

/* 1 when some point of a line lies above or below the y range while inside
 * the x range. */
static int item_clipped(const frame *fr, const item *it)
{
    if (it->kind != ITEM_LINE)
        return 0;
    for (size_t k = 0; k < it->n; k++) {
        if (!point_ok(fr, it, k))
            continue;
        double tx = data_t(fr, CHART_AXIS_X, it->x[k]), ty = data_t(fr, CHART_AXIS_Y, it->y[k]);
        double slack = 1e-6 * (fr->hi[1] - fr->lo[1]);
        if (inside(tx, fr->lo[0], fr->hi[0]) && !inside(ty, fr->lo[1] - slack, fr->hi[1] + slack))
            return 1;
    }
    return 0;
}

static void draw_line(const painter *pt, const frame *fr, const item *it)
{
    const chart_style *s = &it->style;
    cairo_t *cr = pt->cr;
    if (s->width > 0) {
        size_t k = 0;
        while (k < it->n) {
            while (k < it->n && !point_ok(fr, it, k))
                k++;
            size_t start = k;
            while (k < it->n && point_ok(fr, it, k))
                k++;
            if (k - start < 2)
                continue;
            cairo_new_path(cr);
            for (size_t j = start; j < k; j++)
                cairo_line_to(cr, coord(fr, CHART_AXIS_X, it->x[j]), coord(fr, CHART_AXIS_Y, it->y[j]));
            stroke_style(pt, s);
            cairo_stroke(cr);
        }
    }
    if (s->marker != CHART_MARKER_NONE)
        for (size_t k = 0; k < it->n; k++)
            if (point_ok(fr, it, k))
                draw_marker(pt, s->marker, coord(fr, CHART_AXIS_X, it->x[k]), coord(fr, CHART_AXIS_Y, it->y[k]),
                            marker_radius(s), s);
}

/* Arrows where a line crosses out of the plot area through its top or
 * bottom edge, and under markers beyond it. */
static void mark_clipping(const painter *pt, const frame *fr, const item *it)
{
    double top = fr->y0, bottom = fr->y0 + fr->h;
    for (size_t k = 0; k < it->n; k++) {
        if (!point_ok(fr, it, k))
            continue;
        double x = coord(fr, CHART_AXIS_X, it->x[k]), y = coord(fr, CHART_AXIS_Y, it->y[k]);
        if (x < fr->x0 - 1e-6 || x > fr->x0 + fr->w + 1e-6)
            continue;
        const double tol = 0.01; /* points: a line ending on the edge has not left */
        if (it->style.width <= 0 || it->n == 1) {
            if (y < top - tol || y > bottom + tol)
                draw_clip_mark(pt, fr, x, y < top ? -1 : 1, it->style.color);
            continue;
        }
        if (k == 0 || !point_ok(fr, it, k - 1))
            continue;
        double xp = coord(fr, CHART_AXIS_X, it->x[k - 1]), yp = coord(fr, CHART_AXIS_Y, it->y[k - 1]);
        for (int edge = 0; edge < 2; edge++) {
            double ye = edge ? bottom : top;
            int in_now = edge ? y <= ye + tol : y >= ye - tol, in_before = edge ? yp <= ye + tol : yp >= ye - tol;
            if (in_now == in_before || yp == y)
                continue;
            double xe = xp + (x - xp) * (ye - yp) / (y - yp);
            if (xe >= fr->x0 && xe <= fr->x0 + fr->w)
                draw_clip_mark(pt, fr, xe, edge ? 1 : -1, it->style.color);
        }
    }
}

static void draw_band(const painter *pt, const frame *fr, const item *it)
{
    cairo_t *cr = pt->cr;
    size_t k = 0;
    while (k < it->n) {
        while (k < it->n && !(point_ok(fr, it, k) && usable(fr, CHART_AXIS_Y, it->y2[k])))
            k++;
        size_t start = k;
        while (k < it->n && point_ok(fr, it, k) && usable(fr, CHART_AXIS_Y, it->y2[k]))
            k++;
        if (k - start < 2)
            continue;
        cairo_new_path(cr);
        for (size_t j = start; j < k; j++)
            cairo_line_to(cr, coord(fr, CHART_AXIS_X, it->x[j]), coord(fr, CHART_AXIS_Y, it->y2[j]));
        for (size_t j = k; j-- > start;)
            cairo_line_to(cr, coord(fr, CHART_AXIS_X, it->x[j]), coord(fr, CHART_AXIS_Y, it->y[j]));
        cairo_close_path(cr);
        set_color(cr, it->style.color, it->style.fill_opacity);
        cairo_fill(cr);
    }
}

/* ---- layout ----------------------------------------------------------------- */

typedef struct layout {
    double fs, tick_fs, legend_fs, title_fs, note_fs, label_fs; /* label_fs: axis labels, panel titles */
    double left, right, top, bottom; /* around each plot area */
    double panel_w, panel_h;
    double title_h, legend_w, legend_h, legend_row, notes_h;
    double width, height;
    int clipped; /* some line leaves its plot area: a legend entry says what the arrows mean */
    int legend_below;       /* a narrow figure: the legend in columns under the panels */
    int legend_flow;        /* a cramped one: the legend under them as flowing text */
    int brief;              /* legend entries in their brief form */
    int level;              /* how cramped (compute_layout) */
    int ylabel_lines;       /* lines a y-axis label may take: 2 when one is longer than its panel */
    size_t legend_cols;
    double legend_item_w;
    const char *title; /* markup, or NULL */
} layout;

/* Diagonal hatching over a rectangle, in a light grey: a region beyond
 * what a law has seen, told apart from a band's plain fill. */
static void hatch(cairo_t *cr, double x, double y, double w, double h)
{
    cairo_save(cr);
    cairo_rectangle(cr, x, y, w, h);
    cairo_clip(cr);
    cairo_new_path(cr);
    const double gap = 4.0;
    for (double t = -h; t < w; t += gap) {
        cairo_move_to(cr, x + t, y + h);
        cairo_line_to(cr, x + t + h, y);
    }
    cairo_set_source_rgba(cr, 0.45, 0.45, 0.45, 0.55);
    cairo_set_line_width(cr, 0.4);
    cairo_set_dash(cr, NULL, 0, 0);
    cairo_stroke(cr);
    cairo_restore(cr);
}

static int panel_used(const chart_panel *p)
{
    return p->nitems > 0 || p->title || p->axis[0].label || p->axis[1].label;
}

static void panel_frame(const chart_panel *p, frame *fr)
{
    fr->want[0] = fr->want[1] = 0;
    for (int a = 0; a < 2; a++) {
        fr->scale[a] = p->axis[a].scale;
        axis_range(p, (chart_axis)a, &fr->lo[a], &fr->hi[a]);
    }
}

#define CLIP_LABEL "beyond the axis"

/* The label a legend entry shows at this layout: its brief form when the
 * figure is cramped and it has one. */
static const char *legend_label(const chart *f, const layout *L, size_t i)
{
    if (i >= f->nlegend)
        return CLIP_LABEL;
    return L->brief && f->legend[i].brief ? f->legend[i].brief : f->legend[i].label;
}

/* The legend under the panels as flowing text: each entry (swatch and
 * label) takes its own width, and a row wraps when the next entry would
 * pass avail. Fills x (offset in the row) and row of each entry when
 * given; returns the number of rows. */
static size_t legend_flow(const painter *pt, const chart *f, const layout *L, double avail, double *x, size_t *row)
{
    size_t n = f->nlegend + (L->clipped ? 1 : 0), rows = n ? 1 : 0;
    double at = 0, sw = 2.4 * L->legend_fs, w, h;
    for (size_t i = 0; i < n; i++) {
        text_extent(pt, legend_label(f, L, i), L->legend_fs, 0, &w, &h);
        double item_w = 6 + sw + 4 + w + 6;
        if (at > 0 && at + item_w > avail) {
            rows++;
            at = 0;
        }
        if (x)
            x[i] = at;
        if (row)
            row[i] = rows - 1;
        at += item_w;
    }
    return rows;
}

/* How cramped a figure of a given size may get before it is refused: a
 * figure drawn at its natural size is level 0; a fixed size that leaves
 * the panels too little room is laid out again at higher levels, each
 * giving up something: the legend moves under the panels as flowing text
 * with brief labels, text other than axis labels shrinks, ticks thin. */
#define LAYOUT_LEVELS 4

static int layout_at(const painter *pt, const chart *f, const ls_figure *o, const char *title, int level,
                     layout *L)
{
    int fixed = o->width_pt > 0 && o->height_pt > 0;
    memset(L, 0, sizeof *L);
    L->level = level;
    L->brief = level >= 1;
    L->fs = pt->fs;
    static const double legend_scale[LAYOUT_LEVELS] = {0.9, 0.85, 0.78, 0.7};
    static const double tick_scale[LAYOUT_LEVELS] = {0.9, 0.9, 0.85, 0.8};
    static const double title_scale[LAYOUT_LEVELS] = {1.15, 1.1, 1.0, 0.9};
    L->tick_fs = tick_scale[level] * L->fs;
    L->legend_fs = legend_scale[level] * L->fs;
    L->title_fs = title_scale[level] * L->fs;
    L->note_fs = (level >= 2 ? 0.75 : 0.85) * L->fs;
    L->label_fs = (level >= 3 ? 0.85 : level >= 2 ? 0.9 : 1.0) * L->fs;
    L->title = title;
    L->ylabel_lines = 1;
    double ytick_w = 0, tick_h = 0, w, h;
    int xlabels = 0, ylabels = 0, titles = 0;
    text_extent(pt, "0123456789", L->tick_fs, 0, &w, &tick_h);
    for (size_t i = 0; i < f->rows * f->cols; i++) {
        const chart_panel *p = &f->panels[i];
        if (!panel_used(p))
            continue;
        frame fr;
        panel_frame(p, &fr);
        ticks tk;
        axis_ticks(&fr, p, CHART_AXIS_Y, &tk);
        for (size_t k = 0; k < tk.nmajor; k++) {
            char label[64];
            tick_label(label, sizeof label, &tk, tk.major[k]);
            text_extent(pt, label, L->tick_fs, 0, &w, &h);
            ytick_w = fmax(ytick_w, w);
            tick_h = fmax(tick_h, h);
        }
        xlabels |= p->axis[0].label != NULL;
        ylabels |= p->axis[1].label != NULL;
        titles |= p->title != NULL;
        for (size_t k = 0; k < p->nitems; k++)
            L->clipped |= item_clipped(&fr, &p->items[k]);
    }
    double label_h = 1.3 * L->label_fs;
    L->left = ytick_w + TICK_LEN + 3 + (ylabels ? label_h + 3 : 0) + 4;
    L->bottom = TICK_LEN + 2 + tick_h + (xlabels ? label_h + 2 : 0) + 4;
    L->top = titles ? 1.45 * L->label_fs + 3 : 6;
    L->right = 0.6 * L->fs + 4;
    L->title_h = title ? 1.9 * L->title_fs : 4; /* a line; more when it wraps (below) */
    L->legend_row = 1.55 * L->legend_fs;
    size_t nlegend = f->nlegend + (L->clipped ? 1 : 0);
    double lw = 0;
    for (size_t i = 0; i < nlegend; i++) {
        text_extent(pt, legend_label(f, L, i), L->legend_fs, 0, &w, &h);
        lw = fmax(lw, w);
    }
    L->legend_w = nlegend ? 2.4 * L->legend_fs + 6 + lw + 14 : 0;
    L->legend_h = nlegend ? L->legend_row * (double)nlegend + 8 : 0;
    double cols = (double)f->cols, rows = (double)f->rows;
    if (fixed) {
        L->width = o->width_pt;
        L->height = o->height_pt;
    } else {
        L->panel_w = f->panel_w;
        L->panel_h = f->panel_h;
        L->width = cols * (L->left + L->panel_w + L->right) + L->legend_w + 6;
        if (title) {
            text_extent(pt, title, L->title_fs, 1, &w, &h);
            L->width = fmax(L->width, w + 24);
        }
    }
    if (title) { /* wrapped to the figure's width, centred */
        PangoLayout *lay = layout_of(pt, title, L->title_fs, 1);
        pango_layout_set_width(lay, (int)((L->width - 12) * PANGO_SCALE));
        pango_layout_set_wrap(lay, PANGO_WRAP_WORD);
        PangoRectangle logical;
        pango_layout_get_extents(lay, NULL, &logical);
        L->title_h = (double)logical.height / PANGO_SCALE + 0.75 * L->title_fs;
        g_object_unref(lay);
        if (fixed && level == LAYOUT_LEVELS - 1 && L->title_h > 0.2 * L->height) {
            /* The most cramped figure drops a title that would take a fifth
             * of it (it stays in the file's metadata). */
            L->title = NULL;
            L->title_h = 4;
        }
    }
    if (o->caption && f->nnotes) {
        L->notes_h = 6;
        for (size_t i = 0; i < f->nnotes; i++) {
            PangoLayout *lay = layout_of(pt, f->notes[i], L->note_fs, 0);
            pango_layout_set_width(lay, (int)((L->width - 16) * PANGO_SCALE));
            pango_layout_set_wrap(lay, PANGO_WRAP_WORD);
            PangoRectangle logical;
            pango_layout_get_extents(lay, NULL, &logical);
            L->notes_h += (double)logical.height / PANGO_SCALE + 2;
            g_object_unref(lay);
        }
    }
    if (fixed && nlegend && level >= 1) {
        /* Cramped: the legend flows under the panels, as many entries a
         * row as fit. */
        L->legend_below = 1;
        L->legend_flow = 1;
        size_t lrows = legend_flow(pt, f, L, L->width - 12, NULL, NULL);
        L->legend_h = L->legend_row * (double)lrows + 6;
        L->legend_w = 0;
    } else if (fixed && L->legend_w > 0.4 * L->width) {
        /* The legend would take the panels' room: put it under them, in
         * as many columns as fit. */
        L->legend_below = 1;
        L->legend_item_w = L->legend_w - 8;
        size_t fit = (size_t)floor((L->width - 12) / L->legend_item_w);
        L->legend_cols = fit < 1 ? 1 : fit > nlegend ? nlegend : fit;
        size_t lrows = (nlegend + L->legend_cols - 1) / L->legend_cols;
        L->legend_h = L->legend_row * (double)lrows + 8;
        L->legend_w = 0;
    }
    if (fixed) {
        double below = L->legend_below ? L->legend_h + 6 : 0;
        L->panel_w = (L->width - L->legend_w - 6) / cols - L->left - L->right;
        L->panel_h = (L->height - L->title_h - L->notes_h - below) / rows - L->top - L->bottom;
        /* A y label longer than its panel, even set at 80%, gets a
         * second line, and the panels give up its width. */
        for (size_t i = 0; i < f->rows * f->cols && ylabels; i++) {
            const char *label = f->panels[i].axis[CHART_AXIS_Y].label;
            if (!label)
                continue;
            text_extent(pt, label, L->label_fs, 0, &w, &h);
            if (0.8 * w > L->panel_h + L->top - 2 && L->ylabel_lines < 2) {
                L->ylabel_lines = 2;
                L->left += label_h;
                L->panel_w -= label_h;
            }
        }
    } else {
        L->height = L->title_h + fmax(rows * (L->top + L->panel_h + L->bottom), L->legend_h + L->top) + L->notes_h;
    }
    return 0;
}

/* A fixed-size layout is good enough at this level when the panels keep
 * at least 45% of the figure each way and the legend less than a third of
 * its height; the last level only needs panels of 24 points. */
static int layout_fits(const layout *L, const chart *f, int level)
{
    if (L->panel_w < 24 || L->panel_h < 24)
        return 0;
    if (level == LAYOUT_LEVELS - 1)
        return 1;
    double pw = L->panel_w * (double)f->cols, ph = L->panel_h * (double)f->rows;
    double legend = L->legend_below ? L->legend_h : 0;
    return pw >= 0.45 * L->width && ph >= 0.45 * L->height && legend <= L->height / 3;
}

static int compute_layout(const painter *pt, const chart *f, const ls_figure *o, const char *title, layout *L,
                          ls_error *err)
{
    int fixed = o->width_pt > 0 && o->height_pt > 0;
    for (int level = 0; level < (fixed ? LAYOUT_LEVELS : 1); level++) {
        layout_at(pt, f, o, title, level, L);
        if (!fixed || layout_fits(L, f, level))
            return 0;
    }
    return ls_error_set(err, LS_ERR_USAGE, "a figure of %.3g x %.3g in leaves no room for %zu x %zu panels at %.3g pt text",
                        L->width / 72, L->height / 72, f->rows, f->cols, L->fs);
}

/* How much a tick deserves a label: on a log axis powers of ten first,
 * then 2 and 5 x 10^k, then the other mantissas; linear ticks alike. */
static int tick_rank(const frame *fr, chart_axis a, double v)
{
    if (fr->scale[a] != CHART_SCALE_LOG || !(v > 0))
        return 0;
    double m = v / pow(10.0, floor(log10(v) + 1e-9));
    if (fabs(m - 1) < 1e-6 || fabs(m - 10) < 1e-5)
        return 0;
    return fabs(m - 2) < 1e-6 || fabs(m - 5) < 1e-6 ? 1 : 2;
}

/* Which major ticks are labelled (show[k]): a label goes only where it
 * keeps a gap from every label already placed, placed by rank, so that a
 * log axis over less than a decade never writes 6, 7, 8 x 10^19 on top of
 * each other; the ticks themselves stay. */
static void labels_apart(const painter *pt, const layout *L, const frame *fr, chart_axis a, const ticks *tk,
                         unsigned char *show)
{
    double from[MAX_TICKS], to[MAX_TICKS], gap = 0.5 * L->tick_fs;
    for (size_t k = 0; k < tk->nmajor; k++) {
        char label[64];
        double w, h, c = coord(fr, a, tk->major[k]);
        tick_label(label, sizeof label, tk, tk->major[k]);
        text_extent(pt, label, L->tick_fs, 0, &w, &h);
        double half = (a == CHART_AXIS_X ? w : h) / 2;
        from[k] = c - half - gap / 2;
        to[k] = c + half + gap / 2;
        show[k] = 0;
    }
    for (int rank = 0; rank < 3; rank++)
        for (size_t k = 0; k < tk->nmajor; k++) {
            if (tick_rank(fr, a, tk->major[k]) != rank)
                continue;
            int clear = 1;
            for (size_t j = 0; j < tk->nmajor && clear; j++)
                clear = !show[j] || to[j] <= from[k] || to[k] <= from[j];
            show[k] = (unsigned char)clear;
        }
}

static void draw_panel(const painter *pt, const layout *L, const chart_panel *p, double cx, double cy)
{
    if (!panel_used(p))
        return;
    cairo_t *cr = pt->cr;
    frame fr;
    fr.x0 = cx + L->left;
    fr.y0 = cy + L->top;
    fr.w = L->panel_w;
    fr.h = L->panel_h;
    panel_frame(p, &fr);
    /* A small panel gets fewer ticks, so their labels stay apart. */
    fr.want[0] = fmax(2, fmin(5, floor(fr.w / (4.5 * L->tick_fs))));
    fr.want[1] = fmax(2, fmin(5, floor(fr.h / (2.6 * L->tick_fs))));
    int print = pt->look == LS_FIGURE_PRINT;
    ticks tk[2];
    axis_ticks(&fr, p, CHART_AXIS_X, &tk[0]);
    axis_ticks(&fr, p, CHART_AXIS_Y, &tk[1]);
    if (!print) { /* grid lines at the major ticks */
        cairo_set_source_rgb(cr, 0.91, 0.91, 0.91);
        cairo_set_line_width(cr, 0.5);
        cairo_set_dash(cr, NULL, 0, 0);
        for (int a = 0; a < 2; a++)
            for (size_t k = 0; k < tk[a].nmajor; k++) {
                double c = coord(&fr, (chart_axis)a, tk[a].major[k]);
                if (a == 0) {
                    cairo_move_to(cr, c, fr.y0);
                    cairo_line_to(cr, c, fr.y0 + fr.h);
                } else {
                    cairo_move_to(cr, fr.x0, c);
                    cairo_line_to(cr, fr.x0 + fr.w, c);
                }
            }
        cairo_stroke(cr);
    }
    /* Data, clipped to the plot area: bands first, then reference lines,
     * then lines and markers on top. */
    cairo_save(cr);
    cairo_rectangle(cr, fr.x0, fr.y0, fr.w, fr.h);
    cairo_clip(cr);
    for (int pass = 0; pass < 3; pass++)
        for (size_t i = 0; i < p->nitems; i++) {
            const item *it = &p->items[i];
            if (pass == 0 && it->kind == ITEM_VSPAN) {
                double a = it->x[0] == -INFINITY ? fr.x0 : usable(&fr, CHART_AXIS_X, it->x[0]) ? coord(&fr, CHART_AXIS_X, it->x[0]) : fr.x0;
                double b = it->x[1] == INFINITY ? fr.x0 + fr.w : usable(&fr, CHART_AXIS_X, it->x[1]) ? coord(&fr, CHART_AXIS_X, it->x[1]) : fr.x0;
                if (b > a) {
                    cairo_rectangle(cr, a, fr.y0, b - a, fr.h);
                    set_color(cr, it->style.color, it->style.fill_opacity);
                    cairo_fill(cr);
                    hatch(cr, a, fr.y0, b - a, fr.h);
                }
            }
            if (pass == 0 && it->kind == ITEM_BAND)
                draw_band(pt, &fr, it);
            if (pass == 1 && it->kind == ITEM_HLINE && usable(&fr, CHART_AXIS_Y, it->value)) {
                double y = coord(&fr, CHART_AXIS_Y, it->value);
                cairo_new_path(cr);
                cairo_move_to(cr, fr.x0, y);
                cairo_line_to(cr, fr.x0 + fr.w, y);
                stroke_style(pt, &it->style);
                cairo_stroke(cr);
                if (it->text && *it->text) {
                    set_color(cr, it->style.color == CHART_GREY ? CHART_BLACK : it->style.color, 1.0);
                    draw_text(pt, it->text, fr.x0 + fr.w - 3, y - 1.5, L->tick_fs, 0, 1, 1, 0);
                }
            }
            if (pass == 2 && it->kind == ITEM_LINE)
                draw_line(pt, &fr, it);
        }
    cairo_restore(cr);
    for (size_t i = 0; i < p->nitems; i++)
        if (p->items[i].kind == ITEM_LINE)
            mark_clipping(pt, &fr, &p->items[i]);
    cairo_set_source_rgb(cr, 0, 0, 0);
    for (size_t i = 0; i < p->nitems; i++) {
        const item *it = &p->items[i];
        if (it->kind != ITEM_TEXT || !point_ok(&fr, it, 0))
            continue;
        draw_text(pt, it->text, coord(&fr, CHART_AXIS_X, it->x[0]), coord(&fr, CHART_AXIS_Y, it->y[0]), L->tick_fs, 0,
                  it->anchor, 1, 0);
    }
    /* Frame, ticks (outward, or inward in print), labels. */
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_dash(cr, NULL, 0, 0);
    cairo_set_line_width(cr, print ? 0.8 : 0.6);
    cairo_rectangle(cr, fr.x0, fr.y0, fr.w, fr.h);
    cairo_stroke(cr);
    double dir = print ? -1 : 1;
    cairo_set_line_width(cr, 0.6);
    for (int a = 0; a < 2; a++) {
        for (int minor = 0; minor < 2; minor++) {
            const double *v = minor ? tk[a].minor : tk[a].major;
            size_t n = minor ? tk[a].nminor : tk[a].nmajor;
            double len = minor ? MINOR_TICK_LEN : TICK_LEN;
            for (size_t k = 0; k < n; k++) {
                double c = coord(&fr, (chart_axis)a, v[k]);
                if (a == 0) {
                    cairo_move_to(cr, c, fr.y0 + fr.h);
                    cairo_line_to(cr, c, fr.y0 + fr.h + dir * len);
                } else {
                    cairo_move_to(cr, fr.x0, c);
                    cairo_line_to(cr, fr.x0 - dir * len, c);
                }
            }
        }
    }
    cairo_stroke(cr);
    for (int a = 0; a < 2; a++) {
        unsigned char show[MAX_TICKS];
        labels_apart(pt, L, &fr, (chart_axis)a, &tk[a], show);
        for (size_t k = 0; k < tk[a].nmajor; k++) {
            if (!show[k])
                continue;
            char label[64];
            tick_label(label, sizeof label, &tk[a], tk[a].major[k]);
            double c = coord(&fr, (chart_axis)a, tk[a].major[k]);
            if (a == 0)
                draw_text(pt, label, c, fr.y0 + fr.h + TICK_LEN + 2, L->tick_fs, 0, 0, -1, 0);
            else
                draw_text(pt, label, fr.x0 - TICK_LEN - 3, c, L->tick_fs, 0, 1, 0, 0);
        }
    }
    /* Titles and axis labels stay within their panel: a long y label
     * would otherwise run into the figure's title. */
    if (p->title)
        draw_text_within(pt, p->title, fr.x0 + fr.w / 2, fr.y0 - 3, L->label_fs, 0, 0, 1, 0, L->left + fr.w + L->right - 4, 1);
    if (p->axis[CHART_AXIS_X].label)
        draw_text_within(pt, p->axis[CHART_AXIS_X].label, fr.x0 + fr.w / 2, cy + L->top + fr.h + L->bottom - 4, L->label_fs,
                         0, 0, 1, 0, fr.w + L->right, 1);
    if (p->axis[CHART_AXIS_Y].label)
        draw_text_within(pt, p->axis[CHART_AXIS_Y].label, cx + 4, fr.y0 + fr.h / 2, L->label_fs, 0, 0, -1, -PI / 2,
                         fr.h + L->top - 2, L->ylabel_lines);
}

static void draw_swatch(const painter *pt, const chart_style *s, double x, double y, double w)
{
    cairo_t *cr = pt->cr;
    if (s->fill_opacity > 0) {
        cairo_rectangle(cr, x, y - 0.35 * pt->fs, w, 0.7 * pt->fs);
        set_color(cr, s->color, s->fill_opacity);
        cairo_fill(cr);
        if (s->hatch)
            hatch(cr, x, y - 0.35 * pt->fs, w, 0.7 * pt->fs);
        if (s->width > 0) {
            cairo_move_to(cr, x, y - 0.35 * pt->fs);
            cairo_line_to(cr, x + w, y - 0.35 * pt->fs);
            if (s->edged) {
                cairo_move_to(cr, x, y + 0.35 * pt->fs);
                cairo_line_to(cr, x + w, y + 0.35 * pt->fs);
            }
            stroke_style(pt, s);
            cairo_stroke(cr);
        }
        return;
    }
    if (s->width > 0) {
        cairo_move_to(cr, x, y);
        cairo_line_to(cr, x + w, y);
        stroke_style(pt, s);
        cairo_stroke(cr);
    }
    if (s->marker != CHART_MARKER_NONE)
        draw_marker(pt, s->marker, x + w / 2, y, marker_radius(s), s);
}

static void draw_chart(const painter *pt, const chart *f, const ls_figure *o, const layout *L)
{
    cairo_t *cr = pt->cr;
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    if (L->title) {
        PangoLayout *lay = layout_of(pt, L->title, L->title_fs, 1);
        pango_layout_set_width(lay, (int)((L->width - 12) * PANGO_SCALE));
        pango_layout_set_wrap(lay, PANGO_WRAP_WORD);
        pango_layout_set_alignment(lay, PANGO_ALIGN_CENTER);
        cairo_move_to(cr, 6, 0.4 * L->title_fs);
        pango_cairo_update_layout(cr, lay);
        pango_cairo_show_layout(cr, lay);
        g_object_unref(lay);
    }
    double cell_w = L->left + L->panel_w + L->right, cell_h = L->top + L->panel_h + L->bottom;
    for (size_t r = 0; r < f->rows; r++)
        for (size_t c = 0; c < f->cols; c++)
            draw_panel(pt, L, &f->panels[r * f->cols + c], cell_w * (double)c, L->title_h + cell_h * (double)r);
    if (L->legend_w > 0 || L->legend_below) {
        double lx = cell_w * (double)f->cols + 2, ly = L->title_h + L->top;
        double sw = 2.4 * L->legend_fs, box_w = L->legend_w;
        if (L->legend_below) {
            lx = 6;
            ly = L->title_h + cell_h * (double)f->rows + 2;
            box_w = L->width - 12;
        }
        cairo_rectangle(cr, lx, ly, box_w, L->legend_h);
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_fill_preserve(cr);
        cairo_set_source_rgb(cr, 0.73, 0.73, 0.73);
        cairo_set_line_width(cr, 0.5);
        cairo_set_dash(cr, NULL, 0, 0);
        cairo_stroke(cr);
        size_t n = f->nlegend + (L->clipped ? 1 : 0);
        size_t ncol = L->legend_below && !L->legend_flow ? L->legend_cols : 1, nrow = (n + ncol - 1) / ncol;
        double *flow_x = L->legend_flow ? malloc(n * sizeof *flow_x) : NULL;
        size_t *flow_row = L->legend_flow ? malloc(n * sizeof *flow_row) : NULL;
        int flow = flow_x && flow_row;
        if (flow)
            legend_flow(pt, f, L, L->width - 12, flow_x, flow_row);
        for (size_t i = 0; i < n; i++) {
            /* Column-major: down the first column, then the next; or
             * flowing in rows. */
            double x = lx + (flow ? flow_x[i] : L->legend_below ? L->legend_item_w * (double)(i / nrow) : 0);
            double y = ly + 4 + L->legend_row * ((double)(flow ? flow_row[i] : i % nrow) + 0.5);
            if (i < f->nlegend) {
                draw_swatch(pt, &f->legend[i].style, x + 6, y, sw);
            } else {
                frame fr = {x + 6, y - 0.45 * L->legend_fs, sw, 0.9 * L->legend_fs, {0, 0}, {1, 1}, {0, 0}, {0, 0}};
                draw_clip_mark(pt, &fr, x + 6 + sw / 2, -1, CHART_BLACK);
            }
            cairo_set_source_rgb(cr, 0, 0, 0);
            draw_text(pt, legend_label(f, L, i), x + 6 + sw + (flow ? 4 : 6), y, L->legend_fs, 0, -1, 0, 0);
        }
        free(flow_x);
        free(flow_row);
    }
    if (o->caption) {
        double y = L->height - L->notes_h + 6;
        cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
        for (size_t i = 0; i < f->nnotes; i++) {
            PangoLayout *lay = layout_of(pt, f->notes[i], L->note_fs, 0);
            pango_layout_set_width(lay, (int)((L->width - 16) * PANGO_SCALE));
            pango_layout_set_wrap(lay, PANGO_WRAP_WORD);
            PangoRectangle logical;
            pango_layout_get_extents(lay, NULL, &logical);
            cairo_move_to(cr, 8, y);
            pango_cairo_update_layout(cr, lay);
            pango_cairo_show_layout(cr, lay);
            y += (double)logical.height / PANGO_SCALE + 2;
            g_object_unref(lay);
        }
    }
}

/* ---- metadata --------------------------------------------------------------- */

/* The notes as one plain-text paragraph (malloc'd). */
static char *notes_text(const chart *f)
{
    bytes b = {0};
    bytes_put(&b, "", 0);
    for (size_t i = 0; i < f->nnotes; i++) {
        char *plain = plain_of(f->notes[i]);
        if (!plain) {
            b.failed = 1;
            break;
        }
        if (i)
            bytes_put(&b, " ", 1);
        bytes_put(&b, plain, strlen(plain));
        free(plain);
    }
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    return (char *)b.s;
}

/* SVG: <title>, <desc> and <metadata> right after the opening <svg> tag. */
static int svg_metadata(bytes *doc, const char *title, const char *desc, const char *provenance)
{
    char *open = strstr((char *)doc->s, "<svg");
    char *end = open ? strchr(open, '>') : NULL;
    if (!end)
        return -1;
    size_t at = (size_t)(end - (char *)doc->s) + 1;
    bytes b = {0};
    const char *parts[][3] = {{"\n<title>", title, "</title>"},
                              {"\n<desc>", desc, "</desc>"},
                              {"\n<metadata>", provenance, "</metadata>"}};
    for (size_t i = 0; i < 3; i++) {
        if (!parts[i][1] || !*parts[i][1])
            continue;
        char *esc = escape_dup(parts[i][1]);
        if (!esc) {
            free(b.s);
            return -1;
        }
        bytes_put(&b, parts[i][0], strlen(parts[i][0]));
        bytes_put(&b, esc, strlen(esc));
        bytes_put(&b, parts[i][2], strlen(parts[i][2]));
        free(esc);
    }
    bytes out = {0};
    bytes_put(&out, doc->s, at);
    if (b.len)
        bytes_put(&out, b.s, b.len);
    bytes_put(&out, doc->s + at, doc->len - at);
    free(b.s);
    if (out.failed) {
        free(out.s);
        return -1;
    }
    free(doc->s);
    *doc = out;
    return 0;
}

static void put_be32(bytes *b, unsigned long v)
{
    unsigned char c[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16), (unsigned char)(v >> 8),
                          (unsigned char)v};
    bytes_put(b, c, 4);
}

/* A PNG iTXt chunk (UTF-8 text, uncompressed) for keyword. */
static void png_itxt(bytes *b, const char *keyword, const char *text)
{
    size_t klen = strlen(keyword), tlen = strlen(text);
    bytes data = {0};
    bytes_put(&data, "iTXt", 4);
    bytes_put(&data, keyword, klen + 1);
    bytes_put(&data, "\0\0\0\0", 4); /* not compressed, method 0, no language, no translated keyword */
    bytes_put(&data, text, tlen);
    if (data.failed) {
        b->failed = 1;
        free(data.s);
        return;
    }
    put_be32(b, (unsigned long)(data.len - 4));
    bytes_put(b, data.s, data.len);
    put_be32(b, crc32(crc32(0L, Z_NULL, 0), data.s, (uInt)data.len));
    free(data.s);
}

/* PNG: text chunks after IHDR (the 8-byte signature and 25-byte IHDR). */
static int png_metadata(bytes *doc, const char *title, const char *desc, const char *provenance)
{
    const size_t at = 8 + 25;
    if (doc->len < at)
        return -1;
    bytes out = {0};
    bytes_put(&out, doc->s, at);
    if (title && *title)
        png_itxt(&out, "Title", title);
    if (desc && *desc)
        png_itxt(&out, "Description", desc);
    png_itxt(&out, "Software", "loopscale " LOOPSCALE_VERSION);
    if (provenance && *provenance)
        png_itxt(&out, "Comment", provenance);
    bytes_put(&out, doc->s + at, doc->len - at);
    if (out.failed) {
        free(out.s);
        return -1;
    }
    free(doc->s);
    *doc = out;
    return 0;
}

/* ---- rendering -------------------------------------------------------------- */

static PangoContext *pango_for(cairo_t *cr)
{
    PangoContext *ctx = pango_cairo_create_context(cr);
    pango_cairo_context_set_resolution(ctx, 72.0);
    cairo_font_options_t *fo = cairo_font_options_create();
    /* Unhinted metrics: text measures the same in every format. */
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    pango_cairo_context_set_font_options(ctx, fo);
    cairo_font_options_destroy(fo);
    return ctx;
}

int ls_chart_check_size(const ls_figure *o, ls_error *err)
{
    if (!o || !(o->width_pt > 0 && o->height_pt > 0))
        return 0;
    /* The least any plot needs: one panel with ticks and axis labels and
     * a legend of one row, laid out as cramped as the renderer ever goes. */
    chart *f = ls_chart_new(NULL, 1, 1);
    chart_panel *p = f ? ls_chart_panel(f, 0, 0) : NULL;
    if (!p) {
        ls_chart_free(f);
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory while checking the plot's size");
    }
    const double x[] = {1.0, 2.5}, y[] = {2.25, 2.75};
    chart_style st = ls_chart_line_style(0);
    ls_chart_panel_axis(p, CHART_AXIS_X, "x", CHART_SCALE_LINEAR);
    ls_chart_panel_axis(p, CHART_AXIS_Y, "y", CHART_SCALE_LINEAR);
    ls_chart_panel_line(p, x, y, 2, &st);
    ls_chart_legend(f, "E = 1", &st); /* every plot has a legend: one row of it */
    painter pt = {NULL, NULL, o->font_pt > 0 ? o->font_pt : 9.0, o->look};
    cairo_surface_t *scratch = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
    pt.cr = cairo_create(scratch);
    pt.pango = pango_for(pt.cr);
    layout L;
    layout_at(&pt, f, o, NULL, LAYOUT_LEVELS - 1, &L);
    g_object_unref(pt.pango);
    cairo_destroy(pt.cr);
    cairo_surface_destroy(scratch);
    int failed = f->failed;
    ls_chart_free(f);
    if (failed)
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory while checking the plot's size");
    if (L.panel_w < 24 || L.panel_h < 24)
        return ls_error_set(err, LS_ERR_USAGE, "a figure of %.3g x %.3g in leaves no room for a panel at %.3g pt text",
                            o->width_pt / 72, o->height_pt / 72, pt.fs);
    return 0;
}

/* Cairo draws no surface past 32767 units a side, and a PDF page is at
 * most 200 inches: a figure laid out larger (hundreds of legend entries at
 * the natural size) is refused with the reason, never left to fail inside
 * cairo. */
#define MAX_PAGE_PT 14400.0
#define MAX_PNG_SIDE 32767.0
#define MAX_PNG_PIXELS 1e8

static int check_drawable(const layout *L, const ls_figure *o, ls_error *err)
{
    int fixed = o->width_pt > 0 && o->height_pt > 0;
    int code = fixed ? LS_ERR_USAGE : LS_ERR_DATA;
    if (L->width > MAX_PAGE_PT || L->height > MAX_PAGE_PT)
        return ls_error_set(err, code, "the figure would be %.0f x %.0f in, past the 200 in a side a page can be: "
                            "too many series or legend entries to draw", L->width / 72, L->height / 72);
    double scale = (o->dpi > 0 ? o->dpi : 150.0) / 72.0, w = ceil(L->width * scale), h = ceil(L->height * scale);
    if (o->format == LS_FIGURE_PNG && (w > MAX_PNG_SIDE || h > MAX_PNG_SIDE || w * h > MAX_PNG_PIXELS))
        return ls_error_set(err, code, "the figure would be a %.0f x %.0f pixel PNG, too large: at most 32767 "
                            "pixels a side and 100 million in all; lower --dpi, or write .pdf or .svg", w, h);
    return 0;
}

unsigned char *ls_chart_render(const chart *f, const ls_figure *o, size_t *len, ls_error *err)
{
    if (f->failed) {
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory while building the plot");
        return NULL;
    }
    ls_figure defaults = ls_figure_default();
    if (!o)
        o = &defaults;
    char *title = NULL;
    if (!o->no_title)
        title = o->title ? escape_dup(o->title) : f->title ? strdup(f->title) : NULL;
    char *plain_title = title ? plain_of(title) : NULL, *desc = notes_text(f);
    /* The command line goes into the metadata, which is UTF-8 in every format. */
    char *provenance = o->provenance ? ls_utf8_repair_dup(o->provenance) : NULL;
    unsigned char *result = NULL;
    bytes doc = {0};
    layout L;
    painter pt = {NULL, NULL, o->font_pt > 0 ? o->font_pt : 9.0, o->look};
    /* Measure on a scratch surface: unhinted text measures the same on
     * every surface. */
    cairo_surface_t *scratch = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
    pt.cr = cairo_create(scratch);
    pt.pango = pango_for(pt.cr);
    int status = compute_layout(&pt, f, o, title, &L, err);
    g_object_unref(pt.pango);
    cairo_destroy(pt.cr);
    cairo_surface_destroy(scratch);
    if (status == 0)
        status = check_drawable(&L, o, err);
    if (status != 0)
        goto done;
    if (((o->title || f->title) && !o->no_title && (!title || !plain_title)) || !desc ||
        (o->provenance && !provenance)) {
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory while building the plot");
        goto done;
    }
    double dpi = o->dpi > 0 ? o->dpi : 150.0, scale = dpi / 72.0;
    cairo_surface_t *surface;
    switch (o->format) {
    case LS_FIGURE_PDF:
        surface = cairo_pdf_surface_create_for_stream(write_stream, &doc, L.width, L.height);
        if (cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS) {
            if (plain_title)
                cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, plain_title);
            if (*desc)
                cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_SUBJECT, desc);
            if (provenance)
                cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_KEYWORDS, provenance);
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "loopscale " LOOPSCALE_VERSION);
        }
        break;
    case LS_FIGURE_PNG:
        surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)ceil(L.width * scale), (int)ceil(L.height * scale));
        break;
    default:
        surface = cairo_svg_surface_create_for_stream(write_stream, &doc, L.width, L.height);
        if (cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS)
            cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PT);
        break;
    }
    pt.cr = cairo_create(surface);
    if (o->format == LS_FIGURE_PNG)
        cairo_scale(pt.cr, scale, scale);
    pt.pango = pango_for(pt.cr);
    draw_chart(&pt, f, o, &L);
    cairo_status_t cs = cairo_status(pt.cr);
    g_object_unref(pt.pango);
    cairo_destroy(pt.cr);
    if (cs == CAIRO_STATUS_SUCCESS && o->format == LS_FIGURE_PNG)
        cs = cairo_surface_write_to_png_stream(surface, write_stream, &doc);
    cairo_surface_finish(surface);
    if (cs == CAIRO_STATUS_SUCCESS)
        cs = cairo_surface_status(surface);
    cairo_surface_destroy(surface);
    if (cs != CAIRO_STATUS_SUCCESS || doc.failed) {
        ls_error_set(err, LS_ERR_INTERNAL, "cannot draw the plot: %s",
                     doc.failed ? "out of memory" : cairo_status_to_string(cs));
        goto done;
    }
    int meta = 0;
    if (o->format == LS_FIGURE_SVG)
        meta = svg_metadata(&doc, plain_title, desc, provenance);
    else if (o->format == LS_FIGURE_PNG)
        meta = png_metadata(&doc, plain_title, desc, provenance);
    if (meta != 0) {
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory while writing the plot");
        goto done;
    }
    result = doc.s;
    *len = doc.len;
    doc.s = NULL;
done:
    free(doc.s);
    free(title);
    free(plain_title);
    free(desc);
    free(provenance);
    return result;
}
