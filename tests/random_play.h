/* random_play.h - positions reached by random play, for the tests that
 * compare the solvers (a deterministic generator, no global state).
 * Include after <cmocka.h>. */
#ifndef PB_RANDOM_PLAY_H
#define PB_RANDOM_PLAY_H

#include <stdint.h>
#include <string.h>

#include "turn.h"

/* A small deterministic generator (no global state). */
static inline uint32_t lcg(uint64_t *s) {
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(*s >> 33);
}

typedef struct pick {
    int16_t nodes[512];
    int len, kick, n, target, end;
} pick;

static inline int pick_nth(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    pick *c = ctx;
    (void)f, (void)after;
    if (c->n++ != c->target) return 0;
    memcpy(c->nodes, r->nodes, sizeof(int16_t) * (size_t)r->len);
    c->len = r->len, c->kick = r->kick, c->end = r->end;
    return 1;
}

/* Plays up to `turns` random turns that keep the game going. */
static inline void random_position(const pb_field *f, pb_position *p, int turns, uint64_t *seed) {
    pb_position_start(f, p, (lcg(seed) & 1) ? PB_TOP : PB_BOTTOM);
    for (int t = 0; t < turns; t++) {
        long n = pb_routes_foreach(f, p, NULL, NULL);
        if (n <= 0) return;
        for (int tries = 0; tries < 8; tries++) {
            pick c = {.target = (int)(lcg(seed) % (uint32_t)n)};
            pb_routes_foreach(f, p, pick_nth, &c);
            if (c.end != PB_END_NONE) continue;
            pb_route info;
            char err[200];
            assert_int_equal(pb_route_play(f, p, c.nodes, c.len, c.kick, &info, err, sizeof err), 0);
            break;
        }
    }
}

#endif
