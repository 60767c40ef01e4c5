#include "readfile_internal.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int ls_read_small_file(const char *path, size_t max_bytes, const char *what, char **text, size_t *len,
                    ls_error *err)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return ls_error_set(err, LS_ERR_NOINPUT, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(fp);
        return ls_error_set(err, LS_ERR_NOINPUT, "%s: is a directory", path);
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    int status = buf ? 0 : ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    while (status == 0) {
        size_t got = fread(buf + n, 1, cap - n, fp);
        n += got;
        if (got == 0)
            break;
        if (n > max_bytes) {
            status = ls_error_set(err, LS_ERR_DATA, "%s: too large for a %s", path, what);
        } else if (n == cap) {
            char *p = realloc(buf, 2 * cap + 1);
            if (!p)
                status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
            else {
                buf = p;
                cap *= 2;
            }
        }
    }
    if (status == 0 && ferror(fp))
        status = ls_error_set(err, LS_ERR_NOINPUT, "%s: cannot read: %s", path, strerror(errno));
    fclose(fp);
    if (status != 0) {
        free(buf);
        return status;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}

cJSON *ls_parse_json_text(const char *text, size_t len, const char *name, ls_error *err)
{
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (root)
        return root;
    size_t offset = end && end >= text && (size_t)(end - text) <= len ? (size_t)(end - text) : len;
    long line = 1, column = 1;
    for (size_t i = 0; i < offset; i++) {
        if (text[i] == '\n') {
            line++;
            column = 1;
        } else {
            column++;
        }
    }
    ls_error_set(err, LS_ERR_DATA, "%s:%ld:%ld: not valid JSON", name, line, column);
    return NULL;
}

struct cJSON *ls_read_json_file(const char *path, size_t max_bytes, const char *what, ls_error *err)
{
    char *text = NULL;
    size_t len = 0;
    if (ls_read_small_file(path, max_bytes, what, &text, &len, err) != 0)
        return NULL;
    struct cJSON *root = ls_parse_json_text(text, len, path, err);
    free(text);
    return root;
}
