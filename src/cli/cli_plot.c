/*
 * cli_plot.c — the figure options every plotting command shares
 * (CLI_PLOT_OPTIONS): size, text size, title, style, caption, PNG
 * resolution, and the format chosen by the file name.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* The first figure option given and whether --dpi was: an option that
 * changes no figure is refused (cli_plot_options_check), not ignored. */
static const char *plot_option_given;
static int dpi_given;

ls_figure cli_plot_defaults(void)
{
    ls_figure o = ls_figure_default();
    o.provenance = cli_command_line();
    return o;
}

/* "6.5x4" (inches), "16x10cm", "6.5x4in" into points. */
static int parse_size(const char *command, const char *arg, ls_figure *out)
{
    const char *x = strchr(arg, 'x');
    if (!x)
        x = strchr(arg, 'X');
    if (!x)
        return cli_usage_error(command, "--plot-size: '%s' is not WIDTHxHEIGHT, e.g. 6.5x4 or 16x10cm", arg);
    size_t n = strlen(arg);
    while (n > 0 && (arg[n - 1] == ' ' || arg[n - 1] == '\t'))
        n--; /* trailing blanks, as every number option allows */
    double unit = 72.0; /* points per inch */
    if (n > 2 && strncmp(arg + n - 2, "cm", 2) == 0) {
        unit = 72.0 / 2.54;
        n -= 2;
    } else if (n > 2 && strncmp(arg + n - 2, "in", 2) == 0) {
        n -= 2;
    }
    char w_text[64], h_text[64];
    size_t wl = (size_t)(x - arg), hl = n - wl - 1;
    if (x > arg + n || wl == 0 || hl == 0 || wl >= sizeof w_text || hl >= sizeof h_text)
        return cli_usage_error(command, "--plot-size: '%s' is not WIDTHxHEIGHT, e.g. 6.5x4 or 16x10cm", arg);
    memcpy(w_text, arg, wl);
    w_text[wl] = '\0';
    memcpy(h_text, x + 1, hl);
    h_text[hl] = '\0';
    double w, h;
    int status = cli_parse_positive(command, "--plot-size", w_text, &w);
    if (status == 0)
        status = cli_parse_positive(command, "--plot-size", h_text, &h);
    if (status != 0)
        return status;
    if (w * unit < 72 || h * unit < 72 || w * unit > 72 * 100 || h * unit > 72 * 100)
        return cli_usage_error(command, "--plot-size: '%s' must be between 1 and 100 inches each way", arg);
    out->width_pt = w * unit;
    out->height_pt = h * unit;
    return 0;
}

int cli_plot_option(const char *command, int opt, const char *arg, ls_figure *out, int *status)
{
    double v;
    static const struct {
        int opt;
        const char *name;
    } names[] = {{OPT_PLOT_SIZE, "--plot-size"},   {OPT_PLOT_FONT_SIZE, "--plot-font-size"},
                 {OPT_PLOT_TITLE, "--plot-title"}, {OPT_PLOT_NO_TITLE, "--plot-no-title"},
                 {OPT_PLOT_STYLE, "--plot-style"}, {OPT_PLOT_CAPTION, "--plot-caption"},
                 {OPT_DPI, "--dpi"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].opt == opt && !plot_option_given)
            plot_option_given = names[i].name;
    if (opt == OPT_DPI)
        dpi_given = 1;
    switch (opt) {
    case OPT_PLOT_SIZE: *status = parse_size(command, arg, out); return 1;
    case OPT_PLOT_FONT_SIZE:
        *status = cli_parse_positive(command, "--plot-font-size", arg, &v); /* range: cli.c */
        out->font_pt = v;
        return 1;
    case OPT_PLOT_TITLE:
        out->title = arg;
        out->no_title = 0;
        *status = 0;
        return 1;
    case OPT_PLOT_NO_TITLE:
        out->no_title = 1;
        *status = 0;
        return 1;
    case OPT_PLOT_STYLE:
        *status = 0;
        if (strcmp(arg, "light") == 0)
            out->look = LS_FIGURE_LIGHT;
        else if (strcmp(arg, "print") == 0)
            out->look = LS_FIGURE_PRINT;
        else
            *status = cli_usage_error(command, "--plot-style: '%s' is not light or print", arg);
        return 1;
    case OPT_PLOT_CAPTION:
        out->caption = 1;
        *status = 0;
        return 1;
    case OPT_DPI:
        *status = cli_parse_positive(command, "--dpi", arg, &v); /* range: cli.c */
        out->dpi = v;
        return 1;
    default: return 0;
    }
}

int cli_plot_format(const char *command, const char *option, const char *path, ls_figure *out)
{
    if (!path)
        return 0;
    ls_error err;
    /* A size with no room for a panel is refused now, before any work
     * or output, not after a fit or a table. */
    if (ls_chart_check_size(out, &err) != 0)
        return err.code == LS_ERR_USAGE ? cli_usage_error(command, "%s", err.message) : cli_fail(command, &err);
    if (ls_figure_format_of_path(path, &out->format, &err) == 0) {
        /* Size and resolution each within their limits can still make an
         * image cairo cannot hold (32767 pixels a side) or that would take
         * gigabytes: refuse before any work rather than fail after it. */
        double w = out->width_pt / 72.0 * out->dpi, h = out->height_pt / 72.0 * out->dpi;
        if (out->format == LS_FIGURE_PNG && (w > 32767 || h > 32767 || w * h > 1e8))
            return cli_usage_error(command,
                                   "%s: a %.0f x %.0f pixel PNG (--plot-size at --dpi %g) is too large: at most "
                                   "32767 pixels a side and 100 million in all; lower --dpi, or write .pdf or .svg",
                                   option, w, h, out->dpi);
        return 0;
    }
    /* Standard output, a device or a pipe (-, /dev/stdout, a FIFO) has no
     * extension to go by: it gets SVG, the one text format. */
    struct stat st;
    if (strcmp(path, "-") == 0 || (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))) {
        out->format = LS_FIGURE_SVG;
        return 0;
    }
    return cli_usage_error(command, "%s: %s", option, err.message);
}

int cli_plot_options_check(const char *command, size_t nplots, const char *const *plots, const ls_figure *const *figures,
                           const char *plot_options)
{
    if (nplots == 0)
        return dpi_given ? cli_usage_error(command, "--dpi has no effect: %s", plot_options) : 0;
    size_t given = 0, png = 0;
    for (size_t i = 0; i < nplots; i++)
        if (plots[i]) {
            given++;
            png += figures[i]->format == LS_FIGURE_PNG;
        }
    if (plot_option_given && given == 0)
        return cli_usage_error(command, "%s has no effect without %s", plot_option_given, plot_options);
    for (size_t i = 0; i < nplots; i++)
        if (plots[i] && figures[i]->title && figures[i]->no_title)
            return cli_usage_error(command, "--plot-title and --plot-no-title: give one, not both");
    if (dpi_given && png == 0)
        return cli_usage_error(command, "--dpi has no effect without a .png %s", plot_options);
    return 0;
}
