/* json.c - the JSON writer (json.h). */
#include "json.h"

#include <assert.h>

void pb_json_string(FILE *out, const char *s) {
    fputc('"', out);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
        else if (c == '\n') fputs("\\n", out);
        else if (c == '\t') fputs("\\t", out);
        else if (c < 0x20) fprintf(out, "\\u%04x", c);
        else fputc(c, out);
    }
    fputc('"', out);
}

void pb_json_init(pb_json *j, FILE *out) {
    j->out = out;
    j->depth = 0;
}

/* The comma before an item and its key. */
static void item(pb_json *j, const char *key) {
    if (j->depth > 0) {
        if (j->items[j->depth - 1]) fputc(',', j->out);
        j->items[j->depth - 1] = 1;
        /* An object's items have keys, an array's have none. */
        assert((key != NULL) == (j->close[j->depth - 1] == '}'));
    }
    if (key) {
        pb_json_string(j->out, key);
        fputc(':', j->out);
    }
}

static void open_level(pb_json *j, const char *key, char open, char close) {
    item(j, key);
    assert(j->depth < PB_JSON_MAX_DEPTH);
    fputc(open, j->out);
    j->close[j->depth] = close;
    j->items[j->depth] = 0;
    j->depth++;
}

void pb_json_object(pb_json *j, const char *key) { open_level(j, key, '{', '}'); }
void pb_json_array(pb_json *j, const char *key) { open_level(j, key, '[', ']'); }

void pb_json_end(pb_json *j) {
    assert(j->depth > 0);
    fputc(j->close[--j->depth], j->out);
    if (j->depth == 0) fputc('\n', j->out);
}

void pb_json_str(pb_json *j, const char *key, const char *s) {
    item(j, key);
    if (s) pb_json_string(j->out, s);
    else fputs("null", j->out);
}

void pb_json_int(pb_json *j, const char *key, long long v) {
    item(j, key);
    fprintf(j->out, "%lld", v);
}

void pb_json_uint(pb_json *j, const char *key, unsigned long long v) {
    item(j, key);
    fprintf(j->out, "%llu", v);
}

void pb_json_uints(pb_json *j, const pb_json_count *counts) {
    for (const pb_json_count *c = counts; c->key; c++) pb_json_uint(j, c->key, c->value);
}

void pb_json_num(pb_json *j, const char *key, const char *fmt, double v) {
    item(j, key);
    fprintf(j->out, fmt, v);
}

void pb_json_bool(pb_json *j, const char *key, int v) {
    item(j, key);
    fputs(v ? "true" : "false", j->out);
}

void pb_json_raw(pb_json *j, const char *key, const char *text) {
    item(j, key);
    fputs(text, j->out);
}
