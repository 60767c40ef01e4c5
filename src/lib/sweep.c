#include "loopscale/sweep.h"

#include "loopscale/arch.h"
#include "loopscale/shape.h"

#include <ctype.h>
#include <fnmatch.h>
#include <float.h>
#include <stdarg.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "csv_internal.h"
#include "grow_internal.h"
#include "numtext_internal.h"
#include "text_internal.h"

typedef struct quantity_names {
    const char *canonical;
    const char *aliases[4];
} quantity_names;

static const quantity_names QUANTITIES[LS_SWEEP_NQUANTITIES] = {
    [LS_SWEEP_N_ACT] = {"n_act", {"N", "params", "n_active", NULL}},
    [LS_SWEEP_N_TOTAL] = {"n_total", {NULL}},
    [LS_SWEEP_N_LOOP] = {"n_loop", {NULL}},
    [LS_SWEEP_R] = {"R", {"loops", NULL}},
    [LS_SWEEP_E] = {"E", {"experts", NULL}},
    [LS_SWEEP_K] = {"k", {"top_k", NULL}},
    [LS_SWEEP_TOKENS] = {"tokens", {"D", NULL}},
    [LS_SWEEP_FLOPS] = {"flops", {NULL}},
    [LS_SWEEP_LOSS] = {"loss", {NULL}},
    [LS_SWEEP_UNIQUE_TOKENS] = {"unique_tokens", {"U", "tokens_per_epoch", NULL}},
};

/* What a run gets when its sweep has no column for the quantity. */
static const char *const QUANTITY_DEFAULTS[LS_SWEEP_NQUANTITIES] = {
    [LS_SWEEP_N_ACT] = "the sweep cannot be read",   [LS_SWEEP_N_TOTAL] = "n_total = n_act (dense)",
    [LS_SWEEP_N_LOOP] = "n_loop is unknown",        [LS_SWEEP_R] = "every run has R = 1",
    [LS_SWEEP_E] = "every run has E = 1",          [LS_SWEEP_K] = "every run has k = 1",
    [LS_SWEEP_TOKENS] = "the sweep cannot be read", [LS_SWEEP_FLOPS] = "the sweep cannot be read",
    [LS_SWEEP_LOSS] = "there is no loss",
};

/* Configuration columns: what a run's model is, when the sweep gives that
 * instead of its counts (sweep_options.config_base).  Each is a template's
 * key (loopscale/shape.h), with the names training configurations use. */
typedef enum { CONFIG_INT, CONFIG_CHOICE, CONFIG_BOOL, CONFIG_TIED } config_kind;
typedef struct config_column {
    const char *name;
    const char *aliases[7];
    size_t offset;
    config_kind kind;
} config_column;

static const config_column CONFIG_COLUMNS[] = {
    {"d_model", {"n_embd", "hidden_size", "width", NULL}, offsetof(ls_shape_spec, d_model), CONFIG_INT},
    {"d_ff", {"ffn_dim", "intermediate_size", "ffn_hidden_size", NULL}, offsetof(ls_shape_spec, d_ff), CONFIG_INT},
    {"d_expert", {"moe_intermediate_size", NULL}, offsetof(ls_shape_spec, d_expert), CONFIG_INT},
    {"loop_layers", {"layers", "n_layer", "n_layers", "num_layers", "num_hidden_layers", "n_recur_block", NULL},
     offsetof(ls_shape_spec, layers), CONFIG_INT},
    {"prelude_layers", {"head_layers", "n_prelude", "n_layers_in_prelude", NULL}, offsetof(ls_shape_spec, head_layers),
     CONFIG_INT},
    {"coda_layers", {"tail_layers", "n_coda", "n_layers_in_coda", NULL}, offsetof(ls_shape_spec, tail_layers),
     CONFIG_INT},
    {"moe_layers", {NULL}, offsetof(ls_shape_spec, moe_layers), CONFIG_INT},
    {"prelude_experts", {"head_experts", NULL}, offsetof(ls_shape_spec, head_experts), CONFIG_INT},
    {"coda_experts", {"tail_experts", NULL}, offsetof(ls_shape_spec, tail_experts), CONFIG_INT},
    {"shared_experts", {"n_shared_experts", "num_shared_experts", NULL}, offsetof(ls_shape_spec, shared_experts),
     CONFIG_INT},
    {"heads", {"n_head", "n_heads", "num_attention_heads", NULL}, offsetof(ls_shape_spec, heads), CONFIG_INT},
    {"kv_heads", {"n_kv_head", "n_kv_heads", "num_key_value_heads", NULL}, offsetof(ls_shape_spec, kv_heads),
     CONFIG_INT},
    {"head_dim", {NULL}, offsetof(ls_shape_spec, head_dim), CONFIG_INT},
    {"vocab", {"vocab_size", NULL}, offsetof(ls_shape_spec, vocab), CONFIG_INT},
    {"mlp", {NULL}, offsetof(ls_shape_spec, mlp), CONFIG_CHOICE},
    {"attention", {NULL}, offsetof(ls_shape_spec, attention), CONFIG_CHOICE},
    {"embeddings", {NULL}, offsetof(ls_shape_spec, embeddings), CONFIG_CHOICE},
    {"tie_embeddings", {"tie_word_embeddings", NULL}, offsetof(ls_shape_spec, embeddings), CONFIG_TIED},
    {"injection", {NULL}, offsetof(ls_shape_spec, injection), CONFIG_CHOICE},
    {"norms", {NULL}, offsetof(ls_shape_spec, norm_params), CONFIG_CHOICE},
    {"embedding_norm", {NULL}, offsetof(ls_shape_spec, embedding_norm), CONFIG_BOOL},
    {"loop_norm", {NULL}, offsetof(ls_shape_spec, loop_norm), CONFIG_BOOL},
};
#define NCONFIG (sizeof CONFIG_COLUMNS / sizeof *CONFIG_COLUMNS)

/* The configuration column a name stands for, any case, or -1. */
static int config_from_name(const char *name)
{
    for (size_t c = 0; c < NCONFIG; c++) {
        if (strcasecmp(CONFIG_COLUMNS[c].name, name) == 0)
            return (int)c;
        for (const char *const *a = CONFIG_COLUMNS[c].aliases; *a; a++)
            if (strcasecmp(*a, name) == 0)
                return (int)c;
    }
    return -1;
}

const char *ls_sweep_quantity_name(ls_sweep_quantity q) { return QUANTITIES[q].canonical; }

/* ---- the values a quantity may take ---------------------------------------- */

/* The ranges are those the command-line options had: 1e20 parameters or
 * tokens and 1e40 FLOPs are far beyond any training run and still far
 * inside double precision (so N_unroll and 6 N_unroll D stay finite); 10000
 * loops and a million experts likewise. */
static const ls_sweep_limits LIMITS[LS_SWEEP_NQUANTITIES] = {
    [LS_SWEEP_N_ACT] = {1, LS_SWEEP_MAX_PARAMS, 0, 0, 1, "parameters"},
    [LS_SWEEP_N_TOTAL] = {1, LS_SWEEP_MAX_PARAMS, 0, 0, 1, "parameters"},
    [LS_SWEEP_N_LOOP] = {1, LS_SWEEP_MAX_PARAMS, 0, 0, 1, "parameters"},
    [LS_SWEEP_R] = {1, LS_SWEEP_MAX_LOOPS, 0, 1, 0, "loops"},
    [LS_SWEEP_E] = {1, LS_SWEEP_MAX_EXPERTS, 0, 1, 0, "experts"},
    [LS_SWEEP_K] = {1, LS_SWEEP_MAX_EXPERTS, 0, 1, 0, "experts per token"},
    [LS_SWEEP_TOKENS] = {1, LS_SWEEP_MAX_TOKENS, 0, 0, 1, "tokens"},
    [LS_SWEEP_FLOPS] = {1, LS_SWEEP_MAX_FLOPS, 0, 0, 1, "FLOPs"},
    [LS_SWEEP_LOSS] = {0, DBL_MAX, 1, 0, 0, "nats per token"},
    [LS_SWEEP_UNIQUE_TOKENS] = {1, LS_SWEEP_MAX_TOKENS, 0, 0, 1, "tokens"},
};

const ls_sweep_limits *ls_sweep_quantity_limits(ls_sweep_quantity q)
{
    return (unsigned)q < LS_SWEEP_NQUANTITIES ? &LIMITS[q] : NULL;
}

int ls_sweep_quantity_check(ls_sweep_quantity q, double value, char *reason, size_t size)
{
    const ls_sweep_limits *l = &LIMITS[q];
    if (l->integer && value != floor(value))
        snprintf(reason, size, "is not an integer");
    else if (!(value > 0) && (l->min_excluded || l->min > 0))
        snprintf(reason, size, l->integer ? "must be at least %g" : "must be positive", l->min);
    else if (!(value >= l->min) || (l->min_excluded && value == l->min) || !(value <= l->max))
        snprintf(reason, size, "is outside its range: %s %g to %g (%s)", l->integer ? "an integer from" : "from",
                 l->min, l->max, l->unit);
    else
        return 0;
    return 1;
}

/* Parse a value of q: with an SI suffix only where q takes one.  *suffix is
 * set when the text is a number with a suffix q does not take. */
static numtext_status parse_value(ls_sweep_quantity q, const char *text, size_t len, double *value, int *suffix)
{
    *suffix = 0;
    if (LIMITS[q].suffixes)
        return ls_numtext_parse_count(text, len, value);
    numtext_status st = ls_numtext_parse_double(text, len, value);
    double ignored;
    if (st == NUMTEXT_NOT_NUMBER && ls_numtext_parse_count(text, len, &ignored) == NUMTEXT_OK)
        *suffix = 1;
    return st;
}

/* Why a value of q did not parse, to follow the quoted text. */
static void value_reason(ls_sweep_quantity q, numtext_status st, int suffix, char *reason, size_t size)
{
    if (suffix)
        snprintf(reason, size, "has a unit suffix, and %s is a plain number (k, M, B, T are for sizes, tokens and "
                 "FLOPs)", QUANTITIES[q].canonical);
    else
        snprintf(reason, size, "%s", ls_numtext_reason(st));
}

int ls_sweep_quantity_parse(ls_sweep_quantity q, const char *text, size_t len, double *value, char *reason,
                            size_t size)
{
    int suffix;
    numtext_status st = parse_value(q, text, len, value, &suffix);
    if (st == NUMTEXT_OK)
        return 0;
    value_reason(q, st, suffix, reason, size);
    return 1;
}

/* ---- names that look like a quantity's ------------------------------------- */

/* Edit distance (insertions, deletions, substitutions, transpositions of
 * neighbours) between a and b ignoring case; SIZE_MAX for names over 63
 * bytes, which are never near a quantity's name. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > 63 || m > 63)
        return SIZE_MAX;
    size_t d[64][64];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            size_t best = d[i - 1][j - 1] + cost;
            best = d[i - 1][j] + 1 < best ? d[i - 1][j] + 1 : best;
            best = d[i][j - 1] + 1 < best ? d[i][j - 1] + 1 : best;
            if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]) && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

/* word is one of name's words (split at anything not a letter or digit:
 * "config.model.num_experts" has "experts"), ignoring case. */
static int has_word(const char *name, const char *word)
{
    size_t w = strlen(word);
    for (const char *p = name; *p;) {
        while (*p && !isalnum((unsigned char)*p))
            p++;
        size_t len = 0;
        while (isalnum((unsigned char)p[len]))
            len++;
        if (len == w && strncasecmp(p, word, w) == 0)
            return 1;
        p += len;
    }
    return 0;
}

/* A column name that a user probably meant as quantity q: one edit from
 * its name or an alias of at least 4 letters (n_totl, loop), two from one
 * of at least 7, or with such a name as one of its words (num_experts,
 * eval/loss). */
static int looks_like(const char *name, int q)
{
    /* Words training configurations name loops with (train_recur, the
     * recurrence of looped nanochat), too loose to read a column by. */
    if (q == LS_SWEEP_R && (has_word(name, "recur") || has_word(name, "recurrence")))
        return 1;
    const char *names[5] = {QUANTITIES[q].canonical};
    for (int a = 0; a < 4 && QUANTITIES[q].aliases[a]; a++)
        names[a + 1] = QUANTITIES[q].aliases[a];
    for (int k = 0; k < 5 && names[k]; k++) {
        size_t len = strlen(names[k]);
        if (len < 4)
            continue;
        size_t d = edit_distance(name, names[k]);
        if (d <= (len >= 7 ? 2u : 1u) || has_word(name, names[k]))
            return 1;
    }
    return 0;
}

/* The quantity whose name or alias is nearest to name (fewest edits, or
 * with it as one of name's words), or NULL when none is within two edits. */
static const char *nearest_quantity(const char *name)
{
    const char *best = NULL;
    size_t best_d = 3;
    for (int q = 0; q < LS_SWEEP_NQUANTITIES; q++) {
        const char *names[4] = {QUANTITIES[q].canonical};
        for (int a = 0; a < 3 && QUANTITIES[q].aliases[a]; a++)
            names[a + 1] = QUANTITIES[q].aliases[a];
        for (int k = 0; k < 4 && names[k]; k++) {
            size_t d = edit_distance(name, names[k]);
            if (strlen(names[k]) >= 4 && has_word(name, names[k]))
                d = 1;
            if (d < best_d && d < strlen(names[k])) {
                best_d = d;
                best = QUANTITIES[q].canonical;
            }
        }
    }
    return best;
}

/* An error about a reader option: LS_ERR_USAGE for one given on the command
 * line (origin NULL); LS_ERR_DATA, after the place in its file, for one
 * from a sweep profile. */
static int option_error(ls_error *err, const char *origin, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int option_error(ls_error *err, const char *origin, const char *fmt, ...)
{
    char text[LS_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (origin)
        return ls_error_set(err, LS_ERR_DATA, "%s: %s (sweep profile)", origin, text);
    return ls_error_set(err, LS_ERR_USAGE, "%s", text);
}

int ls_sweep_quantity_from_name(const char *name, size_t len)
{
    csv_field field = {name, len};
    for (int q = 0; q < LS_SWEEP_NQUANTITIES; q++) {
        if (ls_csv_field_equals(field, QUANTITIES[q].canonical))
            return q;
        for (const char *const *alias = QUANTITIES[q].aliases; *alias; alias++)
            if (ls_csv_field_equals(field, *alias))
                return q;
    }
    return -1;
}

/* ---- options ---------------------------------------------------------- */

typedef enum { OP_LT, OP_LE, OP_EQ, OP_NE, OP_GE, OP_GT, OP_MATCH, OP_NOT_MATCH } where_op;

/* What a filter can name besides the columns of the file: the quantities
 * (0 .. LS_SWEEP_NQUANTITIES - 1, by canonical name or alias) and two more
 * derived from them. */
enum { WHERE_N_UNROLL = LS_SWEEP_NQUANTITIES, WHERE_TOKENS_PER_PARAM, WHERE_EPOCHS, WHERE_NTARGETS };

typedef struct where_filter {
    const char *text; /* as given, for messages */
    char *column;     /* malloc'd; where_free() */
    where_op op;
    int is_text;      /* compares the cell's text: == or != with a non-number, ~ or !~ */
    char *pattern;    /* the text compared (is_text), malloc'd */
    double value;
    int value_suffixed; /* value was written with an SI suffix (125M) */
    /* The first cell an == or ~ text condition refused that it would have
     * kept ignoring case (malloc'd): named when no row is left. */
    char *case_miss;
} where_filter;

static int where_target_from_name(const char *name)
{
    int q = ls_sweep_quantity_from_name(name, strlen(name));
    if (q >= 0)
        return q;
    if (strcasecmp(name, "n_unroll") == 0)
        return WHERE_N_UNROLL;
    if (strcasecmp(name, "tokens_per_param") == 0)
        return WHERE_TOKENS_PER_PARAM;
    if (strcasecmp(name, "epochs") == 0)
        return WHERE_EPOCHS;
    return -1;
}

/* A number with an SI suffix compared with a quantity that takes none
 * (loss<2.5k, R>=2k) is refused as such a cell would be.  Returns 0, or
 * LS_ERR_USAGE with err set. */
static int check_where_suffix(const where_filter *w, int q, ls_error *err)
{
    if (w->is_text || !w->value_suffixed || q < 0 || q >= LS_SWEEP_NQUANTITIES ||
        ls_sweep_quantity_limits((ls_sweep_quantity)q)->suffixes)
        return 0;
    return ls_error_set(err, LS_ERR_USAGE, "filter '%s': the value has a unit suffix, and %s is a plain number (k, "
                        "M, B, T are for sizes, tokens and FLOPs)", w->text, QUANTITIES[q].canonical);
}

typedef struct map_rename {
    const char *text;
    int sets_aside; /* renames a quantity's column to no quantity (train_flops=flops): checked on the header */
    char new_name[128];
    char old_name[128];
} map_rename;

/* Copy src without surrounding white space; 1 when it does not fit (a name
 * cut short would match, or clash with, another). */
static int copy_trimmed(char *dst, size_t size, const char *src, size_t len)
{
    while (len > 0 && isspace((unsigned char)*src)) {
        src++;
        len--;
    }
    while (len > 0 && isspace((unsigned char)src[len - 1]))
        len--;
    int too_long = len >= size;
    if (too_long)
        len = size - 1;
    memcpy(dst, src, len);
    dst[len] = '\0';
    return too_long;
}

/* The same into a new string of its own length (header names have no limit). */
static char *dup_trimmed(const char *src, size_t len)
{
    char *dst = malloc(len + 1);
    if (dst)
        copy_trimmed(dst, len + 1, src, len);
    return dst;
}

#define WHERE_SYNTAX "expected COLUMN OP VALUE with OP one of < <= = == != >= > ~ !~"

/* "COLUMN OP VALUE".  A VALUE that reads as a number (SI suffixes allowed:
 * 125M, 2.8B) is compared as one; == and != with any other VALUE, and ~
 * (matches) and !~ (does not match) with a shell glob, compare the cell's
 * text; quotes around VALUE ('finished') force a text comparison. */
static int parse_where(const char *text, where_filter *w, ls_error *err)
{
    memset(w, 0, sizeof *w);
    w->text = text;
    const char *op = strpbrk(text, "<>=!~");
    if (!op)
        return ls_error_set(err, LS_ERR_USAGE, "filter '%s': " WHERE_SYNTAX, text);
    if (!(w->column = dup_trimmed(text, (size_t)(op - text))))
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    if (w->column[0] == '\0')
        return ls_error_set(err, LS_ERR_USAGE, "filter '%s': no column name before '%.*s'", text,
                            (int)strspn(op, "<>=!~"), op);
    size_t oplen = 1;
    if (op[0] == '<')
        w->op = op[1] == '=' ? (oplen = 2, OP_LE) : OP_LT;
    else if (op[0] == '>')
        w->op = op[1] == '=' ? (oplen = 2, OP_GE) : OP_GT;
    else if (op[0] == '=')
        w->op = OP_EQ, oplen = op[1] == '=' ? 2 : 1;
    else if (op[0] == '~')
        w->op = OP_MATCH;
    else if (op[1] == '=')
        w->op = OP_NE, oplen = 2;
    else if (op[1] == '~')
        w->op = OP_NOT_MATCH, oplen = 2;
    else
        return ls_error_set(err, LS_ERR_USAGE, "filter '%s': " WHERE_SYNTAX, text);
    const char *value = op + oplen;
    size_t len = strlen(value);
    while (len > 0 && isspace((unsigned char)*value))
        value++, len--;
    while (len > 0 && isspace((unsigned char)value[len - 1]))
        len--;
    int quoted = len >= 2 && (value[0] == '\'' || value[0] == '"') && value[len - 1] == value[0];
    if (quoted)
        value++, len -= 2;
    numtext_status st = quoted ? NUMTEXT_NOT_NUMBER : ls_numtext_parse_count(value, len, &w->value);
    double plain;
    w->value_suffixed = st == NUMTEXT_OK && ls_numtext_parse_double(value, len, &plain) != NUMTEXT_OK;
    w->is_text = w->op == OP_MATCH || w->op == OP_NOT_MATCH || (st != NUMTEXT_OK && (w->op == OP_EQ || w->op == OP_NE));
    if (!w->is_text && st != NUMTEXT_OK)
        return ls_error_set(err, LS_ERR_USAGE, "filter '%s': '%.*s' %s (only = == != ~ !~ compare text)", text,
                            (int)len, value, ls_numtext_reason(st));
    if (w->is_text && !(w->pattern = dup_trimmed(value, len)))
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    if (w->is_text && quoted) {
        /* dup_trimmed took the blanks inside the quotes off; put them back. */
        memcpy(w->pattern, value, len);
        w->pattern[len] = '\0';
    }
    return 0;
}

static void where_free(where_filter *w)
{
    free(w->column);
    free(w->pattern);
    free(w->case_miss);
    w->column = w->pattern = w->case_miss = NULL;
}

static int where_holds(const where_filter *w, double x)
{
    switch (w->op) {
    case OP_LT: return x < w->value;
    case OP_LE: return x <= w->value;
    case OP_EQ: return x == w->value;
    case OP_NE: return x != w->value;
    case OP_GE: return x >= w->value;
    case OP_GT: return x > w->value;
    case OP_MATCH:
    case OP_NOT_MATCH: break;
    }
    return 0;
}

/* A text condition on a cell (pattern NUL-terminated, the cell not). */
static int where_holds_text(const where_filter *w, const char *cell, size_t len, char **buf, size_t *cap)
{
    if (w->op == OP_EQ || w->op == OP_NE) {
        int equal = strlen(w->pattern) == len && memcmp(w->pattern, cell, len) == 0;
        return w->op == OP_EQ ? equal : !equal;
    }
    if (ls_grow((void **)buf, cap, len + 1, 1) != 0)
        return -1;
    memcpy(*buf, cell, len);
    (*buf)[len] = '\0';
    int match = fnmatch(w->pattern, *buf, 0) == 0;
    return w->op == OP_MATCH ? match : !match;
}

/* Remember a cell that == or ~ refused only for its case ('Finished' for
 * 'finished'), once.  Returns -1 when out of memory. */
static int note_case_miss(where_filter *w, const char *cell, size_t len)
{
    if (w->case_miss || !(w->op == OP_EQ || w->op == OP_MATCH))
        return 0;
    char *folded_cell = malloc(len + 1), *folded_pattern = strdup(w->pattern);
    if (!folded_cell || !folded_pattern) {
        free(folded_cell);
        free(folded_pattern);
        return -1;
    }
    for (size_t i = 0; i < len; i++)
        folded_cell[i] = (char)tolower((unsigned char)cell[i]);
    folded_cell[len] = '\0';
    for (char *p = folded_pattern; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    int kept = w->op == OP_EQ ? strcmp(folded_cell, folded_pattern) == 0
                              : fnmatch(folded_pattern, folded_cell, 0) == 0;
    free(folded_pattern);
    if (kept) {
        memcpy(folded_cell, cell, len); /* the cell as written */
        w->case_miss = folded_cell;
    } else
        free(folded_cell);
    return 0;
}

static int parse_map(const char *text, map_rename *m, ls_error *err)
{
    memset(m, 0, sizeof *m);
    m->text = text;
    const char *eq = strchr(text, '=');
    if (!eq || eq == text || eq[1] == '\0')
        return ls_error_set(err, LS_ERR_USAGE, "rename '%s': expected NEW=OLD", text);
    if (copy_trimmed(m->new_name, sizeof m->new_name, text, (size_t)(eq - text)) ||
        copy_trimmed(m->old_name, sizeof m->old_name, eq + 1, strlen(eq + 1)))
        return ls_error_set(err, LS_ERR_USAGE, "rename '%s': column name longer than %zu bytes", text,
                            sizeof m->new_name - 1);
    return 0;
}

/* ---- the reader --------------------------------------------------------- */

/* Whether a quantity's column held one value on every row. */
typedef struct column_spread {
    size_t n; /* rows that had the column */
    double first;
    int varies;
} column_spread;

static void spread_add(column_spread *c, double v)
{
    if (c->n++ == 0)
        c->first = v;
    else if (v != c->first)
        c->varies = 1;
}

typedef struct checkpoint_candidate {
    size_t key;
    double step;
    long line;
    int file;
    size_t row;
} checkpoint_candidate;

/* Interning a factor column's values while the rows are read: an open
 * address table of value indexes + 1 (0: empty), by FNV-1a of the text. */
#define FACTOR_SLOTS 512
typedef struct factor_index {
    unsigned short slot[FACTOR_SLOTS];
    size_t of_row_cap;
    int too_many; /* more than LS_SWEEP_FACTOR_VALUES values: no longer kept */
} factor_index;

typedef struct reader_state {
    const ls_sweep_options *options;
    const ls_sweep_handler *stream; /* rows go here instead of into s->rows */
    ls_sweep_text_cell *stream_cells; /* a row's fields as the stream's callback takes them */
    size_t stream_cells_cap;
    where_filter *wheres;
    map_rename *maps;
    ls_sweep *s;
    size_t rows_cap;
    size_t text_cap;
    /* Group keys, one per kept row, as offsets into `keys`. */
    char *keys;
    size_t keys_len, keys_cap;
    size_t *key_of_row;
    size_t key_of_row_cap;
    char *cell_buf; /* a cell NUL-terminated for a glob */
    size_t cell_buf_cap;
    double loss_scale; /* nats per token per unit of the loss column */
    /* Run identities (offsets into run_keys) and steps, one per kept row,
     * when the file has a run column. */
    char *run_keys;
    size_t run_keys_len, run_keys_cap;
    size_t *run_key_of_row;
    size_t run_key_of_row_cap;
    double *steps;
    size_t steps_cap;
    size_t by_text_cap, by_of_row_cap;
    ls_sweep_skips *skips;
    /* With options.last: every row the cell filters (--where on the raw
     * text) kept, valid or not, so that a run whose final checkpoint was
     * dropped later is known.  Run identity as an offset into cand_keys,
     * step (NaN: not a number), line and file, and the row's index among
     * the kept rows (SIZE_MAX: dropped). */
    char *cand_keys;
    size_t cand_keys_len, cand_keys_cap;
    checkpoint_candidate *cands;
    size_t ncands, cands_cap;
    /* Over the rows handed out, the values of each quantity read from a
     * column (for options.law on a stream, which keeps no rows). */
    column_spread spread[LS_SWEEP_NQUANTITIES];
    factor_index *findex; /* one per sweep.factors */
    /* Rows whose count columns and configuration columns disagree, and
     * the first of them, said in one warning once the sweep is read. */
    size_t config_disagree;
    char config_first[LS_ERROR_MESSAGE_MAX], config_subject[64];
} reader_state;

/* No row passed the filters: say so, and when a text condition refused
 * a cell only for its case, that this is the likeliest reason. */
static int no_rows_left(const reader_state *st, ls_error *err)
{
    for (size_t w = 0; w < st->options->nwheres; w++) {
        const where_filter *wf = &st->wheres[w];
        if (wf->case_miss)
            return ls_error_set(err, LS_ERR_DATA,
                                "%s: no rows left after the filters; text conditions are case-sensitive ('%s'), "
                                "and the column holds '%s'", st->s->name, wf->text, wf->case_miss);
    }
    return ls_error_set(err, LS_ERR_DATA, "%s: no rows left after the filters", st->s->name);
}

/* Per-file view of the header. */
typedef struct file_columns {
    size_t nfields;
    int column_of[LS_SWEEP_NQUANTITIES]; /* field index, or -1 */
    char **names;                     /* header text of each field, trimmed */
    int *where_column;                /* field index of each --where column, or -1 (tested on the row) */
    int *where_quantity;              /* what it names: a quantity, WHERE_N_UNROLL, ..., or -1 (a column) */
    int group_column;
    int run_column, step_column; /* field index, or -1 */
    int *by_column;              /* field index of each of options.by_columns */
    int config_of[NCONFIG];      /* field index of each configuration column, or -1 */
    int counts_from_config;      /* no n_act column: n_act, n_total and n_loop are counted */
    int *factor_field;           /* options.factors: the field of each of sweep.factors, or -1 */
    size_t nfactor_fields;       /* the factors there were after this file's header */
    int config_beside_counts;    /* an n_act column and configuration columns: checked against each other */
} file_columns;

/* ---- factor columns (options.factors) ---------------------------------------------- */

/* The index of text[0..len) among factor f's values, added when new; 0 for
 * every row once the column has too many values to be kept. */
static int factor_value(reader_state *st, size_t f, const char *text, size_t len, unsigned char *id)
{
    ls_sweep_factor *x = &st->s->factors[f];
    factor_index *ix = &st->findex[f];
    *id = 0;
    if (ix->too_many)
        return 0;
    while (len && isspace((unsigned char)*text))
        text++, len--;
    while (len && isspace((unsigned char)text[len - 1]))
        len--;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)text[i]) * 16777619u;
    size_t k = h % FACTOR_SLOTS;
    for (; ix->slot[k]; k = (k + 1) % FACTOR_SLOTS) {
        const char *v = x->values[ix->slot[k] - 1];
        if (strlen(v) == len && memcmp(v, text, len) == 0) {
            *id = (unsigned char)(ix->slot[k] - 1);
            return 0;
        }
    }
    if (x->nvalues == LS_SWEEP_FACTOR_VALUES) { /* not a setting: a name, a measurement */
        for (size_t v = 0; v < x->nvalues; v++)
            free(x->values[v]);
        free(x->values);
        x->values = NULL;
        x->nvalues = 0;
        ix->too_many = 1;
        return 0;
    }
    if (!x->values && !(x->values = calloc(LS_SWEEP_FACTOR_VALUES, sizeof *x->values)))
        return LS_ERR_INTERNAL;
    char *copy = malloc(len + 1);
    if (!copy)
        return LS_ERR_INTERNAL;
    memcpy(copy, text, len);
    copy[len] = '\0';
    x->values[x->nvalues] = copy;
    ix->slot[k] = (unsigned short)(x->nvalues + 1);
    *id = (unsigned char)x->nvalues++;
    return 0;
}

/* The row's value of every factor column: this file's cell, or "". */
static int row_factors(reader_state *st, const file_columns *fc, const csv_field *fields, ls_error *err)
{
    ls_sweep *s = st->s;
    for (size_t f = 0; f < s->nfactors; f++) {
        int field = f < fc->nfactor_fields ? fc->factor_field[f] : -1;
        ls_sweep_factor *x = &s->factors[f];
        unsigned char id;
        if (ls_grow((void **)&x->of_row, &st->findex[f].of_row_cap, s->n + 1, 1) != 0 ||
            factor_value(st, f, field >= 0 ? fields[field].ptr : "", field >= 0 ? fields[field].len : 0, &id) != 0)
            return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        x->of_row[s->n] = id;
    }
    return 0;
}

/* The file's columns no quantity is read from, each a factor of the sweep
 * (found by its name among those of earlier files, or added; the rows read
 * before have "" there). */
static int header_factors(reader_state *st, file_columns *fc, size_t nfields, ls_error *err)
{
    ls_sweep *s = st->s;
    /* Room for every factor at once: they are few. */
    if (!s->factors && (!(s->factors = calloc(LS_SWEEP_MAX_FACTORS, sizeof *s->factors)) ||
                        !(st->findex = calloc(LS_SWEEP_MAX_FACTORS, sizeof *st->findex))))
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    for (size_t i = 0; i < nfields; i++) {
        int read = 0;
        for (int q = 0; q < LS_SWEEP_NQUANTITIES; q++)
            read |= fc->column_of[q] == (int)i;
        for (size_t c = 0; fc->counts_from_config && c < NCONFIG; c++)
            read |= fc->config_of[c] == (int)i;
        size_t f = 0;
        while (f < s->nfactors && strcmp(s->factors[f].name, fc->names[i]) != 0)
            f++;
        if (read || (f == s->nfactors && s->nfactors == LS_SWEEP_MAX_FACTORS))
            continue;
        if (f == s->nfactors) {
            if (!(s->factors[f].name = strdup(fc->names[i])))
                return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
            s->nfactors++;
            /* The rows of earlier files had no such column. */
            unsigned char id;
            if (s->n && (ls_grow((void **)&s->factors[f].of_row, &st->findex[f].of_row_cap, s->n, 1) != 0 ||
                         factor_value(st, f, "", 0, &id) != 0))
                return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
            if (s->n)
                memset(s->factors[f].of_row, 0, s->n);
        }
    }
    /* Each factor's field in this file, -1 for those it lacks. */
    if (!(fc->factor_field = malloc((s->nfactors ? s->nfactors : 1) * sizeof *fc->factor_field)))
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    fc->nfactor_fields = s->nfactors;
    for (size_t f = 0; f < s->nfactors; f++) {
        fc->factor_field[f] = -1;
        for (size_t i = 0; i < nfields && fc->factor_field[f] < 0; i++)
            if (strcmp(s->factors[f].name, fc->names[i]) == 0)
                fc->factor_field[f] = (int)i;
    }
    return 0;
}

/* A cell for a message: at most 60 bytes, cut at a character's boundary.
 * The message quotes its controls and ill-formed bytes (ls_error_set);
 * a NUL, which would end it early, is written here as \x00. */
static const char *cell_text(csv_field f, char buf[80])
{
    size_t n = 0, i = 0;
    while (i < f.len) {
        const unsigned char *p = (const unsigned char *)f.ptr + i;
        size_t step = 1, out = 1;
        if (*p == '\0')
            out = 4;
        else if (*p >= 0x80) {
            /* Looked at through a NUL-terminated copy, since the cell is
             * not terminated; a sequence cut by the cell's end is ill-formed. */
            unsigned char seq[5] = {0};
            memcpy(seq, p, f.len - i < 4 ? f.len - i : 4);
            int k = ls_utf8_sequence(seq);
            step = out = k > 1 ? (size_t)k : 1;
        }
        if (n + out > 60)
            break;
        if (*p == '\0')
            memcpy(buf + n, "\\x00", 4);
        else
            memcpy(buf + n, p, out);
        n += out;
        i += step;
    }
    if (i < f.len) {
        memcpy(buf + n, "...", 3);
        n += 3;
    }
    buf[n] = '\0';
    return buf;
}

typedef struct named_field {
    const char *name;
    size_t index;
} named_field;

static int compare_named_fields(const void *a, const void *b)
{
    const named_field *x = a, *y = b;
    int c = strcasecmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* The first column (in file order) whose non-empty name repeats an earlier
 * one, or fc->nfields when none does, and in *earlier the first column with
 * that name.  Sorting keeps a header of 100,000 columns from costing 5e9
 * comparisons.  Returns -1 when out of memory. */
static int first_repeated_name(const file_columns *fc, size_t *first, size_t *earlier)
{
    *first = fc->nfields;
    *earlier = fc->nfields;
    named_field *v = malloc((fc->nfields ? fc->nfields : 1) * sizeof *v);
    if (!v)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < fc->nfields; i++)
        if (fc->names[i][0] != '\0')
            v[n++] = (named_field){fc->names[i], i};
    qsort(v, n, sizeof *v, compare_named_fields);
    /* Equal names are adjacent and in file order, so the run's first is the
     * earliest column of that name. */
    for (size_t k = 1, start = 0; k < n; k++) {
        if (strcasecmp(v[k].name, v[k - 1].name) != 0)
            start = k;
        else if (v[k].index < *first) {
            *first = v[k].index;
            *earlier = v[start].index;
        }
    }
    free(v);
    return 0;
}

/* A header names each column once.  One column may be unnamed (the index
 * column pandas writes, ",n_act,tokens,loss"), but a second unnamed one (or
 * one named only by white space, or a header of commas alone) would leave
 * columns no filter or message could tell apart; a name that repeats
 * another once case and surrounding white space are set aside ("loss" and
 * " Loss") would give one quantity two values.  Fields are numbered from 1. */
static int check_header_names(const file_columns *fc, const csv_field *fields, const char *file, long line,
                              ls_error *err)
{
    size_t repeat = 0, earlier = 0;
    if (first_repeated_name(fc, &repeat, &earlier) != 0)
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    size_t unnamed = fc->nfields, second_unnamed = fc->nfields;
    for (size_t i = 0; i < fc->nfields && second_unnamed == fc->nfields; i++)
        if (fc->names[i][0] == '\0') {
            if (unnamed == fc->nfields)
                unnamed = i;
            else
                second_unnamed = i;
        }
    if (second_unnamed < repeat)
        return ls_error_set(err, LS_ERR_DATA,
                            "%s:%ld: field %zu: a second column with no name (field %zu has none either); at most "
                            "one column, such as an index, may be unnamed",
                            file, line, second_unnamed + 1, unnamed + 1);
    if (repeat == fc->nfields)
        return 0;
    char a[80], b[80];
    if (fields[repeat].len == fields[earlier].len &&
        memcmp(fields[repeat].ptr, fields[earlier].ptr, fields[repeat].len) == 0)
        return ls_error_set(err, LS_ERR_DATA, "%s:%ld: field %zu: column '%s' appears twice (field %zu too)", file,
                            line, repeat + 1, fc->names[repeat], earlier + 1);
    return ls_error_set(err, LS_ERR_DATA,
                        "%s:%ld: field %zu: column '%s' appears twice: field %zu is '%s', and names are compared "
                        "ignoring case and surrounding white space",
                        file, line, repeat + 1, cell_text(fields[repeat], a), earlier + 1,
                        cell_text(fields[earlier], b));
}

#define MAP_ORIGIN(o, m) ((o)->map_origins ? (o)->map_origins[m] : NULL)
#define WHERE_ORIGIN(o, w) ((o)->where_origins ? (o)->where_origins[w] : NULL)

/* A usage error about an option from a sweep profile becomes a data
 * error at its place in the profile. */
static int blame_origin(ls_error *err, const char *origin)
{
    if (!origin || !err)
        return LS_ERR_USAGE;
    char text[LS_ERROR_MESSAGE_MAX];
    snprintf(text, sizeof text, "%s", err->message);
    return option_error(err, origin, "%s", text);
}

/* Whether a column's name says it counts parameters without the
 * embeddings: params_no_embed, non_embedding_params, n_params_nonembed. */
static int names_no_embedding(const char *name)
{
    static const char *const marks[] = {"no_embed", "noembed", "no-embed", "non_embed", "nonembed", "non-embed"};
    char lower[256];
    size_t n = 0;
    for (; name[n] && n + 1 < sizeof lower; n++)
        lower[n] = (char)tolower((unsigned char)name[n]);
    lower[n] = '\0';
    for (size_t k = 0; k < sizeof marks / sizeof *marks; k++)
        if (strstr(lower, marks[k]))
            return 1;
    return 0;
}

/* A warning from the reader: into options.warnings, or else to the older
 * callback as text.  0, or LS_ERR_INTERNAL. */
static int reader_warning(const ls_sweep_options *o, const char *subject, const char *message, ls_error *err)
{
    if (o->warnings)
        return ls_warnings_add(o->warnings, LS_WARNING_DATA, subject, "%s", message) == 0
                   ? 0
                   : ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    if (o->warn)
        o->warn(o->warn_context, message);
    return 0;
}

/* Column i is called name: by its header, or by a --map that renames it so. */
static int column_named(const reader_state *st, const file_columns *fc, size_t i, const char *name)
{
    if (strcasecmp(fc->names[i], name) == 0)
        return 1;
    for (size_t m = 0; m < st->options->nmaps; m++)
        if (strcasecmp(st->maps[m].new_name, name) == 0 && strcasecmp(st->maps[m].old_name, fc->names[i]) == 0)
            return 1;
    return 0;
}

/* The name column i goes by: the one a --map gives it (the last, as
 * read_header reads them), else its header. */
static const char *effective_name(const reader_state *st, const file_columns *fc, size_t i)
{
    const char *name = fc->names[i];
    for (size_t m = 0; m < st->options->nmaps; m++)
        if (strcasecmp(st->maps[m].old_name, fc->names[i]) == 0)
            name = st->maps[m].new_name;
    return name;
}

static int map_target_error(const reader_state *st, size_t m, const char *why, ls_error *err)
{
    const char *name = st->maps[m].new_name;
    const char *near = nearest_quantity(name);
    char hint[64] = "";
    if (near)
        snprintf(hint, sizeof hint, ": did you mean %s?", near);
    return option_error(err, MAP_ORIGIN(st->options, m),
                        "rename '%s': '%s' is not a quantity loopscale reads (n_act, n_total, n_loop, R, E, k, "
                        "tokens, flops, loss) and no filter, run, step or group column is called so%s%s",
                        st->maps[m].text, name, why, hint);
}

/* A --map must rename a column to a quantity (or an alias of one), or to a
 * name that --where, --run, --step or --group uses: a rename that nothing
 * reads ("lss=eval/loss" for "loss=eval/loss") would leave the fit reading
 * another column without a word.  The one other use, setting a quantity's
 * column aside (train_flops=flops when the FLOPs count something else), is
 * checked on the header: another column must still give the quantity. */
static int check_map_targets(reader_state *st, ls_error *err)
{
    const ls_sweep_options *o = st->options;
    for (size_t m = 0; m < o->nmaps; m++) {
        const char *name = st->maps[m].new_name;
        if (ls_sweep_quantity_from_name(name, strlen(name)) >= 0 || config_from_name(name) >= 0)
            continue;
        int used = (o->run_column && strcasecmp(o->run_column, name) == 0) ||
                   (o->step_column && strcasecmp(o->step_column, name) == 0) ||
                   (o->group_column && strcasecmp(o->group_column, name) == 0);
        for (size_t w = 0; w < o->nwheres && !used; w++)
            used = strcasecmp(st->wheres[w].column, name) == 0;
        if (used)
            continue;
        const char *old = st->maps[m].old_name;
        if (ls_sweep_quantity_from_name(old, strlen(old)) >= 0) {
            st->maps[m].sets_aside = 1;
            continue;
        }
        return map_target_error(st, m, "", err);
    }
    return 0;
}

static int read_header(reader_state *st, csv_reader *csv, const csv_field *fields, size_t nfields,
                       file_columns *fc, ls_error *err)
{
    const char *file = ls_csv_name(csv);
    long line = ls_csv_line(csv);
    const ls_sweep_options *o = st->options;
    fc->nfields = nfields;
    fc->names = calloc(nfields ? nfields : 1, sizeof *fc->names);
    fc->where_column = calloc(o->nwheres + 1, sizeof *fc->where_column);
    fc->where_quantity = calloc(o->nwheres + 1, sizeof *fc->where_quantity);
    if (!fc->names || !fc->where_column || !fc->where_quantity)
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    for (int q = 0; q < LS_SWEEP_NQUANTITIES; q++)
        fc->column_of[q] = -1;
    fc->group_column = -1;
    fc->run_column = fc->step_column = -1;

    int *map_used = calloc(o->nmaps + 1, sizeof *map_used);
    if (!map_used)
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    for (size_t i = 0; i < nfields; i++)
        if (!(fc->names[i] = dup_trimmed(fields[i].ptr, fields[i].len))) {
            free(map_used);
            return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        }
    int status = check_header_names(fc, fields, file, line, err);
    /* Each column's quantity, by its name or by a --map; a --map names the
     * column the user chose, so a column that only has the same quantity's
     * alias for a name ("params" beside --map n_act=params_no_embed)
     * yields to it. */
    int *quantity_of = calloc(nfields ? nfields : 1, sizeof *quantity_of);
    unsigned char *mapped = calloc(nfields ? nfields : 1, 1);
    const char **effective = calloc(nfields ? nfields : 1, sizeof *effective);
    if (!quantity_of || !mapped || !effective) {
        free(quantity_of);
        free(mapped);
        free(effective);
        free(map_used);
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    }
    int chosen_by_map[LS_SWEEP_NQUANTITIES] = {0};
    for (size_t i = 0; i < nfields; i++) {
        const char *original = fc->names[i];
        effective[i] = original;
        for (size_t m = 0; m < o->nmaps; m++) {
            csv_field f = {original, strlen(original)};
            if (ls_csv_field_equals(f, st->maps[m].old_name)) {
                effective[i] = st->maps[m].new_name;
                map_used[m] = 1;
                mapped[i] = 1;
            }
        }
        quantity_of[i] = ls_sweep_quantity_from_name(effective[i], strlen(effective[i]));
        if (quantity_of[i] >= 0 && mapped[i])
            chosen_by_map[quantity_of[i]] = 1;
    }
    for (size_t i = 0; i < nfields; i++) {
        int q = quantity_of[i];
        if (q >= 0 && chosen_by_map[q] && !mapped[i])
            continue;
        if (q >= 0 && status == 0) {
            if (fc->column_of[q] >= 0)
                status = ls_error_set(err, LS_ERR_DATA, "%s:%ld: column '%s' and column '%s' both give %s", file,
                                      line, fc->names[fc->column_of[q]], fc->names[i], QUANTITIES[q].canonical);
            fc->column_of[q] = (int)i;
        }
    }
    /* A column set aside must leave its quantity to another column. */
    for (size_t m = 0; m < o->nmaps && status == 0; m++) {
        if (!st->maps[m].sets_aside)
            continue;
        int q = ls_sweep_quantity_from_name(st->maps[m].old_name, strlen(st->maps[m].old_name));
        /* Unique tokens, n_total and n_loop may go alone, as a placeholder
         * column should: without them every run's data is unlimited,
         * n_total = n_act, and a run with R > 1 is refused for its missing
         * n_loop rather than read wrong. */
        if (fc->column_of[q] < 0 && q != LS_SWEEP_UNIQUE_TOKENS && q != LS_SWEEP_N_TOTAL && q != LS_SWEEP_N_LOOP &&
            !(q == LS_SWEEP_TOKENS && fc->column_of[LS_SWEEP_FLOPS] >= 0) &&
            !(q == LS_SWEEP_FLOPS && fc->column_of[LS_SWEEP_TOKENS] >= 0)) {
            char why[160];
            snprintf(why, sizeof why, "; it sets column '%s' aside, and %s has no other column that gives %s",
                     st->maps[m].old_name, file, QUANTITIES[q].canonical);
            status = map_target_error(st, m, why, err);
        }
    }
    /* The configuration columns, read when no column gives n_act. */
    int any_config = 0;
    size_t twice = nfields; /* a column that gives what another does */
    for (size_t c = 0; c < NCONFIG; c++)
        fc->config_of[c] = -1;
    for (size_t i = 0; i < nfields; i++) {
        int c = quantity_of[i] < 0 ? config_from_name(effective[i]) : -1;
        if (c < 0)
            continue;
        if (fc->config_of[c] >= 0 && twice == nfields)
            twice = i;
        else if (fc->config_of[c] < 0)
            fc->config_of[c] = (int)i;
        any_config = 1;
    }
    fc->counts_from_config = fc->column_of[LS_SWEEP_N_ACT] < 0 && (any_config || o->config_base);
    fc->config_beside_counts = fc->column_of[LS_SWEEP_N_ACT] >= 0 && any_config && twice == nfields;
    /* Experts from a column in a template that does not say which stages
     * have them: every stage does, prelude and coda too, which a template
     * of a dense model around an MoE block does not mean. */
    const ls_shape_spec *base = o->config_base;
    if (status == 0 && fc->counts_from_config && base && fc->column_of[LS_SWEEP_E] >= 0 &&
        (o->warnings || o->warn) &&
        ((base->head_layers > 0 && base->head_experts == LS_SHAPE_UNSET) ||
         (base->tail_layers > 0 && base->tail_experts == LS_SHAPE_UNSET))) {
        char note[512];
        snprintf(note, sizeof note, "%s: column '%s' gives E, and the template does not say which stages have "
                 "experts: the prelude and coda layers count E experts each too (give \"prelude_experts\": 1 and "
                 "\"coda_experts\": 1 in the template for dense stages around an MoE loop block)", file,
                 fc->names[fc->column_of[LS_SWEEP_E]]);
        status = reader_warning(o, fc->names[fc->column_of[LS_SWEEP_E]], note, err);
    }
    if (status == 0 && fc->counts_from_config && twice < nfields) {
        int c = config_from_name(effective[twice]);
        status = ls_error_set(err, LS_ERR_DATA, "%s:%ld: column '%s' and column '%s' both give %s", file, line,
                              fc->names[fc->config_of[c]], fc->names[twice], CONFIG_COLUMNS[c].name);
    }
    if (status == 0 && fc->counts_from_config)
        for (int q = LS_SWEEP_N_TOTAL; q <= LS_SWEEP_N_LOOP && status == 0; q++)
            if (fc->column_of[q] >= 0)
                status = ls_error_set(err, LS_ERR_DATA, "%s:%ld: column '%s' gives %s, but no column gives n_act: "
                                      "give the counts (n_act, n_total, n_loop) or the configuration they are "
                                      "counted from, not some of each", file, line, fc->names[fc->column_of[q]],
                                      QUANTITIES[q].canonical);
    /* A quantity with no column takes its default (R = 1, n_total =
     * n_act...) or stops the run: a column whose name is one slip from it
     * (n_totl, loop, num_experts) was most likely meant to give it. */
    for (int q = 0; q < LS_SWEEP_NQUANTITIES && status == 0; q++) {
        if (fc->column_of[q] >= 0 || (q == LS_SWEEP_TOKENS && fc->column_of[LS_SWEEP_FLOPS] >= 0) ||
            (q == LS_SWEEP_FLOPS && fc->column_of[LS_SWEEP_TOKENS] >= 0) ||
            (fc->counts_from_config && q <= LS_SWEEP_N_LOOP))
            continue;
        for (size_t i = 0; i < nfields && status == 0; i++) {
            if (quantity_of[i] >= 0 || config_from_name(effective[i]) >= 0 || !looks_like(effective[i], q))
                continue;
            if (mapped[i]) {
                size_t m = 0;
                while (m + 1 < o->nmaps && strcmp(st->maps[m].new_name, effective[i]) != 0)
                    m++;
                status = option_error(err, MAP_ORIGIN(o, m), "%s: --map renames column '%s' to '%s', which is not a "
                                      "quantity loopscale reads: did you mean %s?", file, fc->names[i], effective[i],
                                      QUANTITIES[q].canonical);
            }
            else if (o->warnings || o->warn) {
                /* Counted from configuration columns, a run without R, E or
                 * k takes the template's. */
                char dflt[96];
                const ls_shape_spec *b = fc->counts_from_config ? o->config_base : NULL;
                long v = !b                   ? LS_SHAPE_UNSET
                         : q == LS_SWEEP_R ? b->loops
                         : q == LS_SWEEP_E ? b->experts
                         : q == LS_SWEEP_K ? b->top_k
                                           : LS_SHAPE_UNSET;
                if (v != LS_SHAPE_UNSET)
                    snprintf(dflt, sizeof dflt, "every run has the template's %s = %ld", QUANTITIES[q].canonical, v);
                else
                    snprintf(dflt, sizeof dflt, "%s", QUANTITY_DEFAULTS[q]);
                char note[512];
                snprintf(note, sizeof note, "%s: no column gives %s, so %s; column '%s' is not read: if it is %s, "
                         "--map %s=%s", file, QUANTITIES[q].canonical, dflt, fc->names[i],
                         QUANTITIES[q].canonical, QUANTITIES[q].canonical, fc->names[i]);
                status = reader_warning(o, fc->names[i], note, err);
            }
        }
    }
    /* n_act counts non-embedding parameters; an alias such as 'params' may
     * count the embeddings too.  Beside a column whose name says it leaves
     * them out, say which was read and how to read the other. */
    int n_col = fc->column_of[LS_SWEEP_N_ACT];
    if (status == 0 && n_col >= 0 && !mapped[n_col] && strcasecmp(fc->names[n_col], "n_act") != 0 &&
        (o->warnings || o->warn))
        for (size_t i = 0; i < nfields && status == 0; i++) {
            if ((int)i == n_col || quantity_of[i] >= 0 || !names_no_embedding(fc->names[i]))
                continue;
            char note[512];
            snprintf(note, sizeof note, "%s: n_act (active non-embedding parameters) is read from column '%s', an "
                     "alias; column '%s' " LS_SWEEP_NON_EMBEDDING_NOTE ": --map n_act=%s reads it instead", file,
                     fc->names[n_col], fc->names[i], fc->names[i]);
            status = reader_warning(o, fc->names[i], note, err);
            break;
        }
    free(quantity_of);
    free(mapped);
    free(effective);
    for (size_t m = 0; m < o->nmaps && status == 0; m++)
        if (!map_used[m])
            status = option_error(err, MAP_ORIGIN(o, m), "rename '%s': %s has no column '%s'", st->maps[m].text,
                                  file, st->maps[m].old_name);
    free(map_used);
    if (status != 0)
        return status;

    for (int q = 0; q < LS_SWEEP_NQUANTITIES; q++)
        if (fc->column_of[q] >= 0 && !st->s->quantity_column[q] &&
            !(st->s->quantity_column[q] = strdup(fc->names[fc->column_of[q]])))
            return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    if (fc->column_of[LS_SWEEP_N_ACT] < 0 && !fc->counts_from_config)
        return ls_error_set(err, LS_ERR_DATA, "%s:%ld: no column 'n_act' (or 'N', 'params', or one renamed to it), "
                            "and no configuration to count it from (d_model, loop_layers, d_ff, ...)", file, line);
    if (fc->counts_from_config && !st->s->counted_from) {
        /* "d_model ('config/n_embd'), loop_layers ('config/n_layer')" */
        size_t size = 32;
        for (size_t c = 0; c < NCONFIG; c++)
            if (fc->config_of[c] >= 0)
                size += strlen(CONFIG_COLUMNS[c].name) + strlen(fc->names[fc->config_of[c]]) + 8;
        char *text = malloc(size);
        if (!text)
            return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        size_t used = 0;
        text[0] = '\0';
        for (size_t c = 0; c < NCONFIG; c++) {
            if (fc->config_of[c] < 0)
                continue;
            const char *col = fc->names[fc->config_of[c]];
            used += (size_t)snprintf(text + used, size - used, "%s%s", used ? ", " : "", CONFIG_COLUMNS[c].name);
            if (strcasecmp(col, CONFIG_COLUMNS[c].name) != 0)
                used += (size_t)snprintf(text + used, size - used, " ('%s')", col);
        }
        st->s->counted_from = text; /* "": the template's model alone */
    }
    if (fc->column_of[LS_SWEEP_TOKENS] < 0 && fc->column_of[LS_SWEEP_FLOPS] < 0)
        return ls_error_set(err, LS_ERR_DATA,
                            "%s:%ld: no column 'tokens' (or 'D'), and no 'flops' to derive it from", file, line);
    if (o->require_loss && fc->column_of[LS_SWEEP_LOSS] < 0)
        return ls_error_set(err, LS_ERR_DATA, "%s:%ld: no column 'loss'", file, line);

    for (size_t w = 0; w < o->nwheres; w++) {
        const where_filter *wf = &st->wheres[w];
        const char *name = wf->column;
        int q = where_target_from_name(name);
        /* A derived name (n_unroll, tokens_per_param, epochs) never shadows
         * a column of the file: a file's own epochs column is what
         * --where 'epochs=1' means, not D / U.  A --map that renames the
         * column to another name leaves the derived one to the filter. */
        for (size_t i = 0; q >= LS_SWEEP_NQUANTITIES && i < nfields; i++)
            if (strcasecmp(effective_name(st, fc, i), name) == 0)
                q = -1;
        if (check_where_suffix(wf, q, err) != 0)
            return blame_origin(err, WHERE_ORIGIN(o, w));
        fc->where_quantity[w] = q;
        fc->where_column[w] = q >= 0 && q < LS_SWEEP_NQUANTITIES ? fc->column_of[q] : -1;
        if (fc->where_column[w] >= 0)
            continue; /* a quantity's cell, tested before the row is read */
        /* A quantity the file lacks is a default (R, E, k: 1; n_total:
         * n_act) or derived (tokens, flops), except the loss and n_loop,
         * which have no value at all: a filter on them would drop every row
         * and blame the filter for it. */
        if (q >= 0 && (q == LS_SWEEP_LOSS || (q == LS_SWEEP_N_LOOP && !fc->counts_from_config)))
            return option_error(err, WHERE_ORIGIN(o, w), "filter '%s': %s has no column '%s'", wf->text, file, name);
        if (q >= 0 && wf->is_text)
            return option_error(err, WHERE_ORIGIN(o, w), "filter '%s': %s has no column '%s' (it is %s, a number) to "
                                "compare as text", wf->text, file, name, q >= LS_SWEEP_NQUANTITIES ? "derived" :
                                "a default or derived");
        if (q >= 0)
            continue;
        for (size_t i = 0; i < nfields; i++)
            if (column_named(st, fc, i, name))
                fc->where_column[w] = (int)i;
        if (fc->where_column[w] < 0)
            return option_error(err, WHERE_ORIGIN(o, w), "filter '%s': %s has no column '%s'", wf->text, file, name);
    }
    /* Checkpoints: the run identity and the step, named or found by alias. */
    static const char *const run_aliases[] = {"run", "run_name", "run_id", "name", "id", NULL};
    static const char *const step_aliases[] = {"step", "_step", "global_step", "trainer/global_step", "iter",
                                               "iteration", NULL};
    const char *const *lists[2] = {run_aliases, step_aliases};
    const char *given[2] = {o->run_column, o->step_column};
    int *found[2] = {&fc->run_column, &fc->step_column};
    for (int k = 0; k < 2; k++) {
        const char *const one[2] = {given[k], NULL};
        for (const char *const *name = given[k] ? one : lists[k]; *name && *found[k] < 0; name++)
            for (size_t i = 0; i < nfields; i++)
                if (given[k] ? column_named(st, fc, i, *name) : strcasecmp(fc->names[i], *name) == 0) {
                    *found[k] = (int)i;
                    break;
                }
        if (given[k] && *found[k] < 0)
            return option_error(err, k ? o->step_origin : o->run_origin, "%s column '%s': %s has no such column", k ? "step" : "run",
                                given[k], file);
    }
    if (o->last && fc->run_column < 0)
        return ls_error_set(err, LS_ERR_USAGE, "--last: %s has no run column (run, run_name, run_id, name, id; "
                            "or name one with --run COL)", file);
    if (o->last && fc->step_column < 0)
        return ls_error_set(err, LS_ERR_USAGE, "--last: %s has no step column (step, _step, global_step, "
                            "trainer/global_step, iter, iteration; or name one with --step COL)", file);
    if (fc->run_column >= 0 && !st->s->run_column && !(st->s->run_column = strdup(fc->names[fc->run_column])))
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    if (o->group_column) {
        int q = ls_sweep_quantity_from_name(o->group_column, strlen(o->group_column));
        for (size_t i = 0; i < nfields; i++)
            if (column_named(st, fc, i, o->group_column) || (q >= 0 && fc->column_of[q] == (int)i))
                fc->group_column = (int)i;
        if (fc->group_column < 0)
            return ls_error_set(err, LS_ERR_USAGE, "group column '%s': %s has no such column", o->group_column, file);
    }
    if (o->nby && !(fc->by_column = malloc(o->nby * sizeof *fc->by_column)))
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    for (size_t b = 0; b < o->nby; b++) {
        const char *name = o->by_columns[b];
        int q = ls_sweep_quantity_from_name(name, strlen(name));
        fc->by_column[b] = -1;
        for (size_t i = 0; i < nfields && fc->by_column[b] < 0; i++)
            if (strcasecmp(fc->names[i], name) == 0 || (q >= 0 && fc->column_of[q] == (int)i))
                fc->by_column[b] = (int)i;
        if (fc->by_column[b] < 0)
            return ls_error_set(err, LS_ERR_USAGE, "--by '%s': %s has no such column", name, file);
    }
    return o->factors && !st->stream ? header_factors(st, fc, nfields, err) : 0;
}

static void file_columns_free(file_columns *fc)
{
    for (size_t i = 0; fc->names && i < fc->nfields; i++)
        free(fc->names[i]);
    free(fc->names);
    free(fc->where_column);
    free(fc->where_quantity);
    free(fc->by_column);
    free(fc->factor_field);
    memset(fc, 0, sizeof *fc);
}

/* Messages about one cell: "FILE:LINE: column 'NAME': 'TEXT' REASON". */
typedef struct row_context {
    const char *file;
    long line;
    const csv_field *fields;
    const file_columns *fc;
    ls_error *err;
    const ls_law_flops *flops; /* how a flops column was counted (NULL: 6nd) */
    const char *flops_hint; /* sweep_options.flops_hint */
} row_context;

static int cell_error(const row_context *rc, int column, const char *fmt, ...) LS_PRINTF(3, 4);

static int cell_error(const row_context *rc, int column, const char *fmt, ...)
{
    char reason[512], text[80];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    return ls_error_set(rc->err, LS_ERR_DATA, "%s:%ld: column '%s': '%s' %s", rc->file, rc->line,
                        rc->fc->names[column], cell_text(rc->fields[column], text), reason);
}

/* A quantity's cell as a number (parse_value: counts as logs write them,
 * 125M, 2.8B, where the quantity takes them), the loss in nats per token. */
static numtext_status parse_cell(double loss_scale, ls_sweep_quantity q, csv_field f, double *value, int *suffix)
{
    numtext_status st = parse_value(q, f.ptr, f.len, value, suffix);
    if (st == NUMTEXT_OK && q == LS_SWEEP_LOSS)
        *value *= loss_scale;
    return st;
}

/* Parse quantity q of the row into *out; *present says whether the cell
 * exists (the column is there), and an empty n_loop cell is reported as
 * absent because it is legal at R = 1. */
static int parse_quantity(const row_context *rc, double loss_scale, ls_sweep_quantity q, double *out, int *present)
{
    int col = rc->fc->column_of[q];
    *present = 0;
    if (col < 0)
        return 0;
    csv_field f = rc->fields[col];
    double value = 0;
    int suffix;
    numtext_status st = parse_cell(loss_scale, q, f, &value, &suffix);
    /* An empty N_loop is a run with no loop block; an empty U (a JSON null,
     * a missing key) is a run whose data was never repeated: unlimited. */
    if (st == NUMTEXT_EMPTY && (q == LS_SWEEP_N_LOOP || q == LS_SWEEP_UNIQUE_TOKENS))
        return 0;
    if (st != NUMTEXT_OK) {
        char reason[160];
        value_reason(q, st, suffix, reason, sizeof reason);
        return cell_error(rc, col, "%s", reason);
    }
    *out = value;
    *present = 1;
    return 0;
}

ls_law_point ls_sweep_row_point(const ls_sweep_row *row)
{
    ls_law_point x = {row->n_act, row->n_total, isnan(row->n_loop) ? 0.0 : row->n_loop, row->R, row->E, row->tokens,
                   isnan(row->unique_tokens) ? 0.0 : row->unique_tokens};
    return x;
}

static double row_flops(const ls_sweep_row *row)
{
    ls_law_point x = ls_sweep_row_point(row);
    return ls_law_training_flops(&x);
}

double ls_sweep_row_value(const ls_sweep_row *row, ls_sweep_quantity q)
{
    switch (q) {
    case LS_SWEEP_N_ACT: return row->n_act;
    case LS_SWEEP_N_TOTAL: return row->n_total;
    case LS_SWEEP_N_LOOP: return row->n_loop;
    case LS_SWEEP_R: return row->R;
    case LS_SWEEP_E: return row->E;
    case LS_SWEEP_K: return row->k;
    case LS_SWEEP_TOKENS: return row->tokens;
    case LS_SWEEP_LOSS: return row->loss;
    case LS_SWEEP_UNIQUE_TOKENS: return row->unique_tokens;
    default: return row_flops(row);
    }
}

int ls_sweep_row_check(const ls_sweep_row *row, ls_sweep_quantity *which, char *reason, size_t size)
{
#define PROBLEM(quantity, ...)                                                                                   \
    do {                                                                                                         \
        *which = (quantity);                                                                                     \
        snprintf(reason, size, __VA_ARGS__);                                                                     \
        return 1;                                                                                                \
    } while (0)
    char num[NUMTEXT_DOUBLE_MAX], why[128];
    /* A value computed from others (n_total from E through a template) may
     * overflow where every input was finite. */
    static const ls_sweep_quantity all[] = {LS_SWEEP_N_ACT, LS_SWEEP_N_TOTAL, LS_SWEEP_N_LOOP, LS_SWEEP_R,
                                         LS_SWEEP_E,     LS_SWEEP_K,       LS_SWEEP_TOKENS, LS_SWEEP_LOSS};
    const double all_values[] = {row->n_act, row->n_total, row->n_loop, row->R, row->E, row->k, row->tokens, row->loss};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        if (isinf(all_values[i]))
            PROBLEM(all[i], "is outside the range of double precision");
    /* Each value in its range (ls_sweep_quantity_limits), as an option giving
     * it would be; NaN is "not given" where that is allowed. */
    static const ls_sweep_quantity given[] = {LS_SWEEP_N_ACT, LS_SWEEP_N_TOTAL, LS_SWEEP_R, LS_SWEEP_E, LS_SWEEP_K};
    const double given_values[] = {row->n_act, row->n_total, row->R, row->E, row->k};
    for (size_t i = 0; i < sizeof given / sizeof *given; i++)
        if (ls_sweep_quantity_check(given[i], given_values[i], why, sizeof why))
            PROBLEM(given[i], "%s", why);
    if (row->n_total < row->n_act)
        PROBLEM(LS_SWEEP_N_TOTAL, "is less than n_act (%s)", ls_numtext_format_double(num, row->n_act));
    if (row->E < row->k)
        PROBLEM(LS_SWEEP_E, "is less than k (%s)", ls_numtext_format_double(num, row->k));
    if (!isnan(row->n_loop)) {
        /* 0 is a run with no loop block, which only R = 1 can have. */
        if (row->n_loop == 0 && row->R > 1)
            PROBLEM(LS_SWEEP_N_LOOP, "must be positive");
        if (row->n_loop != 0 && ls_sweep_quantity_check(LS_SWEEP_N_LOOP, row->n_loop, why, sizeof why))
            PROBLEM(LS_SWEEP_N_LOOP, "%s", why);
        if (row->n_loop > row->n_act)
            PROBLEM(LS_SWEEP_N_LOOP, "is greater than n_act (%s)", ls_numtext_format_double(num, row->n_act));
    } else if (row->R > 1) {
        PROBLEM(LS_SWEEP_N_LOOP, "is needed when R > 1");
    }
    if (!isnan(row->tokens) && ls_sweep_quantity_check(LS_SWEEP_TOKENS, row->tokens, why, sizeof why))
        PROBLEM(LS_SWEEP_TOKENS, "%s", why);
    if (!isnan(row->loss) && ls_sweep_quantity_check(LS_SWEEP_LOSS, row->loss, why, sizeof why))
        PROBLEM(LS_SWEEP_LOSS, "%s", why);
    /* U: NaN or 0 is "not given" (unlimited); the reader refuses a 0 cell. */
    if (!isnan(row->unique_tokens) && row->unique_tokens != 0 &&
        ls_sweep_quantity_check(LS_SWEEP_UNIQUE_TOKENS, row->unique_tokens, why, sizeof why))
        PROBLEM(LS_SWEEP_UNIQUE_TOKENS, "%s", why);
    /* What the bill sees must be a number: a configuration whose compute
     * overflows double precision is refused here, for sweep rows and
     * options alike, rather than predicted by one command and refused by
     * another. */
    ls_law_point x = ls_sweep_row_point(row);
    if (!isfinite(ls_law_n_unroll(&x)))
        PROBLEM(row->R > 1 ? LS_SWEEP_R : LS_SWEEP_N_ACT,
                "makes N_unroll = n_act + (R - 1) n_loop overflow double precision");
    if (!isnan(row->tokens) && !isfinite(ls_law_training_flops(&x)))
        PROBLEM(LS_SWEEP_TOKENS, "makes the training FLOPs 6 N_unroll D overflow double precision");
    return 0;
#undef PROBLEM
}

static int check_row(const row_context *rc, ls_sweep_row *row, double flops, int has_flops)
{
    const int *col = rc->fc->column_of;
    ls_sweep_quantity which;
    char reason[128];
    if (has_flops && ls_sweep_quantity_check(LS_SWEEP_FLOPS, flops, reason, sizeof reason))
        return cell_error(rc, col[LS_SWEEP_FLOPS], "%s", reason);
    if (ls_sweep_row_check(row, &which, reason, sizeof reason)) {
        if (which == LS_SWEEP_N_LOOP && isnan(row->n_loop)) {
            if (col[LS_SWEEP_N_LOOP] < 0)
                return cell_error(rc, col[LS_SWEEP_R], "needs an n_loop column (R > 1)");
            return cell_error(rc, col[LS_SWEEP_N_LOOP], "is empty, but this row has R = %g", row->R);
        }
        if (col[which] < 0 && which == LS_SWEEP_E) /* E defaulted to 1 below k */
            return cell_error(rc, col[LS_SWEEP_K], "is greater than E (%g)", row->E);
        if (col[which] < 0) { /* a value the template gave (options.shape) */
            char num[NUMTEXT_DOUBLE_MAX];
            return ls_error_set(rc->err, LS_ERR_DATA, "%s:%ld: %s = %s from the template %s", rc->file, rc->line,
                                ls_sweep_quantity_name(which),
                                ls_numtext_format_double(num, ls_sweep_row_value(row, which)), reason);
        }
        return cell_error(rc, col[which], "%s", reason);
    }
    /* Training logs often record compute, not tokens: F = 6 N_unroll D, or
     * under another convention 6 D times the forward multiply-adds of a
     * token (law.h). */
    const char *formula = ls_law_flops_formula(rc->flops ? rc->flops->kind : LS_LAW_FLOPS_6ND);
    if (col[LS_SWEEP_TOKENS] < 0) {
        ls_law_point x = ls_sweep_row_point(row);
        row->tokens = ls_law_tokens_for_flops_as(rc->flops, &x, flops);
        if (!(row->tokens >= DBL_MIN && isfinite(row->tokens)))
            return cell_error(rc, col[LS_SWEEP_FLOPS], "gives tokens D = %s = %g, outside double precision", formula,
                              row->tokens);
        if (ls_sweep_quantity_check(LS_SWEEP_TOKENS, row->tokens, reason, sizeof reason))
            return cell_error(rc, col[LS_SWEEP_FLOPS], "gives tokens D = %s = %g, which %s", formula, row->tokens,
                              reason);
    } else if (has_flops) {
        /* Both columns: one of them must not silently win.  The tolerance
         * accepts values printed to 6 significant digits (a relative error
         * of at most 5e-6 each) and nothing looser. */
        ls_law_point x = ls_sweep_row_point(row);
        double implied = ls_law_tokens_for_flops_as(rc->flops, &x, flops);
        double scale = fmax(fabs(implied), fabs(row->tokens));
        if (!(fabs(implied - row->tokens) <= LS_SWEEP_FLOPS_TOKENS_RTOL * scale)) {
            char text[80];
            return cell_error(rc, col[LS_SWEEP_FLOPS],
                              "gives tokens D = %s = %.6g, but column '%s' is '%s' (more than %g apart, "
                              "relative)%s%s",
                              formula, implied, rc->fc->names[col[LS_SWEEP_TOKENS]],
                              cell_text(rc->fields[col[LS_SWEEP_TOKENS]], text), LS_SWEEP_FLOPS_TOKENS_RTOL,
                              rc->flops_hint ? "; " : "", rc->flops_hint ? rc->flops_hint : "");
        }
    }
    return 0;
}

/* A run's counts from its configuration: the columns over
 * options.config_base, with the run's E, k and R (or the base's, where the
 * sweep has no such column), counted as loopscale shape counts them. */
static int count_configuration(const ls_sweep_options *o, const row_context *rc, ls_sweep_row *row,
                               const int *present)
{
    ls_shape_spec s;
    if (o->config_base)
        s = *o->config_base;
    else
        ls_shape_spec_unset(&s);
    for (size_t c = 0; c < NCONFIG; c++) {
        int col = rc->fc->config_of[c];
        if (col < 0)
            continue;
        const config_column *cc = &CONFIG_COLUMNS[c];
        csv_field f = rc->fields[col];
        long *field = (long *)((char *)&s + cc->offset);
        if (cc->kind == CONFIG_INT) {
            double v;
            numtext_status ns = ls_numtext_parse_double(f.ptr, f.len, &v);
            if (ns != NUMTEXT_OK)
                return cell_error(rc, col, "%s (%s)", ls_numtext_reason(ns), cc->name);
            if (!(v == floor(v) && v >= 0 && v <= 1e12))
                return cell_error(rc, col, "is not a whole number from 0 to 1e12 (%s)", cc->name);
            *field = (long)v;
            continue;
        }
        char word[32];
        if (copy_trimmed(word, sizeof word, f.ptr, f.len))
            word[0] = '\0';
        for (char *p = word; *p; p++)
            *p = (char)tolower((unsigned char)*p);
        int yes = strcmp(word, "true") == 0 || strcmp(word, "1") == 0;
        int no = strcmp(word, "false") == 0 || strcmp(word, "0") == 0;
        if (cc->kind == CONFIG_CHOICE) {
            long v = ls_shape_choice_parse(cc->name, word);
            if (v < 0)
                return cell_error(rc, col, "is not a value of %s (docs/formats.md#templates)", cc->name);
            *field = v;
        } else if (!yes && !no)
            return cell_error(rc, col, "is not true or false (%s)", cc->name);
        else if (cc->kind == CONFIG_TIED)
            *field = yes ? LS_SHAPE_EMBEDDINGS_TIED : LS_SHAPE_EMBEDDINGS_UNTIED;
        else
            *field = yes;
    }
    /* A width a column gives wins over the template's other one (d_ff over
     * d_expert and the other way round); a template that gives both (as
     * `shape --format json` writes them) is read as giving d_ff, so that a
     * run's own top_k sets its experts' width. */
    const ls_shape_spec *b = o->config_base;
    int column_dff = rc->fc->config_of[config_from_name("d_ff")] >= 0;
    int column_dexpert = rc->fc->config_of[config_from_name("d_expert")] >= 0;
    if (column_dff && !column_dexpert)
        s.d_expert = LS_SHAPE_UNSET;
    else if (column_dexpert && !column_dff)
        s.d_ff = LS_SHAPE_UNSET;
    else if (!column_dff && s.d_ff != LS_SHAPE_UNSET && s.d_expert != LS_SHAPE_UNSET)
        s.d_expert = LS_SHAPE_UNSET;
    /* A head size, when the columns give the heads but not it, is
     * d_model / heads, not the template's. */
    int gives_heads = rc->fc->config_of[config_from_name("heads")] >= 0;
    if (gives_heads && rc->fc->config_of[config_from_name("head_dim")] < 0)
        s.head_dim = LS_SHAPE_UNSET;
    /* A template describes a model scaled by its width (as solve scales it):
     * the widths the columns leave out keep their ratio to d_model. */
    if (b && b->d_model > 0 && s.d_model != b->d_model) {
        long *widths[] = {&s.d_ff, &s.d_expert, &s.head_dim, &s.stage_head_dim[0], &s.stage_head_dim[1],
                          &s.stage_head_dim[2]};
        static const char *const names[] = {"d_ff", "d_expert", "head_dim", "prelude_head_dim", "loop_head_dim",
                                            "coda_head_dim"};
        for (size_t i = 0; i < sizeof widths / sizeof *widths; i++) {
            if (*widths[i] == LS_SHAPE_UNSET || (i < 3 && rc->fc->config_of[config_from_name(names[i])] >= 0))
                continue; /* none, or a column's */
            double scaled = (double)*widths[i] * (double)s.d_model / (double)b->d_model;
            if (scaled != floor(scaled))
                return ls_error_set(rc->err, LS_ERR_DATA, "%s:%ld: the template's %s = %ld scaled to d_model = %ld "
                                    "is %g, not a whole number: give %s as a column", rc->file, rc->line, names[i],
                                    *widths[i], s.d_model, scaled, names[i]);
            *widths[i] = (long)scaled;
        }
    }
    /* Heads the columns give keep the template's grouping of key/value
     * heads (all of them, for multi-head attention). */
    if (b && gives_heads && rc->fc->config_of[config_from_name("kv_heads")] < 0 && b->heads > 0 &&
        b->kv_heads > 0 && s.heads > 0) {
        if ((s.heads * b->kv_heads) % b->heads != 0)
            return ls_error_set(rc->err, LS_ERR_DATA, "%s:%ld: the template's %ld key/value heads of %ld scaled to "
                                "%ld heads is not a whole number: give kv_heads as a column", rc->file, rc->line,
                                b->kv_heads, b->heads, s.heads);
        s.kv_heads = s.heads * b->kv_heads / b->heads;
    }
    /* The run's experts, experts per token and loops. */
    long *runs[3] = {&s.experts, &s.top_k, &s.loops};
    double *values[3] = {&row->E, &row->k, &row->R};
    static const ls_sweep_quantity qs[3] = {LS_SWEEP_E, LS_SWEEP_K, LS_SWEEP_R};
    for (int i = 0; i < 3; i++) {
        if (present[qs[i]] && *values[i] == floor(*values[i]) && *values[i] >= 1 && *values[i] <= 1e12)
            *runs[i] = (long)*values[i];
        else if (!present[qs[i]] && *runs[i] != LS_SHAPE_UNSET)
            *values[i] = (double)*runs[i];
    }
    if (s.vocab == LS_SHAPE_UNSET)
        s.vocab = 1; /* the counts are non-embedding */
    ls_shape_counts counts;
    ls_error why;
    if (ls_shape_resolve(&s, &why) != 0 || ls_shape_check_shared(&s, &why) != 0 ||
        ls_shape_count_params(&s, &counts, &why) != 0)
        return ls_error_set(rc->err, LS_ERR_DATA, "%s:%ld: the run's configuration: %s", rc->file, rc->line,
                            why.message);
    row->n_act = (double)counts.non_embedding.once;
    row->n_total = (double)counts.non_embedding.stored;
    row->n_loop = (double)counts.n_loop;
    return 0;
}

/* A row that gives its counts and its configuration: the counts are read;
 * the configuration, where it can be counted (with options.config_base),
 * is checked against them, and a row where they differ by more than
 * LS_ARCH_TOLERANCE is remembered for the warning ls_sweep_read gives.
 * 0, or LS_ERR_INTERNAL. */
static int compare_configuration(reader_state *st, const row_context *rc, const ls_sweep_row *row, const int *present)
{
    ls_sweep_row counted = *row;
    ls_error ignored;
    row_context quiet = *rc;
    quiet.err = &ignored;
    if (count_configuration(st->options, &quiet, &counted, present) != 0)
        return 0; /* not a configuration that can be counted: only the counts are read */
    static const ls_sweep_quantity qs[3] = {LS_SWEEP_N_ACT, LS_SWEEP_N_TOTAL, LS_SWEEP_N_LOOP};
    const double given[3] = {row->n_act, row->n_total, row->n_loop};
    const double from[3] = {counted.n_act, counted.n_total, counted.n_loop};
    for (int i = 0; i < 3; i++) {
        if (!present[qs[i]] || !(fabs(from[i] - given[i]) > LS_ARCH_TOLERANCE * given[i]))
            continue;
        if (st->config_disagree++ == 0) {
            char columns[256] = "";
            for (size_t c = 0, used = 0; c < NCONFIG && used < sizeof columns; c++)
                if (rc->fc->config_of[c] >= 0)
                    used += (size_t)snprintf(columns + used, sizeof columns - used, "%s'%s'", used ? ", " : "",
                                             rc->fc->names[rc->fc->config_of[c]]);
            snprintf(st->config_subject, sizeof st->config_subject, "%s", rc->fc->names[rc->fc->column_of[qs[i]]]);
            snprintf(st->config_first, sizeof st->config_first, "%s:%ld: column '%s' gives %s = %.10g, but the "
                     "configuration columns (%s) count %.10g, %.3g%% apart", rc->file, rc->line,
                     rc->fc->names[rc->fc->column_of[qs[i]]], QUANTITIES[qs[i]].canonical, given[i], columns, from[i],
                     100 * fabs(from[i] - given[i]) / given[i]);
        }
        break;
    }
    return 0;
}

/* The filters on cells, before anything in the row is read as a number, so
 * that a row they drop (a crashed run's empty loss, a failed run's text) is
 * never checked.  A numeric condition is false on an empty, NaN or infinite
 * cell (as a comparison with NaN is); a quantity's cell that is not a number
 * at all is left to the row's checks, which name it. */
/* Whether field c is read as one of the quantities (by name or --map). */
static int is_quantity_column(const file_columns *fc, int c)
{
    for (int q = 0; q < LS_SWEEP_NQUANTITIES; q++)
        if (fc->column_of[q] == c)
            return 1;
    return 0;
}

static int row_passes_cell_filters(reader_state *st, const row_context *rc, int on_quantities, int *keep)
{
    *keep = 1;
    for (size_t w = 0; w < st->options->nwheres && *keep; w++) {
        int c = rc->fc->where_column[w];
        if (c < 0)
            continue;
        where_filter *wf = &st->wheres[w];
        if (on_quantities != (!wf->is_text && is_quantity_column(rc->fc, c)))
            continue;
        csv_field f = rc->fields[c];
        if (wf->is_text) {
            int holds = where_holds_text(wf, f.ptr, f.len, &st->cell_buf, &st->cell_buf_cap);
            if (holds < 0 || (holds == 0 && note_case_miss(wf, f.ptr, f.len) != 0))
                return ls_error_set(rc->err, LS_ERR_INTERNAL, "out of memory");
            *keep = holds;
            continue;
        }
        int q = rc->fc->where_quantity[w], suffix;
        double x = 0;
        numtext_status ns = q >= 0 ? parse_cell(st->loss_scale, (ls_sweep_quantity)q, f, &x, &suffix)
                                   : ls_numtext_parse_count(f.ptr, f.len, &x);
        if (ns == NUMTEXT_EMPTY || ns == NUMTEXT_NOT_FINITE)
            *keep = 0;
        else if (ns == NUMTEXT_OK)
            *keep = where_holds(wf, x);
        else if (q < 0)
            return cell_error(rc, c, "%s (used by filter '%s')", ls_numtext_reason(ns), wf->text);
    }
    return 0;
}

/* What a filter compares: a quantity, or one derived from the row's:
 * n_unroll, tokens per parameter D / N_act, and epochs D / U (1 for a run
 * whose data was never repeated: U unlimited). */
static double where_value(const ls_sweep_row *row, int q)
{
    switch (q) {
    case WHERE_N_UNROLL: {
        ls_law_point p = ls_sweep_row_point(row);
        return ls_law_n_unroll(&p);
    }
    case WHERE_TOKENS_PER_PARAM: return row->tokens / row->n_act;
    case WHERE_EPOCHS: return row->unique_tokens > 0 ? row->tokens / row->unique_tokens : 1.0;
    default: return ls_sweep_row_value(row, (ls_sweep_quantity)q);
    }
}

/* The filters on what the file lacks: defaults and derived quantities. */
static int row_passes_row_filters(reader_state *st, const row_context *rc, const ls_sweep_row *row)
{
    for (size_t w = 0; w < st->options->nwheres; w++) {
        if (rc->fc->where_column[w] >= 0)
            continue;
        if (!where_holds(&st->wheres[w], where_value(row, rc->fc->where_quantity[w])))
            return 0;
    }
    return 1;
}

/* With options.last and a run and a step column: note a row the cell
 * filters kept, before its quantities are read (it may yet be dropped). */
static int remember_candidate(reader_state *st, const row_context *rc, int file_index)
{
    if (!st->options->last || st->stream || rc->fc->run_column < 0 || rc->fc->step_column < 0)
        return 0;
    csv_field f = rc->fields[rc->fc->run_column], sf = rc->fields[rc->fc->step_column];
    double step;
    if (ls_numtext_parse_count(sf.ptr, sf.len, &step) != NUMTEXT_OK)
        step = NAN;
    if (ls_grow((void **)&st->cands, &st->cands_cap, st->ncands + 1, sizeof *st->cands) != 0 ||
        ls_grow((void **)&st->cand_keys, &st->cand_keys_cap, st->cand_keys_len + f.len + 1, 1) != 0)
        return ls_error_set(rc->err, LS_ERR_INTERNAL, "out of memory");
    st->cands[st->ncands++] = (checkpoint_candidate){st->cand_keys_len, step, rc->line, file_index, SIZE_MAX};
    memcpy(st->cand_keys + st->cand_keys_len, f.ptr, f.len);
    st->cand_keys_len += f.len;
    st->cand_keys[st->cand_keys_len++] = '\0';
    return 0;
}

static int keep_row(reader_state *st, const row_context *rc, size_t nfields, const ls_sweep_row *row)
{
    ls_sweep *s = st->s;
    if (st->stream) {
        if (ls_grow((void **)&st->stream_cells, &st->stream_cells_cap, nfields ? nfields : 1,
                    sizeof *st->stream_cells) != 0)
            return ls_error_set(rc->err, LS_ERR_INTERNAL, "out of memory");
        for (size_t i = 0; i < nfields; i++)
            st->stream_cells[i] = (ls_sweep_text_cell){rc->fields[i].ptr, rc->fields[i].len};
        int status = st->stream->on_row(st->stream->ctx, row, st->stream_cells, nfields, rc->err);
        if (status == 0)
            s->n++;
        return status;
    }
    if (st->options->max_rows && s->n >= st->options->max_rows)
        return ls_error_set(rc->err, LS_ERR_DATA, "%s:%ld: more than %zu rows, the limit for a sweep held in memory",
                            rc->file, rc->line, st->options->max_rows);
    if (ls_grow((void **)&s->rows, &st->rows_cap, s->n + 1, sizeof *s->rows) != 0)
        return ls_error_set(rc->err, LS_ERR_INTERNAL, "out of memory");
    ls_sweep_row *dst = &s->rows[s->n];
    *dst = *row;
    if (st->options->keep_text) {
        size_t need = s->text_len;
        for (size_t i = 0; i < nfields; i++)
            need += rc->fields[i].len + 1;
        if (ls_grow((void **)&s->text, &st->text_cap, need, 1) != 0)
            return ls_error_set(rc->err, LS_ERR_INTERNAL, "out of memory");
        dst->text = s->text_len;
        for (size_t i = 0; i < nfields; i++) {
            memcpy(s->text + s->text_len, rc->fields[i].ptr, rc->fields[i].len);
            s->text_len += rc->fields[i].len;
            s->text[s->text_len++] = '\0';
        }
    }
    if (rc->fc->run_column >= 0) {
        csv_field f = rc->fields[rc->fc->run_column];
        double step = (double)s->n; /* without a step column, the order of the rows */
        if (rc->fc->step_column >= 0) {
            csv_field sf = rc->fields[rc->fc->step_column];
            numtext_status ns = ls_numtext_parse_count(sf.ptr, sf.len, &step);
            if (ns != NUMTEXT_OK)
                return cell_error(rc, rc->fc->step_column, "%s (the step of run '%.*s')", ls_numtext_reason(ns),
                                  (int)(f.len > 60 ? 60 : f.len), f.ptr);
        }
        if (ls_grow((void **)&st->run_key_of_row, &st->run_key_of_row_cap, s->n + 1, sizeof *st->run_key_of_row) != 0 ||
            ls_grow((void **)&st->steps, &st->steps_cap, s->n + 1, sizeof *st->steps) != 0 ||
            ls_grow((void **)&st->run_keys, &st->run_keys_cap, st->run_keys_len + f.len + 1, 1) != 0)
            return ls_error_set(rc->err, LS_ERR_INTERNAL, "out of memory");
        st->run_key_of_row[s->n] = st->run_keys_len;
        st->steps[s->n] = step;
        if (st->ncands)
            st->cands[st->ncands - 1].row = s->n;
        memcpy(st->run_keys + st->run_keys_len, f.ptr, f.len);
        st->run_keys_len += f.len;
        st->run_keys[st->run_keys_len++] = '\0';
    }
    if (st->options->nby) {
        /* The cells that say which group the run belongs to; an empty one
         * would put it in none. */
        size_t need = s->by_text_len;
        for (size_t b = 0; b < st->options->nby; b++) {
            int col = rc->fc->by_column[b];
            size_t len = rc->fields[col].len;
            const char *p = rc->fields[col].ptr;
            while (len && isspace((unsigned char)*p))
                p++, len--;
            if (len == 0)
                return cell_error(rc, col, "is empty: each run needs a value of the --by column (drop such rows "
                                           "with --where)");
            need += rc->fields[col].len + 1;
        }
        if (ls_grow((void **)&s->by_text, &st->by_text_cap, need, 1) != 0 ||
            ls_grow((void **)&s->by_of_row, &st->by_of_row_cap, s->n + 1, sizeof *s->by_of_row) != 0)
            return ls_error_set(rc->err, LS_ERR_INTERNAL, "out of memory");
        s->by_of_row[s->n] = s->by_text_len;
        for (size_t b = 0; b < st->options->nby; b++) {
            csv_field f = rc->fields[rc->fc->by_column[b]];
            memcpy(s->by_text + s->by_text_len, f.ptr, f.len);
            s->by_text_len += f.len;
            s->by_text[s->by_text_len++] = '\0';
        }
    }
    if (rc->fc->group_column >= 0) {
        csv_field f = rc->fields[rc->fc->group_column];
        if (ls_grow((void **)&st->key_of_row, &st->key_of_row_cap, s->n + 1, sizeof *st->key_of_row) != 0 ||
            ls_grow((void **)&st->keys, &st->keys_cap, st->keys_len + f.len + 1, 1) != 0)
            return ls_error_set(rc->err, LS_ERR_INTERNAL, "out of memory");
        st->key_of_row[s->n] = st->keys_len;
        memcpy(st->keys + st->keys_len, f.ptr, f.len);
        st->keys_len += f.len;
        st->keys[st->keys_len++] = '\0';
    }
    if (s->nfactors && row_factors(st, rc->fc, rc->fields, rc->err) != 0)
        return rc->err->code;
    s->n++;
    return 0;
}

/* Count a row that --skip-invalid drops, keeping the first few lines and
 * the first one's message. */
static void skip_row(ls_sweep_skips *k, ls_error *err, long line, int file)
{
    if (k->n < LS_SWEEP_SKIPS_SHOWN) {
        k->line[k->n] = line;
        k->file[k->n] = file;
    }
    if (k->n == 0)
        snprintf(k->first, sizeof k->first, "%s", err->message);
    k->n++;
    ls_error_clear(err);
}

static int read_file(reader_state *st, const char *path, int file_index, ls_error *err)
{
    csv_reader *csv = ls_csv_open(path, err);
    if (!csv)
        return err->code;
    if (st->options->checksum)
        ls_csv_keep_checksum(csv);
    if (!st->stream && st->options->max_rows)
        ls_csv_limit_records(csv, st->options->max_rows, st->s->n);
    file_columns fc;
    memset(&fc, 0, sizeof fc);
    const csv_field *fields = NULL;
    size_t nfields = 0;
    int status = ls_csv_next(csv, &fields, &nfields, err);
    if (status == 0)
        status = ls_error_set(err, LS_ERR_DATA, "%s: empty file (no header row)", ls_csv_name(csv));
    if (status > 0)
        status = read_header(st, csv, fields, nfields, &fc, err);
    if (status == 0 && st->options->keep_text && st->s->column_names == NULL) {
        st->s->column_names = calloc(nfields, sizeof *st->s->column_names);
        if (!st->s->column_names)
            status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        for (size_t i = 0; status == 0 && i < nfields; i++)
            if (!(st->s->column_names[i] = strdup(fc.names[i])))
                status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        st->s->ncolumns = nfields;
    }
    if (status == 0 && fc.column_of[LS_SWEEP_LOSS] < 0)
        st->s->has_loss = 0;
    if (status == 0 && st->stream && st->stream->on_header)
        status = st->stream->on_header(st->stream->ctx, ls_csv_name(csv), (const char *const *)fc.names, nfields,
                                       fc.column_of[LS_SWEEP_LOSS] >= 0, err);
    size_t rows_in_file = 0;
    while (status == 0 && (status = ls_csv_next(csv, &fields, &nfields, err)) > 0) {
        row_context rc = {ls_csv_name(csv), ls_csv_line(csv), fields, &fc, err, st->options->flops,
                          st->options->flops_hint};
        status = 0;
        rows_in_file++;
        if (nfields != fc.nfields) {
            status = ls_error_set(err, LS_ERR_DATA, "%s:%ld: %zu fields, but the header has %zu", rc.file, rc.line,
                                  nfields, fc.nfields);
            break;
        }
        /* First the filters on plain columns (text, or numbers that are
         * not a quantity: which runs and steps to read), then those on a
         * quantity's cells, which drop a row as an invalid value would:
         * with --last a run whose last checkpoint they drop is left out. */
        int keep = 0;
        status = row_passes_cell_filters(st, &rc, 0, &keep);
        if (status == 0 && keep)
            status = remember_candidate(st, &rc, file_index);
        if (status == 0 && keep)
            status = row_passes_cell_filters(st, &rc, 1, &keep);
        if (status != 0)
            break;
        if (!keep) {
            st->s->filtered_out++;
            continue;
        }
        ls_sweep_row row = {.n_act = NAN, .n_total = NAN, .n_loop = NAN, .R = 1, .E = 1, .k = 1,
                         .tokens = NAN, .loss = NAN, .unique_tokens = NAN, .line = rc.line, .file = file_index};
        double flops = NAN;
        int present[LS_SWEEP_NQUANTITIES] = {0};
        double *targets[LS_SWEEP_NQUANTITIES] = {&row.n_act, &row.n_total, &row.n_loop, &row.R, &row.E,
                                              &row.k,     &row.tokens,  &flops,       &row.loss,
                                              &row.unique_tokens};
        for (int q = 0; q < LS_SWEEP_NQUANTITIES && status == 0; q++)
            status = parse_quantity(&rc, st->loss_scale, (ls_sweep_quantity)q, targets[q], &present[q]);
        if (status == 0 && fc.config_beside_counts)
            status = compare_configuration(st, &rc, &row, present);
        if (status == 0 && fc.counts_from_config)
            status = count_configuration(st->options, &rc, &row, present);
        else if (status == 0 && st->options->shape) {
            /* Configurations not yet trained (plan's candidates): the
             * template fills what the file does not give. */
            const ls_arch_template *t = st->options->shape;
            if (!present[LS_SWEEP_K])
                row.k = t->top_k;
            if (!present[LS_SWEEP_N_TOTAL])
                row.n_total = nearbyint(ls_arch_n_total_at(t, row.n_act, row.E, row.R));
            if (!present[LS_SWEEP_N_LOOP])
                row.n_loop = nearbyint(ls_arch_n_loop(t, row.n_act));
        } else if (status == 0 && !present[LS_SWEEP_N_TOTAL])
            row.n_total = row.n_act;
        if (status == 0 && present[LS_SWEEP_UNIQUE_TOKENS] && row.unique_tokens == 0) /* 0 would read as "not given" */
            status = cell_error(&rc, fc.column_of[LS_SWEEP_UNIQUE_TOKENS], "must be positive");
        if (status == 0)
            status = check_row(&rc, &row, flops, present[LS_SWEEP_FLOPS]);
        /* A checkpoint's step is read with the row's quantities, so that
         * --skip-invalid drops a row whose step is empty or not a number. */
        if (status == 0 && rc.fc->run_column >= 0 && rc.fc->step_column >= 0) {
            csv_field sf = rc.fields[rc.fc->step_column], f = rc.fields[rc.fc->run_column];
            double step;
            numtext_status ns = ls_numtext_parse_count(sf.ptr, sf.len, &step);
            if (ns != NUMTEXT_OK)
                status = cell_error(&rc, rc.fc->step_column, "%s (the step of run '%.*s')", ls_numtext_reason(ns),
                                    (int)(f.len > 60 ? 60 : f.len), f.ptr);
        }
        if (status == LS_ERR_DATA && st->options->skip_invalid) {
            skip_row(st->skips, err, rc.line, file_index);
            status = 0;
            continue;
        }
        if (status != 0)
            break;
        if (!row_passes_row_filters(st, &rc, &row)) {
            st->s->filtered_out++;
            continue;
        }
        if ((status = keep_row(st, &rc, nfields, &row)) != 0)
            break;
        for (int q = 0; q < LS_SWEEP_NQUANTITIES; q++)
            if (present[q])
                spread_add(&st->spread[q],
                           q == LS_SWEEP_FLOPS ? flops : ls_sweep_row_value(&row, (ls_sweep_quantity)q));
    }
    if (status == 0 && rows_in_file == 0)
        status = ls_error_set(err, LS_ERR_DATA, "%s: no rows after the header", ls_csv_name(csv));
    if (status == 0 && st->options->checksum) /* every byte read: what was fitted, even from a pipe */
        ls_csv_sha256(csv, st->s->sha256[file_index]);
    file_columns_free(&fc);
    ls_csv_close(csv);
    return status < 0 ? status : 0;
}

typedef struct keyed_row {
    const char *key;
    size_t row;
} keyed_row;

static int compare_keyed_rows(const void *a, const void *b)
{
    const keyed_row *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->row > y->row) - (x->row < y->row);
}

typedef struct checkpoint {
    const char *run;
    double step;
    size_t row;
} checkpoint;

static int compare_checkpoints(const void *a, const void *b)
{
    const checkpoint *x = a, *y = b;
    int c = strcmp(x->run, y->run);
    if (c)
        return c;
    if (x->step != y->step)
        return x->step < y->step ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

typedef struct candidate_ref {
    const char *run;
    const checkpoint_candidate *c;
} candidate_ref;

static int compare_candidates(const void *a, const void *b)
{
    const candidate_ref *x = a, *y = b;
    int c = strcmp(x->run, y->run);
    if (c)
        return c;
    if (x->c->file != y->c->file)
        return x->c->file < y->c->file ? -1 : 1;
    return (x->c->line > y->c->line) - (x->c->line < y->c->line);
}

/* With options.last: a run's final checkpoint is its row with the largest
 * step among all the rows the cell filters kept (the later row on a tie),
 * valid or not.  When that row is not among the kept rows (invalid and
 * skipped, or dropped by a filter on a quantity), or a row of the run has a
 * step that is not a number (its place is unknown), an earlier checkpoint
 * would stand in for the end of training: the whole run is left out
 * instead (keep[] cleared), and counted in s->last_dropped_*. */
static int drop_runs_without_final_row(reader_state *st, unsigned char *keep, ls_error *err)
{
    ls_sweep *s = st->s;
    if (st->ncands == 0)
        return 0;
    candidate_ref *r = malloc(st->ncands * sizeof *r);
    if (!r)
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    for (size_t i = 0; i < st->ncands; i++)
        r[i] = (candidate_ref){st->cand_keys + st->cands[i].key, &st->cands[i]};
    qsort(r, st->ncands, sizeof *r, compare_candidates);
    for (size_t i = 0; i < st->ncands;) {
        size_t j = i + 1;
        while (j < st->ncands && strcmp(r[j].run, r[i].run) == 0)
            j++;
        const checkpoint_candidate *final = r[i].c;
        int unknown = 0;
        for (size_t k = i; k < j; k++) {
            if (isnan(r[k].c->step)) {
                unknown = 1;
                final = r[k].c;
                break;
            }
            if (r[k].c->step >= final->step)
                final = r[k].c;
        }
        if (unknown || final->row == SIZE_MAX) {
            size_t kept = 0;
            for (size_t k = i; k < j; k++)
                if (r[k].c->row != SIZE_MAX && keep[r[k].c->row] != 2) {
                    keep[r[k].c->row] = 2; /* left out with its run */
                    kept++;
                }
            if (kept > 0) {
                s->last_dropped_rows += kept;
                if (s->last_dropped_runs == 0 || final->file < s->last_dropped_file ||
                    (final->file == s->last_dropped_file && final->line < s->last_dropped_line)) {
                    s->last_dropped_line = final->line;
                    s->last_dropped_file = final->file;
                    snprintf(s->last_dropped_first, sizeof s->last_dropped_first, "%s", r[i].run);
                }
                s->last_dropped_runs++;
            }
        }
        i = j;
    }
    for (size_t i = 0; i < s->n; i++)
        if (keep[i] == 2)
            keep[i] = 0;
    free(r);
    return 0;
}

/* Count the runs that have several rows (checkpoints) and, with
 * options.last, keep only the row of each run with the largest step (the
 * later row on a tie), in the order the rows were read. */
static int checkpoints(reader_state *st, ls_error *err)
{
    ls_sweep *s = st->s;
    int status;
    checkpoint *c = malloc((s->n ? s->n : 1) * sizeof *c);
    unsigned char *keep = calloc(s->n ? s->n : 1, 1);
    if (!c || !keep) {
        free(c);
        free(keep);
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    }
    for (size_t i = 0; i < s->n; i++)
        c[i] = (checkpoint){st->run_keys + st->run_key_of_row[i], st->steps[i], i};
    qsort(c, s->n, sizeof *c, compare_checkpoints);
    for (size_t i = 0; i < s->n;) {
        size_t j = i + 1;
        while (j < s->n && strcmp(c[j].run, c[i].run) == 0)
            j++;
        if (j - i > 1) {
            s->runs_with_several_rows++;
            s->rows_of_those_runs += j - i;
        }
        keep[c[j - 1].row] = 1;
        i = j;
    }
    if (st->options->last && (status = drop_runs_without_final_row(st, keep, err)) != 0) {
        free(c);
        free(keep);
        return status;
    }
    if (st->options->last) {
        size_t n = 0;
        for (size_t i = 0; i < s->n; i++) {
            if (!keep[i])
                continue;
            s->rows[n] = s->rows[i];
            if (st->key_of_row)
                st->key_of_row[n] = st->key_of_row[i];
            if (s->by_of_row)
                s->by_of_row[n] = s->by_of_row[i];
            for (size_t f = 0; f < s->nfactors; f++)
                s->factors[f].of_row[n] = s->factors[f].of_row[i];
            n++;
        }
        s->earlier_steps_dropped = s->n - n - s->last_dropped_rows;
        s->n = n;
    }
    free(c);
    free(keep);
    return 0;
}

/* Number the groups 0, 1, ... in the sorted order of their keys.  A column
 * whose every cell is a positive number is grouped as a quantity's tiers
 * are (loopscale/group.h: within options.group_tol, or the values' own
 * rounding), so that 2.99999e-4 and 3.00001e-4 are one group; any other
 * column by its text. */
static int assign_groups(reader_state *st, ls_error *err)
{
    ls_sweep *s = st->s;
    double *v = malloc((s->n ? s->n : 1) * sizeof *v);
    size_t *group = malloc((s->n ? s->n : 1) * sizeof *group);
    if (!v || !group) {
        free(v);
        free(group);
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    }
    int numeric = 1;
    for (size_t i = 0; i < s->n && numeric; i++) {
        const char *key = st->keys + st->key_of_row[i];
        numeric = ls_numtext_parse_count(key, strlen(key), &v[i]) == NUMTEXT_OK && v[i] > 0;
    }
    if (numeric && s->n) {
        ls_grouping g;
        int status = ls_sweep_group(s, v, s->n, group, &g, err);
        if (status == 0) {
            for (size_t i = 0; i < s->n; i++)
                s->rows[i].group = group[i];
            s->ngroups = g.n;
            ls_grouping_free(&g);
        }
        free(v);
        free(group);
        return status;
    }
    free(v);
    free(group);
    keyed_row *pairs = malloc((s->n ? s->n : 1) * sizeof *pairs);
    if (!pairs)
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    for (size_t i = 0; i < s->n; i++)
        pairs[i] = (keyed_row){st->keys + st->key_of_row[i], i};
    qsort(pairs, s->n, sizeof *pairs, compare_keyed_rows);
    size_t id = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (i > 0 && strcmp(pairs[i].key, pairs[i - 1].key) != 0)
            id++;
        s->rows[pairs[i].row].group = id;
    }
    s->ngroups = s->n ? id + 1 : 0;
    free(pairs);
    return 0;
}

/* Why a law of kind `kind` does not read quantity q (NULL: it does);
 * tokens_from_flops: the tokens come from a flops column, through N_unroll,
 * which reads R and n_loop. */
static const char *unread_reason(ls_law_kind kind, ls_sweep_quantity q, int tokens_from_flops)
{
    switch (q) {
    case LS_SWEEP_N_TOTAL:
        if (ls_law_mapping_is_sparse(kind.mapping))
            return NULL;
        return "only the sparse mappings (bounded-sparse, hyperbolic) read it, through m = N_act / N_total";
    case LS_SWEEP_N_LOOP:
    case LS_SWEEP_R:
        return kind.mapping != LS_LAW_MAPPING_NONE || tokens_from_flops
                   ? NULL
                   : "the mapping none has no loop gain: N_eff = N_act whatever R and n_loop";
    case LS_SWEEP_E: return kind.base == LS_LAW_BASE_MOE ? NULL : "only the moe base reads the experts E";
    case LS_SWEEP_K: return "no law reads k, the experts a token is routed to; it is only checked (E >= k)";
    case LS_SWEEP_UNIQUE_TOKENS:
        return kind.base == LS_LAW_BASE_DATA_CONSTRAINED ? NULL : "only the data-constrained base reads unique tokens";
    default: return NULL;
    }
}

/* ls_sweep_column_warnings, from the columns' names (names[q], NULL: no
 * column) and their spread over the rows. */
static int column_warnings(char *const *names, const column_spread *spread, ls_law_kind kind, ls_warnings *w)
{
    char law[64];
    ls_law_kind_format(kind, law, sizeof law);
    int tokens_from_flops = !names[LS_SWEEP_TOKENS] && names[LS_SWEEP_FLOPS];
    for (int q = 0; q < LS_SWEEP_NQUANTITIES; q++) {
        if (!names[q])
            continue;
        /* "column 'experts' (E)", or "column 'E'" when that is its name. */
        char column[160];
        if (strcasecmp(names[q], QUANTITIES[q].canonical) == 0)
            snprintf(column, sizeof column, "column '%s'", names[q]);
        else
            snprintf(column, sizeof column, "column '%s' (%s)", names[q], QUANTITIES[q].canonical);
        const char *why = unread_reason(kind, (ls_sweep_quantity)q, tokens_from_flops);
        int status = 0;
        if (why) {
            status = ls_warnings_add(w, LS_WARNING_DATA, names[q], "%s is not read by the law %s: %s", column, law,
                                     why);
        } else if (spread[q].n >= 2 && !spread[q].varies &&
                   (q == LS_SWEEP_UNIQUE_TOKENS ||
                    ((q == LS_SWEEP_N_TOTAL || q == LS_SWEEP_N_LOOP) && spread[LS_SWEEP_N_ACT].varies))) {
            char value[NUMTEXT_DOUBLE_MAX];
            ls_numtext_format_double(value, spread[q].first);
            status = ls_warnings_add(w, LS_WARNING_DATA, names[q],
                                     "%s holds %s for every one of the %zu runs%s; if that is not each run's own "
                                     "value (a placeholder), give the right column with --map %s=COLUMN, or set "
                                     "this one aside with --map unread=%s",
                                     column, value, spread[q].n,
                                     q == LS_SWEEP_UNIQUE_TOKENS ? "" : ", while n_act varies",
                                     QUANTITIES[q].canonical, names[q]);
        }
        if (status)
            return LS_ERR_INTERNAL;
    }
    return 0;
}

int ls_sweep_column_warnings(const ls_sweep *s, ls_law_kind kind, ls_warnings *w)
{
    column_spread spread[LS_SWEEP_NQUANTITIES];
    memset(spread, 0, sizeof spread);
    for (int q = 0; q < LS_SWEEP_NQUANTITIES; q++)
        for (size_t i = 0; s->quantity_column[q] && i < s->n; i++)
            spread_add(&spread[q], ls_sweep_row_value(&s->rows[i], (ls_sweep_quantity)q));
    return column_warnings(s->quantity_column, spread, kind, w);
}

/* The reader behind ls_sweep_read (stream NULL: rows stored) and
 * ls_sweep_stream (rows handed out, only their count kept). */
static ls_sweep *read_sweep(const char *const *paths, size_t npaths, const ls_sweep_options *options,
                         const ls_sweep_handler *stream, ls_error *err)
{
    static const ls_sweep_options no_options = {0};
    if (!options)
        options = &no_options;
    reader_state st;
    memset(&st, 0, sizeof st);
    st.options = options;
    st.stream = stream;
    /* Losses in bits become nats (x ln 2); per byte, per token (x bytes per token). */
    st.loss_scale = (options->loss_in_bits ? log(2.0) : 1.0) *
                    (options->bytes_per_token > 0 ? options->bytes_per_token : 1.0);
    int status = 0;
    if (stream && (options->group_column || options->keep_text || options->nby))
        return ls_error_set(err, LS_ERR_INTERNAL, "a streamed sweep cannot be grouped or kept as text"), NULL;
    st.s = calloc(1, sizeof *st.s);
    st.wheres = calloc(options->nwheres + 1, sizeof *st.wheres);
    st.maps = calloc(options->nmaps + 1, sizeof *st.maps);
    if (!st.s || !st.wheres || !st.maps)
        status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    if (status == 0 && npaths == 0)
        status = ls_error_set(err, LS_ERR_USAGE, "no sweep file given");
    if (status == 0 && options->keep_text && npaths > 1)
        status = ls_error_set(err, LS_ERR_USAGE, "only one sweep file can be echoed row by row");
    for (size_t w = 0; status == 0 && w < options->nwheres; w++)
        if ((status = parse_where(options->wheres[w], &st.wheres[w], err)) == LS_ERR_USAGE)
            status = blame_origin(err, WHERE_ORIGIN(options, w));
    for (size_t m = 0; status == 0 && m < options->nmaps; m++)
        if ((status = parse_map(options->maps[m], &st.maps[m], err)) == LS_ERR_USAGE)
            status = blame_origin(err, MAP_ORIGIN(options, m));
    if (status == 0)
        status = check_map_targets(&st, err);

    size_t name_len = 1;
    for (size_t f = 0; f < npaths; f++)
        name_len += strlen(paths[f]) + 1;
    if (status == 0 && (!(st.s->name = calloc(name_len, 1)) || !(st.s->sha256 = calloc(npaths, sizeof *st.s->sha256))))
        status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    if (status == 0)
        st.s->nfiles = npaths;
    if (status == 0 && options->nby) {
        if (!(st.s->by_names = calloc(options->nby, sizeof *st.s->by_names)))
            status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        else
            st.s->nby = options->nby;
        for (size_t b = 0; status == 0 && b < options->nby; b++)
            if (!(st.s->by_names[b] = strdup(options->by_columns[b])))
                status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    }
    if (st.s) {
        st.s->has_loss = 1;
        st.s->group_tol = options->group_tol > 0 ? options->group_tol : 0;
        st.skips = &st.s->skipped;
    }
    for (size_t f = 0; status == 0 && f < npaths; f++) {
        if (f > 0)
            strcat(st.s->name, " ");
        strcat(st.s->name, paths[f]);
        status = read_file(&st, paths[f], (int)f, err);
    }
    if (status == 0 && st.s->n == 0 && st.s->skipped.n > 0) {
        char what[2 * LS_ERROR_MESSAGE_MAX];
        ls_sweep_skips_describe(&st.s->skipped, what, sizeof what);
        status = ls_error_set(err, LS_ERR_DATA, "%s: no rows left: %s", st.s->name, what);
    } else if (status == 0 && st.s->n == 0)
        status = no_rows_left(&st, err);
    if (stream && stream->skipped && st.s)
        *stream->skipped = st.s->skipped;
    if (status == 0 && !stream && st.run_key_of_row)
        status = checkpoints(&st, err);
    if (status == 0 && st.s->n == 0 && st.s->last_dropped_runs > 0) {
        char what[LS_ERROR_MESSAGE_MAX];
        ls_sweep_last_dropped_describe(st.s, what, sizeof what);
        status = ls_error_set(err, LS_ERR_DATA, "%s: no rows left: %s", st.s->name, what);
    }
    if (status == 0 && options->group_column)
        status = assign_groups(&st, err);
    if (status == 0 && st.config_disagree) {
        char message[LS_ERROR_MESSAGE_MAX + 160], more[96] = "";
        if (st.config_disagree > 1)
            snprintf(more, sizeof more, " (and %zu more %s by more than %g%%)", st.config_disagree - 1,
                     st.config_disagree == 2 ? "row differs" : "rows differ", 100 * LS_ARCH_TOLERANCE);
        snprintf(message, sizeof message, "%s%s; the counts are read, not the configuration", st.config_first, more);
        status = reader_warning(options, st.config_subject, message, err);
    }
    if (status == 0 && options->law && options->warnings &&
        (stream ? column_warnings(st.s->quantity_column, st.spread, *options->law, options->warnings)
                : ls_sweep_column_warnings(st.s, *options->law, options->warnings)) != 0)
        status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");

    for (size_t w = 0; st.wheres && w < options->nwheres; w++)
        where_free(&st.wheres[w]);
    free(st.wheres);
    free(st.stream_cells);
    free(st.maps);
    free(st.keys);
    free(st.key_of_row);
    free(st.cell_buf);
    free(st.run_keys);
    free(st.run_key_of_row);
    free(st.steps);
    free(st.cands);
    free(st.cand_keys);
    free(st.findex);
    if (status != 0) {
        ls_sweep_free(st.s);
        return NULL;
    }
    return st.s;
}

ls_sweep *ls_sweep_read(const char *const *paths, size_t npaths, const ls_sweep_options *options, ls_error *err)
{
    return read_sweep(paths, npaths, options, NULL, err);
}

/* --last needs every row before it can hand out any: read the sweep whole,
 * with its cells, then hand its rows to the callbacks as a stream would. */
static int stream_last_rows(const char *const *paths, size_t npaths, const ls_sweep_options *options,
                            const ls_sweep_handler *stream, size_t *nrows, ls_error *err)
{
    ls_sweep_options o = *options;
    o.keep_text = 1;
    if (npaths != 1)
        return ls_error_set(err, LS_ERR_USAGE, "--last reads one sweep file at a time here");
    ls_sweep *s = read_sweep(paths, npaths, &o, NULL, err);
    if (!s)
        return err->code;
    int status = 0;
    ls_sweep_text_cell *cells = calloc(s->ncolumns ? s->ncolumns : 1, sizeof *cells);
    if (!cells)
        status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    const char *file = strcmp(paths[0], "-") == 0 ? "<stdin>" : paths[0];
    if (status == 0 && stream->on_header)
        status = stream->on_header(stream->ctx, file, (const char *const *)s->column_names, s->ncolumns, s->has_loss,
                                   err);
    for (size_t i = 0; status == 0 && i < s->n; i++) {
        const char *p = s->text + s->rows[i].text;
        for (size_t c = 0; c < s->ncolumns; c++) {
            cells[c].ptr = p;
            cells[c].len = strlen(p);
            p += cells[c].len + 1;
        }
        status = stream->on_row(stream->ctx, &s->rows[i], cells, s->ncolumns, err);
    }
    if (status == 0 && stream->skipped)
        *stream->skipped = s->skipped;
    if (status == 0 && s->last_dropped_runs > 0) {
        /* The streamed rows carry no sweep to report it from. */
        char what[LS_ERROR_MESSAGE_MAX], message[LS_ERROR_MESSAGE_MAX + 64];
        ls_sweep_last_dropped_describe(s, what, sizeof what);
        snprintf(message, sizeof message, "%s: %s", file, what);
        status = reader_warning(options, s->run_column ? s->run_column : "", message, err);
    }
    *nrows = s->n;
    free(cells);
    ls_sweep_free(s);
    return status;
}

int ls_sweep_stream(const char *const *paths, size_t npaths, const ls_sweep_options *options,
                    const ls_sweep_handler *stream, size_t *nrows, ls_error *err)
{
    if (options && options->last)
        return stream_last_rows(paths, npaths, options, stream, nrows, err);
    ls_sweep *s = read_sweep(paths, npaths, options, stream, err);
    if (!s)
        return err->code;
    *nrows = s->n;
    ls_sweep_free(s);
    return 0;
}

void ls_sweep_last_dropped_describe(const ls_sweep *s, char *buf, size_t size)
{
    if (size == 0)
        return;
    buf[0] = '\0';
    if (s->last_dropped_runs == 0)
        return;
    snprintf(buf, size, "%zu %s left out: %s last checkpoint was dropped (invalid or filtered); first: '%s' at line %ld",
             s->last_dropped_runs, s->last_dropped_runs == 1 ? "run" : "runs",
             s->last_dropped_runs == 1 ? "its" : "their", s->last_dropped_first, s->last_dropped_line);
}

void ls_sweep_free(ls_sweep *s)
{
    if (!s)
        return;
    free(s->rows);
    for (size_t i = 0; i < s->ncolumns; i++)
        free(s->column_names[i]);
    free(s->column_names);
    free(s->text);
    free(s->name);
    free(s->run_column);
    for (int q = 0; q < LS_SWEEP_NQUANTITIES; q++)
        free(s->quantity_column[q]);
    free(s->counted_from);
    free(s->sha256);
    for (size_t b = 0; s->by_names && b < s->nby; b++)
        free(s->by_names[b]);
    free(s->by_names);
    free(s->by_text);
    free(s->by_of_row);
    for (size_t f = 0; f < s->nfactors; f++) {
        free(s->factors[f].name);
        for (size_t v = 0; v < s->factors[f].nvalues; v++)
            free(s->factors[f].values[v]);
        free(s->factors[f].values);
        free(s->factors[f].of_row);
    }
    free(s->factors);
    free(s);
}

const char *ls_sweep_cell(const ls_sweep *s, size_t row, size_t column, size_t *len)
{
    const char *p = s->text + s->rows[row].text;
    for (size_t i = 0; i < column; i++)
        p += strlen(p) + 1;
    if (len)
        *len = strlen(p);
    return p;
}

int ls_sweep_select(const ls_sweep *s, const char *const *conditions, size_t n, unsigned char *selected, ls_error *err)
{
    for (size_t i = 0; i < s->n; i++)
        selected[i] = 1;
    for (size_t c = 0; c < n; c++) {
        where_filter w;
        int status = parse_where(conditions[c], &w, err);
        if (status != 0) {
            where_free(&w);
            return status;
        }
        int q = where_target_from_name(w.column);
        if (q >= 0 && (status = check_where_suffix(&w, q, err)) != 0) {
            where_free(&w);
            return status;
        }
        if (q < 0 || w.is_text) {
            status = ls_error_set(err, LS_ERR_USAGE, "'%s': '%s' is not one of the quantities n_act, n_total, "
                                  "n_loop, R, E, k, tokens, flops, loss, n_unroll, tokens_per_param, epochs%s", conditions[c],
                                  w.column, q >= 0 ? " compared with a number" : "");
            where_free(&w);
            return status;
        }
        for (size_t i = 0; i < s->n; i++) {
            const ls_sweep_row *row = &s->rows[i];
            selected[i] = selected[i] && where_holds(&w, where_value(row, q));
        }
        where_free(&w);
    }
    return 0;
}

/* The factor columns of s at the rows keep selects, into out. */
static int copy_factors(ls_sweep *out, const ls_sweep *s, const unsigned char *keep, ls_error *err)
{
    if (!(out->factors = calloc(s->nfactors, sizeof *out->factors)))
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    out->nfactors = s->nfactors;
    for (size_t f = 0; f < s->nfactors; f++) {
        const ls_sweep_factor *x = &s->factors[f];
        ls_sweep_factor *y = &out->factors[f];
        if (!(y->name = strdup(x->name)) || !(y->of_row = malloc(out->n ? out->n : 1)) ||
            (x->nvalues && !(y->values = calloc(x->nvalues, sizeof *y->values))))
            return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        for (size_t v = 0; v < x->nvalues; v++, y->nvalues++)
            if (!(y->values[v] = strdup(x->values[v])))
                return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        for (size_t i = 0, k = 0; i < s->n; i++)
            if (keep[i])
                y->of_row[k++] = x->of_row[i];
    }
    return 0;
}

ls_sweep *ls_sweep_subset(const ls_sweep *s, const unsigned char *keep, ls_error *err)
{
    ls_sweep *out = calloc(1, sizeof *out);
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++)
        n += keep[i] != 0;
    if (out) {
        out->rows = malloc((n ? n : 1) * sizeof *out->rows);
        out->name = strdup(s->name);
    }
    if (!out || !out->rows || !out->name) {
        ls_sweep_free(out);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        return NULL;
    }
    for (int q = 0; q < LS_SWEEP_NQUANTITIES; q++)
        if (s->quantity_column[q] && !(out->quantity_column[q] = strdup(s->quantity_column[q]))) {
            ls_sweep_free(out);
            ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
            return NULL;
        }
    for (size_t i = 0; i < s->n; i++)
        if (keep[i])
            out->rows[out->n++] = s->rows[i];
    if (s->nfactors && copy_factors(out, s, keep, err) != 0) {
        ls_sweep_free(out);
        return NULL;
    }
    out->has_loss = s->has_loss;
    out->ngroups = s->ngroups;
    out->group_tol = s->group_tol;
    return out;
}

void ls_sweep_skips_describe(const ls_sweep_skips *k, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    if (k->n == 0)
        return;
    used += (size_t)snprintf(buf, size, "%zu invalid row%s skipped (line%s", k->n, k->n == 1 ? "" : "s",
                             k->n == 1 ? "" : "s");
    size_t shown = k->n < LS_SWEEP_SKIPS_SHOWN ? k->n : LS_SWEEP_SKIPS_SHOWN;
    for (size_t i = 0; i < shown && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%ld", i ? ", " : " ", k->line[i]);
    if (used < size)
        snprintf(buf + used, size - used, "%s); the first: %s", k->n > shown ? ", ..." : "", k->first);
}

int ls_sweep_group(const ls_sweep *s, const double *v, size_t n, size_t *group, ls_grouping *out, ls_error *err)
{
    return ls_group_values(v, n, s->group_tol > 0 ? s->group_tol : -1.0, group, out, err);
}
