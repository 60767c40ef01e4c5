#include "loopscale/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "text_internal.h"

int ls_error_set(ls_error *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        char raw[LS_ERROR_MESSAGE_MAX];
        vsnprintf(raw, sizeof raw, fmt, ap);
        va_end(ap);
        /* Messages echo file names and cell values: one printable line. */
        ls_text_quote(err->message, sizeof err->message, raw);
        err->code = code;
    }
    return code;
}

int ls_error_prefix(ls_error *err, const char *fmt, ...)
{
    if (!err)
        return LS_ERR_INTERNAL;
    char prefix[LS_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    char joined[LS_ERROR_MESSAGE_MAX];
    snprintf(joined, sizeof joined, "%s: %s", prefix, err->message);
    ls_text_quote(err->message, sizeof err->message, joined);
    return err->code;
}

void ls_error_clear(ls_error *err)
{
    if (err) {
        err->code = LS_OK;
        err->message[0] = '\0';
    }
}

int ls_exit_status(int code)
{
    switch (code) {
    case LS_OK: return 0;
    case LS_ERR_USAGE: return 64;
    case LS_ERR_DATA: return 65;
    case LS_ERR_NOINPUT: return 66;
    case LS_ERR_CANTCREAT: return 73;
    case LS_ERR_IO: return 74;
    case LS_ERR_NOCONV: return 3;
    default: return 70;
    }
}
