/* strbuf.c - the growable string of strbuf.h. */
#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for need more bytes and the NUL; doubling keeps appends linear. */
static void sb_grow(pb_strbuf *b, size_t need) {
    if (b->n + need + 1 <= b->cap) return;
    while (b->n + need + 1 > b->cap) b->cap = b->cap ? 2 * b->cap : 1024;
    b->s = realloc(b->s, b->cap);
    if (!b->s) abort();
}

void pb_sb_puts(pb_strbuf *b, const char *s) {
    size_t k = strlen(s);
    sb_grow(b, k);
    memcpy(b->s + b->n, s, k + 1);
    b->n += k;
}

void pb_sb_printf(pb_strbuf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (k < 0) abort();
    sb_grow(b, (size_t)k);
    va_start(ap, fmt);
    vsnprintf(b->s + b->n, (size_t)k + 1, fmt, ap);
    va_end(ap);
    b->n += (size_t)k;
}

void pb_sb_xml(pb_strbuf *b, const char *s) {
    for (; *s; s++) {
        const char *e = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : *s == '"' ? "&quot;" : NULL;
        if (e) pb_sb_puts(b, e);
        else {
            char c[2] = {*s, 0};
            pb_sb_puts(b, c);
        }
    }
}
