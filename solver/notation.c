/* notation.c - game records (minimal: routes separated by spaces). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"

int pb_record_parse(const pb_field *f, const char *text, pb_game *g, char *err, size_t errlen) {
    pb_game_init(g, f, PB_TOP);
    const char *s = text;
    int16_t nodes[4096];
    int turn = 0;
    char why[200];
    while (*s) {
        while (*s && isspace((unsigned char)*s)) s++;
        if (!*s) break;
        int len = 0, used;
        turn++;
        for (;;) {
            int n = pb_node_parse(f, s, &used);
            if (n < 0) {
                snprintf(err, errlen, "move %d: bad node at '%.12s'", turn, s);
                return -1;
            }
            nodes[len++] = (int16_t)n;
            s += used;
            if (*s != '-') break;
            s++;
        }
        if (pb_game_play(g, nodes, len, 0, why, sizeof why)) {
            snprintf(err, errlen, "move %d: %s", turn, why);
            return -1;
        }
    }
    return 0;
}

char *pb_record_format(const pb_game *g) {
    size_t cap = 64;
    for (int i = 0; i < g->nturns; i++) cap += 8 * (size_t)g->turns[i].len + 4;
    char *out = malloc(cap), buf[4096];
    out[0] = 0;
    for (int i = 0; i < g->nturns; i++) {
        pb_route_format(g->field, g->turns[i].nodes, g->turns[i].len, g->turns[i].kick, buf, sizeof buf);
        if (i) strcat(out, " ");
        strcat(out, buf);
    }
    return out;
}
