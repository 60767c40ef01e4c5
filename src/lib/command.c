/*
 * command.c — the commands: their registry, the one way a request runs, and
 * the help and ranges made from the option table (loopscale/command.h).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command_internal.h"
#include "commands/commands_internal.h"

/* In the order `loopscale --help` lists them. */
static const cmd_def *const COMMANDS[] = {
    &CMD_FIT,
    &CMD_HOLDOUT,
    &CMD_ISOFIT,
    &CMD_FRONTIER,
    &CMD_ISOFLOP,
    &CMD_PLAN,
    &CMD_SIMULATE,
    &CMD_PREDICT,
    &CMD_SOLVE,
    &CMD_REPORT,
    &CMD_SHAPE,
    &CMD_ROUTE,
    &CMD_EXIT,
};
#define NCOMMANDS (sizeof COMMANDS / sizeof *COMMANDS)

const cmd_def *cmd_find(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(COMMANDS[i]->name, name) == 0)
            return COMMANDS[i];
    return NULL;
}

/* The words of one form of cmd_def.operands: [form, form + len). */
static size_t form_words(const char *form, size_t len, int *open_ended)
{
    size_t words = 0;
    for (size_t i = 0; i < len; i++)
        words += form[i] != ' ' && (i == 0 || form[i - 1] == ' ');
    *open_ended = len >= 3 && strncmp(form + len - 3, "...", 3) == 0;
    return words;
}

void cmd_operand_label(const cmd_def *def, size_t i, size_t n, char *buf, size_t size)
{
    const char *forms = def->operands ? def->operands : "FILE...";
    const char *form = forms;
    size_t len = strcspn(forms, "|");
    for (const char *f = forms; *f;) {
        size_t flen = strcspn(f, "|");
        int open_ended;
        size_t words = form_words(f, flen, &open_ended);
        if (words == n || (open_ended && n + 1 >= words)) {
            form = f;
            len = flen;
            break;
        }
        f += flen + (f[flen] == '|');
    }
    /* Word i, or the last one for an operand beyond the form. */
    const char *word = form, *end = form + len;
    for (size_t k = 0; k < i; k++) {
        const char *space = memchr(word, ' ', (size_t)(end - word));
        if (!space)
            break;
        word = space + 1;
    }
    size_t wlen = strcspn(word, " |");
    if (wlen > (size_t)(end - word))
        wlen = (size_t)(end - word);
    if (wlen >= 3 && strncmp(word + wlen - 3, "...", 3) == 0)
        wlen -= 3;
    snprintf(buf, size, "%.*s", (int)wlen, word);
}

const char *cmd_default_format(const cmd_def *def)
{
    static const char *const names[] = {"table", "csv", "tsv", "json", "md", "html"};
    size_t n = def->formats ? strcspn(def->formats, "|") : 0;
    for (size_t f = 0; f < sizeof names / sizeof *names; f++)
        if (n && strlen(names[f]) == n && strncmp(names[f], def->formats, n) == 0)
            return names[f];
    return NULL;
}

const cmd_option *cmd_option_of(const cmd_def *def, opt_id id)
{
    for (const cmd_option *c = def->options; c->id != O_NOPTIONS; c++)
        if (c->id == id)
            return c;
    return NULL;
}

size_t ls_command_count(void)
{
    return NCOMMANDS;
}

const char *ls_command_name(size_t i)
{
    return i < NCOMMANDS ? COMMANDS[i]->name : NULL;
}

int ls_command_streams(const char *command)
{
    const cmd_def *def = command ? cmd_find(command) : NULL;
    return def && def->streams;
}

const char *ls_command_summary(size_t i)
{
    return i < NCOMMANDS ? COMMANDS[i]->summary : NULL;
}

/* The option as the command shows it: the table's row with the command's
 * own help, default and heading where it has them. */
static ls_option shown_option(const cmd_def *def, const cmd_option *c)
{
    ls_option o = OPTION_TABLE[c->id];
    if (c->help)
        o.help = c->help;
    if (c->default_text) {
        o.default_text = c->default_text;
        o.default_doc = NULL;
    }
    if (c->default_doc)
        o.default_doc = c->default_doc;
    o.heading = c->heading ? c->heading : o.heading;
    if (c->id == O_FORMAT) {
        o.choices = def->formats;
        if (!c->default_text)
            o.default_text = cmd_default_format(def);
    }
    return o;
}

int ls_command_option(const char *command, size_t i, ls_option *out)
{
    const cmd_def *def = command ? cmd_find(command) : NULL;
    for (size_t k = 0; def && def->options[k].id != O_NOPTIONS; k++)
        if (k == i) {
            *out = shown_option(def, &def->options[k]);
            return 1;
        }
    return 0;
}

/* ---- help ---------------------------------------------------------------------- */

#define HELP_WIDTH 80
#define HELP_COLUMN 26

/* Append `text` wrapped to HELP_WIDTH, the first line starting at column
 * `at` (already written), the others indented by `indent`. */
static void wrap(strbuf *b, const char *text, size_t at, size_t indent)
{
    size_t col = at;
    const char *p = text;
    int first = 1;
    while (*p) {
        size_t word = strcspn(p, " ");
        if (!first && col + 1 + word > HELP_WIDTH) {
            strbuf_printf(b, "\n%*s", (int)indent, "");
            col = indent;
            first = 1;
        }
        if (!first) {
            strbuf_puts(b, " ");
            col++;
        }
        strbuf_append(b, p, word);
        col += word;
        first = 0;
        p += word;
        while (*p == ' ')
            p++;
    }
    strbuf_puts(b, "\n");
}

/* A usage form wrapped to HELP_WIDTH from column `at` (already written),
 * continuation lines indented to `at`; a bracketed group, "[--mem BYTES]",
 * is never split. */
static void wrap_usage(strbuf *b, const char *form, size_t at)
{
    size_t col = at;
    for (const char *p = form; *p;) {
        size_t word = 0;
        for (int depth = 0; p[word] && (depth > 0 || p[word] != ' '); word++) {
            depth += (p[word] == '[' || p[word] == '(') - (p[word] == ']' || p[word] == ')');
            /* an option keeps its value: "-o FILE" */
            if (depth == 0 && p[0] == '-' && p[word + 1] == ' ' && isupper((unsigned char)p[word + 2]))
                word++;
        }
        if (col > at && col + 1 + word > HELP_WIDTH) {
            strbuf_printf(b, "\n%*s", (int)at, "");
            col = at;
        } else if (col > at) {
            strbuf_puts(b, " ");
            col++;
        }
        strbuf_append(b, p, word);
        col += word;
        p += word;
        p += strspn(p, " ");
    }
    strbuf_puts(b, "\n");
}

/* The description: paragraphs (separated by blank lines) wrapped to
 * HELP_WIDTH, except those whose lines are indented (a list, a formula),
 * which are kept as written. */
static void describe(strbuf *b, const char *text)
{
    while (*text) {
        const char *end = strstr(text, "\n\n");
        size_t len = end ? (size_t)(end - text) : strlen(text);
        char *para = strndup(text, len);
        if (!para) {
            b->failed = 1;
            return;
        }
        if (para[0] == ' ' || strstr(para, "\n ")) {
            strbuf_printf(b, "%s\n", para);
        } else {
            for (char *c = para; *c; c++)
                *c = *c == '\n' ? ' ' : *c;
            wrap(b, para, 0, 0);
        }
        free(para);
        text += len;
        if (*text) {
            strbuf_puts(b, "\n");
            text += 2;
        }
    }
}

static void option_help(strbuf *b, const ls_option *o)
{
    if (o->heading)
        strbuf_printf(b, "%s\n", o->heading);
    char flags[64];
    int n;
    if (o->short_name)
        n = snprintf(flags, sizeof flags, "  -%c, --%s", o->short_name, o->name);
    else
        n = snprintf(flags, sizeof flags, "      --%s", o->name);
    /* A choice shows its values, "--loss huber|mse", which the bash
     * completion offers. */
    const char *metavar = o->type == LS_OPTION_CHOICE && o->choices ? o->choices : o->metavar;
    if (metavar && o->type != LS_OPTION_SWITCH)
        n += snprintf(flags + n, sizeof flags - (size_t)n, " %s", metavar);
    strbuf_puts(b, flags);
    size_t at = (size_t)n;
    if (at + 2 > HELP_COLUMN) {
        strbuf_puts(b, "  ");
        at += 2;
    } else {
        strbuf_printf(b, "%*s", (int)(HELP_COLUMN - at), "");
        at = HELP_COLUMN;
    }
    strbuf text = {0};
    strbuf_puts(&text, o->help);
    const char *def = o->default_doc ? o->default_doc : o->default_text;
    if (def && *def) /* "": no default to show (a required option) */
        strbuf_printf(&text, " (default: %s)", def);
    if ((o->flags & LS_OPTION_REPEATABLE) && !strstr(o->help, "repeatable"))
        strbuf_puts(&text, " (repeatable)");
    wrap(b, text.buf ? text.buf : "", at, HELP_COLUMN);
    strbuf_free(&text);
}

char *ls_command_help(const char *command)
{
    const cmd_def *def = command ? cmd_find(command) : NULL;
    if (!def)
        return NULL;
    strbuf b = {0};
    /* "Usage: loopscale NAME ..." for each form of the command (a usage
     * line that starts with a space continues the form above it), wrapped
     * under its first option. */
    int first_form = 1;
    for (const char *u = def->usage; *u; first_form = 0) {
        strbuf form = {0};
        do {
            size_t line = strcspn(u, "\n");
            size_t lead = strspn(u, " ");
            if (form.len)
                strbuf_puts(&form, " ");
            strbuf_append(&form, u + lead, line - lead);
            u += line + (u[line] == '\n');
        } while (*u == ' ');
        strbuf_printf(&b, "%s loopscale %s ", first_form ? "Usage:" : "      ", def->name);
        wrap_usage(&b, form.buf ? form.buf : "", strlen("Usage: loopscale  ") + strlen(def->name));
        strbuf_free(&form);
    }
    strbuf_puts(&b, "\n");
    describe(&b, def->description);
    strbuf_puts(&b, "\n");
    for (const cmd_option *c = def->options; c->id != O_NOPTIONS; c++) {
        ls_option o = shown_option(def, c);
        option_help(&b, &o);
    }
    strbuf_puts(&b, "  -h, --help              show this help\n");
    if (def->epilogue) {
        strbuf_puts(&b, "\n");
        describe(&b, def->epilogue);
    }
    return strbuf_take(&b);
}

/* text as troff: backslash, minus and quote escaped, a control character at
 * a line's start defused. */
static void troff(strbuf *b, const char *text)
{
    int start = 1;
    for (const char *p = text; *p; p++) {
        if (start && (*p == '.' || *p == '\''))
            strbuf_puts(b, "\\&");
        start = *p == '\n';
        switch (*p) {
        case '\\': strbuf_puts(b, "\\e"); break;
        case '-': strbuf_puts(b, "\\-"); break;
        case '\'': strbuf_puts(b, "\\(aq"); break;
        default: strbuf_append(b, p, 1); break;
        }
    }
}

char *ls_command_ranges(int troff_style)
{
    strbuf b = {0};
    /* Each option once, in the table's order, with every command that
     * takes it. */
    for (int id = 0; id < O_NOPTIONS; id++) {
        const ls_option *o = &OPTION_TABLE[id];
        if (isnan(o->min))
            continue;
        int integral = (o->flags & LS_OPTION_INTEGRAL) || o->type == LS_OPTION_INTEGER;
        char range[96];
        if (o->type == LS_OPTION_SIZE)
            snprintf(range, sizeof range, "%g to %g inches each way", o->min, o->max);
        else
            snprintf(range, sizeof range, "%s%g to %g", integral ? "an integer from " : "", o->min, o->max);
        char commands[256] = "";
        for (size_t i = 0; i < NCOMMANDS; i++)
            if (cmd_option_of(COMMANDS[i], (opt_id)id)) {
                size_t used = strlen(commands);
                snprintf(commands + used, sizeof commands - used, "%s%s", used ? ", " : "", COMMANDS[i]->name);
            }
        if (!commands[0])
            continue;
        if (troff_style) {
            strbuf_puts(&b, ".TP\n\\fB\\-\\-");
            troff(&b, o->name);
            strbuf_puts(&b, "\\fR\n");
            troff(&b, range);
            if (o->unit) {
                strbuf_puts(&b, " ");
                troff(&b, o->unit);
            }
            strbuf_puts(&b, " (");
            troff(&b, commands);
            strbuf_puts(&b, ")\n");
        } else
            strbuf_printf(&b, "--%-18s %s (%s)\n", o->name, range, commands);
    }
    return strbuf_take(&b);
}

/* ---- the man page ------------------------------------------------------------------- */

char *ls_command_man(void)
{
    strbuf b = {0};
    for (size_t i = 0; i < NCOMMANDS; i++) {
        const cmd_def *def = COMMANDS[i];
        strbuf_printf(&b, ".SS \"loopscale %s\"\n.nf\n", def->name);
        for (const char *u = def->usage; *u;) {
            size_t line = strcspn(u, "\n");
            char *text = strndup(u, line);
            strbuf_printf(&b, "%s", u[0] == ' ' ? "  " : "");
            if (u[0] != ' ')
                strbuf_printf(&b, "loopscale %s ", def->name);
            if (text)
                troff(&b, text + strspn(text, " "));
            free(text);
            strbuf_puts(&b, "\n");
            u += line + (u[line] == '\n');
        }
        strbuf_puts(&b, ".fi\n");
        /* The description's paragraphs, each one filled by the reader. */
        for (const char *d = def->description; *d;) {
            const char *end = strstr(d, "\n\n");
            size_t len = end ? (size_t)(end - d) : strlen(d);
            char *para = strndup(d, len);
            if (para) {
                int literal = para[0] == ' ' || strstr(para, "\n ");
                strbuf_puts(&b, literal ? ".PP\n.nf\n" : ".PP\n");
                if (!literal)
                    for (char *c = para; *c; c++)
                        *c = *c == '\n' ? ' ' : *c;
                troff(&b, para);
                strbuf_puts(&b, literal ? "\n.fi\n" : "\n");
            }
            free(para);
            d += len + (end ? 2 : 0);
        }
        for (const cmd_option *c = def->options; c->id != O_NOPTIONS; c++) {
            ls_option o = shown_option(def, c);
            if (o.heading) {
                strbuf_puts(&b, ".PP\n");
                troff(&b, o.heading);
                strbuf_puts(&b, "\n");
            }
            strbuf_puts(&b, ".TP\n");
            if (o.short_name)
                strbuf_printf(&b, "\\fB\\-%c\\fR, ", o.short_name);
            strbuf_puts(&b, "\\fB\\-\\-");
            troff(&b, o.name);
            strbuf_puts(&b, "\\fR");
            const char *metavar = o.type == LS_OPTION_CHOICE && o.choices ? o.choices : o.metavar;
            if (metavar && o.type != LS_OPTION_SWITCH) {
                strbuf_puts(&b, " \\fI");
                troff(&b, metavar);
                strbuf_puts(&b, "\\fR");
            }
            strbuf_puts(&b, "\n");
            troff(&b, o.help);
            const char *dflt = o.default_doc && o.default_doc[0] ? o.default_doc
                               : o.default_doc                   ? NULL
                                                                 : o.default_text;
            if (dflt) {
                strbuf_puts(&b, " (default: ");
                troff(&b, dflt);
                strbuf_puts(&b, ")");
            }
            if ((o.flags & LS_OPTION_REPEATABLE) && !strstr(o.help, "repeatable"))
                strbuf_puts(&b, " (repeatable)");
            strbuf_puts(&b, "\n");
        }
        strbuf_puts(&b, ".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nshow this help\n");
        if (def->epilogue) {
            strbuf_puts(&b, ".PP\n");
            troff(&b, def->epilogue);
            strbuf_puts(&b, "\n");
        }
    }
    return strbuf_take(&b);
}

/* ---- running a request ----------------------------------------------------------- */

int ls_command_run(const ls_request *req, ls_result **out, ls_error *err)
{
    ls_error_clear(err);
    ls_result *res = calloc(1, sizeof *res);
    *out = res;
    if (!res)
        return res_oom(err);
    res->req = req;
    const cmd_def *def = req->def;
    int status = 0;
    if (req->noperands > def->max_operands && def->max_operands == 1)
        status = ls_error_set(err, LS_ERR_USAGE, "give one %s file", def->operands);
    else if (req->noperands > def->max_operands)
        status = ls_error_set(err, LS_ERR_USAGE, "unexpected argument '%s'", req->operands[def->max_operands]);
    if (status == 0)
        status = guard_check(req, res, err);
    if (status == 0)
        status = def->run(req, res, err);
    if (status == 0 && (res->failed_memory || strbuf_failed(&res->text)))
        status = res_oom(err);
    if (status != 0)
        req_respell(req, err->message);
    return status;
}
