/* turn.c - whole turns whatever the rule set: the one place that picks a
 * rule set's functions (ruleset.h), the route notation, and copies of
 * routes. */
#include "turn.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleset.h"

/* The rule set of f.  A new rule set is a file defining its pb_ruleset and
 * one line here. */
static const pb_ruleset *ruleset_of(const pb_field *f) {
    static const pb_ruleset *const table[] = {
        [PB_RULES_BOOK] = &pb_bounce_rules,
        [PB_RULES_HOCKEY] = &pb_bounce_rules,
        [PB_RULES_TRIPLE] = &pb_triple_rules,
    };
    assert((size_t)f->spec.rules < sizeof table / sizeof *table && table[f->spec.rules]);
    return table[f->spec.rules];
}

long pb_routes_foreach(const pb_field *f, pb_position *p, pb_route_fn fn, void *ctx) {
    return ruleset_of(f)->foreach (f, p, fn, ctx);
}

int pb_route_play(const pb_field *f, pb_position *p, const int16_t *nodes, int len, int kick, pb_route *info, char *err,
                  size_t errlen) {
    return ruleset_of(f)->play(f, p, nodes, len, kick, info, err, errlen);
}

int pb_route_max(const pb_field *f) { return ruleset_of(f)->max_route(f); }

int pb_turns_are_steps(const pb_field *f) { return ruleset_of(f)->steps; }

const char *pb_search_unit(const pb_field *f) { return ruleset_of(f)->unit; }

char *pb_route_format(const pb_field *f, const int16_t *nodes, int len, int kick, char *buf, size_t buflen) {
    size_t n = 0;
    char nb[8];
    buf[0] = 0;
    if (kick && n + 1 < buflen) buf[n++] = '*', buf[n] = 0;
    for (int k = 0; k < len; k++) {
        int w = snprintf(buf + n, buflen - n, "%s%s", k ? "-" : "", pb_node_name(f, nodes[k], nb));
        if (w < 0 || (size_t)w >= buflen - n) break;
        n += (size_t)w;
    }
    return buf;
}

void pb_turns_free(void *turns, int n, size_t size) {
    for (int i = 0; i < n; i++) free(*(int16_t **)(void *)((char *)turns + (size_t)i * size));
    free(turns);
}

int16_t *pb_nodes_dup(const int16_t *nodes, int n) {
    int16_t *copy = malloc(sizeof(int16_t) * (size_t)(n > 0 ? n : 1));
    if (copy && n > 0) memcpy(copy, nodes, sizeof(int16_t) * (size_t)n);
    return copy;
}
