#include "text_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ls_utf8_sequence(const unsigned char *s)
{
    unsigned char b = s[0];
    if (b < 0x80)
        return 1;
    /* The length a lead byte announces and the range its second byte must
     * fall in (narrower after E0, ED, F0 and F4, which is what rules out
     * overlong forms, surrogates and values above U+10FFFF). */
    int len;
    unsigned char lo = 0x80, hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf)
        len = 2;
    else if (b >= 0xe0 && b <= 0xef) {
        len = 3;
        if (b == 0xe0)
            lo = 0xa0;
        else if (b == 0xed)
            hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
        len = 4;
        if (b == 0xf0)
            lo = 0x90;
        else if (b == 0xf4)
            hi = 0x8f;
    } else
        return -1;
    if (s[1] < lo || s[1] > hi)
        return -1;
    for (int i = 2; i < len; i++)
        if (s[i] < 0x80 || s[i] > 0xbf)
            return -i;
    return len;
}

/* Append n bytes of s to buf (size bytes), counting what it would need. */
static void emit(char *buf, size_t size, size_t *at, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++, (*at)++)
        if (*at + 1 < size)
            buf[*at] = s[i];
}

static size_t finish(char *buf, size_t size, size_t at)
{
    if (size > 0)
        buf[at < size ? at : size - 1] = '\0';
    return at;
}

size_t ls_utf8_repair(char *buf, size_t size, const char *text)
{
    size_t at = 0;
    const unsigned char *s = (const unsigned char *)text;
    while (*s) {
        int k = ls_utf8_sequence(s);
        if (k > 0)
            emit(buf, size, &at, (const char *)s, (size_t)k);
        else
            emit(buf, size, &at, "\xef\xbf\xbd", 3);
        s += k > 0 ? k : -k;
    }
    return finish(buf, size, at);
}

char *ls_utf8_repair_dup(const char *text)
{
    size_t n = ls_utf8_repair(NULL, 0, text);
    char *s = malloc(n + 1);
    if (s)
        ls_utf8_repair(s, n + 1, text);
    return s;
}

size_t ls_text_quote(char *buf, size_t size, const char *text)
{
    size_t at = 0;
    char esc[8];
    const unsigned char *s = (const unsigned char *)text;
    while (*s) {
        int k = ls_utf8_sequence(s);
        if (k == 1 && (*s < 0x20 || *s == 0x7f)) {
            const char *named = *s == '\n' ? "\\n" : *s == '\r' ? "\\r" : *s == '\t' ? "\\t" : NULL;
            if (!named) {
                snprintf(esc, sizeof esc, "\\x%02x", *s);
                named = esc;
            }
            emit(buf, size, &at, named, strlen(named));
        } else if (k == 2 && s[0] == 0xc2 && s[1] < 0xa0) {
            snprintf(esc, sizeof esc, "\\u%04x", (unsigned)s[1]);
            emit(buf, size, &at, esc, strlen(esc));
        } else if (k > 0) {
            emit(buf, size, &at, (const char *)s, (size_t)k);
        } else {
            for (int i = 0; i < -k; i++) {
                snprintf(esc, sizeof esc, "\\x%02x", s[i]);
                emit(buf, size, &at, esc, 4);
            }
        }
        s += k > 0 ? k : -k;
    }
    return finish(buf, size, at);
}

size_t ls_text_escape_xml(char *buf, size_t size, const char *text, unsigned flags)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        /* XML and HTML text is UTF-8: an ill-formed sequence is written as
         * U+FFFD, a well-formed one as it is. */
        int k = ls_utf8_sequence(p);
        const char *out;
        size_t len;
        char one[2] = {(char)*p, '\0'};
        if (k != 1) {
            out = k < 0 ? "\xef\xbf\xbd" : (const char *)p;
            len = k < 0 ? 3 : (size_t)k;
            p += (k < 0 ? -k : k) - 1;
        } else {
            switch (*p) {
            case '&': out = "&amp;"; break;
            case '<': out = "&lt;"; break;
            case '>': out = "&gt;"; break;
            case '"': out = "&quot;"; break;
            case '\'': out = "&#39;"; break;
            case '\t': out = flags & LS_TEXT_KEEP_LINES ? "\t" : " "; break;
            case '\n': out = flags & LS_TEXT_KEEP_LINES ? "\n" : ""; break;
            default: out = *p < 0x20 || *p == 0x7f ? "" : one; break;
            }
            len = strlen(out);
        }
        for (size_t i = 0; i < len; i++, n++)
            if (n + 1 < size)
                buf[n] = out[i];
    }
    if (size > 0)
        buf[n < size ? n : size - 1] = '\0';
    return n;
}

char *ls_text_escape_xml_dup(const char *text, unsigned flags)
{
    size_t n = ls_text_escape_xml(NULL, 0, text, flags);
    char *s = malloc(n + 1);
    if (s)
        ls_text_escape_xml(s, n + 1, text, flags);
    return s;
}
