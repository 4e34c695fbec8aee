/* strbuf.h - a growable NUL-terminated string, for the text the program
 * builds piece by piece (diagrams, the replayer's page).  Start from
 * {0}; the caller owns and frees b.s.  Allocation failure aborts. */
#ifndef PB_STRBUF_H
#define PB_STRBUF_H

#include <stddef.h>

typedef struct pb_strbuf {
    char *s;
    size_t n, cap;
} pb_strbuf;

void pb_sb_puts(pb_strbuf *b, const char *s);
void pb_sb_printf(pb_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s as XML / HTML text or attribute value: & < > " escaped. */
void pb_sb_xml(pb_strbuf *b, const char *s);

#endif
