/* record_fuzz.c - libFuzzer target for the game-record parser.
 *
 * The first byte of an input picks the field and rule set, the rest is the
 * record.  Whatever the bytes, pb_record_parse must return 0 or -1 without
 * crashing, write a one-line NUL-terminated message on failure, and leave a
 * game that frees cleanly; a record it accepts must print canonically and
 * parse back to the same game, and the canonical text must be stable.
 * A broken property aborts, which libFuzzer reports with the input.
 *
 * With bit 0x40 of the first byte set, the rest of the input instead
 * chooses a legal game (each byte picks one of the first 64 routes of the
 * turn, its high bits may annotate it), which reaches the deep positions, goals, dead ends and kick
 * chains that random text rarely does; its canonical record must read back
 * the same, and every prefix of that record must parse or be refused
 * cleanly.
 *
 * Built by scripts/fuzz.sh with clang -fsanitize=fuzzer,address,undefined;
 * tests/test_fuzz_replay.c includes this file and feeds it the corpus in
 * tests/fuzz/corpus/ under ctest, without clang.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"

#define FUZZ_NFIELDS 6

/* The fields, built once: libFuzzer calls the target millions of times. */
static const pb_field *fuzz_field(int which) {
    static pb_field *fields[FUZZ_NFIELDS];
    static const pb_field_spec specs[FUZZ_NFIELDS] = {
        {PB_RULES_BOOK, 2, 6, 8, 0, PB_DEAD_END_DRAW},    {PB_RULES_BOOK, 2, 2, 2, 0, PB_DEAD_END_DRAW},
        {PB_RULES_HOCKEY, 2, 8, 10, 1, PB_DEAD_END_DRAW}, {PB_RULES_HOCKEY, 2, 4, 4, 0, PB_DEAD_END_LOSS},
        {PB_RULES_BOOK, 2, 30, 30, 0, PB_DEAD_END_DRAW},  {PB_RULES_TRIPLE, 2, 6, 8, 0, PB_DEAD_END_DRAW},
    };
    if (!fields[which]) {
        char err[200];
        fields[which] = pb_field_new(&specs[which], err, sizeof err);
        if (!fields[which]) {
            fprintf(stderr, "record_fuzz: field %d: %s\n", which, err);
            abort();
        }
    }
    return fields[which];
}

static void fuzz_check(int ok, const char *what, const char *text) {
    if (ok) return;
    fprintf(stderr, "record_fuzz: %s\n  record: %s\n", what, text);
    abort();
}

typedef struct fuzz_pick {
    long want, seen;
    int16_t *nodes;
    int len, kick;
} fuzz_pick;

/* Keeps route number want (or the last one seen if there are fewer) and
 * stops there: the number of routes of a turn can grow exponentially with
 * the bounces available (the fuzzer found a 30x30 position where counting
 * them all took longer than its 10 s timeout), so never count them all. */
static int fuzz_pick_route(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    (void)f, (void)after;
    fuzz_pick *p = ctx;
    memcpy(p->nodes, r->nodes, sizeof(int16_t) * (size_t)r->len);
    p->len = r->len;
    p->kick = r->kick;
    return p->seen++ == p->want;
}

/* Parses text, and if it is accepted checks the canonical round trip. */
static void fuzz_record(const pb_field *f, const char *text);

/* The game chosen by the bytes: a round trip, then every prefix. */
static void fuzz_chosen_game(const pb_field *f, const uint8_t *data, size_t size) {
    static const char *const annots[] = {"!", "??", "act", "\xd0\xba\xd1\x83\xc2\xb2", "!? mpk"};
    pb_game g;
    pb_game_init(&g, f, data[0] & 0x80 ? PB_BOTTOM : PB_TOP);
    int16_t *nodes = malloc(sizeof(int16_t) * (size_t)(6 * f->nsegments + 2));
    char err[256];
    for (size_t i = 1; i < size && i < 300 && g.end == PB_END_NONE; i++) {
        fuzz_pick p = {data[i] & 0x3f, 0, nodes, 0, 0};
        if (pb_routes_foreach(f, &g.pos, fuzz_pick_route, &p) == 0) break;
        fuzz_check(pb_game_play(&g, p.nodes, p.len, p.kick, err, sizeof err) == 0, err, "(chosen game)");
        if (data[i] & 0x80) strcpy(g.turns[g.nturns - 1].annot, annots[(data[i] >> 5) % 5]);
    }
    char *canon = pb_record_format(&g);
    pb_game h;
    fuzz_check(pb_record_parse(f, canon, &h, err, sizeof err) == 0, err, canon);
    fuzz_check(h.nturns == g.nturns && pb_position_equal(f, &g.pos, &h.pos) && h.end == g.end,
               "the chosen game does not read back", canon);
    pb_game_free(&h);
    size_t n = strlen(canon);
    for (size_t cut = 0; cut < n; cut += 1 + cut / 8) {
        char keep = canon[cut];
        canon[cut] = 0;
        fuzz_record(f, canon);
        canon[cut] = keep;
    }
    free(canon);
    free(nodes);
    pb_game_free(&g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    const pb_field *f = fuzz_field(data[0] % FUZZ_NFIELDS);
    if (data[0] & 0x40) {
        fuzz_chosen_game(f, data, size);
        return 0;
    }
    char *text = malloc(size);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
    fuzz_record(f, text);
    free(text);
    return 0;
}

static void fuzz_record(const pb_field *f, const char *text) {
    pb_game g, h;
    char err[256];
    memset(err, 'x', sizeof err);
    if (pb_record_parse(f, text, &g, err, sizeof err)) {
        fuzz_check(memchr(err, 0, sizeof err) != NULL, "error message not terminated", text);
        fuzz_check(err[0] != 0, "empty error message", text);
        fuzz_check(strchr(err, '\n') == NULL && strchr(err, '\r') == NULL, "error message spans lines", text);
        fuzz_check(g.nturns == 0 && g.end == PB_END_NONE, "a failed parse left turns behind", text);
    } else {
        char *canon = pb_record_format(&g);
        int back = pb_record_parse(f, canon, &h, err, sizeof err);
        fuzz_check(back == 0, err, canon);
        fuzz_check(h.nturns == g.nturns && h.first == g.first && h.end == g.end && h.loser == g.loser,
                   "canonical record parses to another game", canon);
        fuzz_check(pb_position_equal(f, &g.pos, &h.pos) && g.pos.hash == h.pos.hash,
                   "canonical record reaches another position", canon);
        for (int i = 0; i < g.nturns; i++)
            fuzz_check(!strcmp(g.turns[i].annot, h.turns[i].annot) && g.turns[i].len == h.turns[i].len &&
                           g.turns[i].kick == h.turns[i].kick,
                       "canonical record changes a turn", canon);
        char *again = pb_record_format(&h);
        fuzz_check(!strcmp(canon, again), "canonical record is not stable", canon);
        free(again);
        free(canon);
        pb_game_free(&h);
    }
    pb_game_free(&g);
}
