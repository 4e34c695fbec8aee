/* json.h - the one JSON writer of the program: streams a JSON text to a
 * FILE, putting the commas and the escapes itself.
 *
 *   pb_json j;
 *   pb_json_init(&j, stdout);
 *   pb_json_object(&j, NULL);            {
 *   pb_json_str(&j, "rules", "book");      "rules":"book",
 *   pb_json_array(&j, "depths");           "depths":[
 *   pb_json_int(&j, NULL, 3);                3
 *   pb_json_end(&j);                       ]
 *   pb_json_end(&j);                     }
 *
 * Keys are given inside objects and NULL inside arrays. */
#ifndef PB_JSON_H
#define PB_JSON_H

#include <stdio.h>

#define PB_JSON_MAX_DEPTH 32

typedef struct pb_json {
    FILE *out;
    int depth;
    char close[PB_JSON_MAX_DEPTH]; /* '}' or ']' per open level */
    char items[PB_JSON_MAX_DEPTH]; /* nonzero once a level has an item: the next needs a comma */
} pb_json;

void pb_json_init(pb_json *j, FILE *out);
void pb_json_object(pb_json *j, const char *key);
void pb_json_array(pb_json *j, const char *key);
/* Closes the innermost object or array; at depth 0 ends the line. */
void pb_json_end(pb_json *j);

void pb_json_str(pb_json *j, const char *key, const char *s); /* NULL: null */
void pb_json_int(pb_json *j, const char *key, long long v);
void pb_json_uint(pb_json *j, const char *key, unsigned long long v);
/* A run of counts, each under its key, in the order given; the list ends
 * at the key NULL:
 *   pb_json_uints(&j, (const pb_json_count[]){{"jobs", 3}, {"nodes", 70}, {NULL, 0}});
 * writes "jobs":3,"nodes":70. */
typedef struct pb_json_count {
    const char *key;
    unsigned long long value;
} pb_json_count;
void pb_json_uints(pb_json *j, const pb_json_count *counts);
/* A number printed with a printf format such as "%.6f". */
void pb_json_num(pb_json *j, const char *key, const char *fmt, double v);
void pb_json_bool(pb_json *j, const char *key, int v);
/* A value already in JSON form (e.g. the decimal digits of a GMP count). */
void pb_json_raw(pb_json *j, const char *key, const char *text);

/* Writes s as a JSON string, quotes included. */
void pb_json_string(FILE *out, const char *s);

#endif
