/* strbuf.h - the one growable string of the program: text built piece by
 * piece (diagrams, SVG) and handed over as a malloc'd C string.
 *
 *   pb_strbuf b = {0};
 *   pb_strbuf_printf(&b, "%d nodes", n);
 *   char *text = b.s;            (the caller frees it; "" needs one put)
 */
#ifndef PB_STRBUF_H
#define PB_STRBUF_H

#include <stddef.h>

typedef struct pb_strbuf {
    char *s;       /* NUL-terminated once anything was put */
    size_t n, cap; /* length, allocated bytes */
} pb_strbuf;

void pb_strbuf_puts(pb_strbuf *b, const char *s);
void pb_strbuf_printf(pb_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* XML text or attribute content: & < > " escaped. */
void pb_strbuf_xml(pb_strbuf *b, const char *s);

#endif
