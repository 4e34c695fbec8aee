/* triple.c - the triple rule set (RULES.md section 3): not yet written. */
#include "turn.h"

#include <stdio.h>

long pb_triple_foreach(const pb_field *f, pb_position *p, pb_route_fn fn, void *ctx) {
    (void)f, (void)p, (void)fn, (void)ctx;
    return 0;
}

int pb_triple_play(const pb_field *f, pb_position *p, const int16_t *nodes, int len, int kick,
                   pb_route *info, char *err, size_t errlen) {
    (void)f, (void)p, (void)nodes, (void)len, (void)kick, (void)info;
    snprintf(err, errlen, "the triple rules are not implemented yet");
    return -1;
}
