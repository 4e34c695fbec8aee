/* strbuf.c - the growable string (strbuf.h). */
#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for `need` more bytes and the NUL.  Out of memory aborts: the
 * pictures and texts built here are small, and a half-built one would be
 * a wrong answer. */
static void grow(pb_strbuf *b, size_t need) {
    if (b->n + need + 1 <= b->cap) return;
    size_t cap = b->cap ? b->cap : 1024;
    while (b->n + need + 1 > cap) cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s) {
        fputs("paperball: out of memory building a text\n", stderr);
        abort();
    }
    b->s = s, b->cap = cap;
}

void pb_strbuf_puts(pb_strbuf *b, const char *s) {
    size_t k = strlen(s);
    grow(b, k);
    memcpy(b->s + b->n, s, k + 1);
    b->n += k;
}

void pb_strbuf_printf(pb_strbuf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    grow(b, (size_t)k);
    va_start(ap, fmt);
    vsnprintf(b->s + b->n, (size_t)k + 1, fmt, ap);
    va_end(ap);
    b->n += (size_t)k;
}

void pb_strbuf_xml(pb_strbuf *b, const char *s) {
    for (; *s; s++) {
        const char *e = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : *s == '"' ? "&quot;" : NULL;
        if (e) pb_strbuf_puts(b, e);
        else {
            char c[2] = {*s, 0};
            pb_strbuf_puts(b, c);
        }
    }
}
