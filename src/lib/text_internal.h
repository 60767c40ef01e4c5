/*
 * text_internal.h — user text on its way out: into JSON and XML, which must
 * be valid UTF-8, and into one-line messages, which must not carry a line
 * break or a terminal's control sequence.
 *
 * File names, cell values and titles come from users and may hold any byte.
 * A law file that records an ill-formed name could not be read back, an SVG
 * with one is not XML, and a message echoing ESC [ 2 J clears the terminal.
 * Each function writes at most size bytes including the terminating NUL
 * (buf may be NULL when size is 0) and returns the length the whole result
 * needs, like snprintf.
 */
#ifndef LOOPSCALE_TEXT_INTERNAL_H
#define LOOPSCALE_TEXT_INTERNAL_H

#include <stddef.h>

/* The length (1 to 4) of the well-formed UTF-8 sequence starting at s, as
 * RFC 3629 defines it (no overlong forms, no surrogates, nothing above
 * U+10FFFF); or, when s does not start one, minus the length of its
 * "maximal subpart" (the bytes that began a sequence before it broke off,
 * at least 1), which is what one U+FFFD replaces (Unicode's recommended
 * practice, chapter 3).  s is NUL-terminated and *s is not NUL. */
int ls_utf8_sequence(const unsigned char *s);

/* text with each ill-formed sequence replaced by U+FFFD. */
size_t ls_utf8_repair(char *buf, size_t size, const char *text);
/* malloc'd ls_utf8_repair(text), or NULL when out of memory. */
char *ls_utf8_repair_dup(const char *text);

/* text as a message quotes it: \n, \r and \t for those, \xNN for the other
 * C0 controls, DEL and each byte of an ill-formed UTF-8 sequence, \uNNNN
 * for the C1 controls (U+0080 to U+009F, which some terminals obey as
 * escapes); everything else as it is.  The result is one printable line. */
size_t ls_text_quote(char *buf, size_t size, const char *text);

/* Plain text as XML, SVG or HTML text or attribute value (and as Pango
 * markup, which is XML): & < > " ' as entities, ill-formed UTF-8 as U+FFFD,
 * DEL and the C0 controls dropped.  LS_TEXT_KEEP_LINES keeps tab and
 * newline (HTML text); without it a tab is a space and a newline is
 * dropped (a label drawn on one line). */
#define LS_TEXT_KEEP_LINES 1u
size_t ls_text_escape_xml(char *buf, size_t size, const char *text, unsigned flags);
/* malloc'd ls_text_escape_xml(text, flags), or NULL when out of memory. */
char *ls_text_escape_xml_dup(const char *text, unsigned flags);

#endif
