/* record_fuzz.c - libFuzzer target for the game-record parser.
 *
 * The first byte of an input picks the field and rule set, the rest is the
 * record.  Whatever the bytes, pb_record_parse must return 0 or -1 without
 * crashing, write a one-line NUL-terminated message on failure, and leave a
 * game that frees cleanly; a record it accepts must print canonically and
 * parse back to the same game, and the canonical text must be stable.
 * A broken property aborts, which libFuzzer reports with the input.
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
        {PB_RULES_BOOK, 2, 6, 8, 0, PB_DEAD_END_DRAW},   {PB_RULES_BOOK, 2, 2, 2, 0, PB_DEAD_END_DRAW},
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    const pb_field *f = fuzz_field(data[0] % FUZZ_NFIELDS);
    char *text = malloc(size);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
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
    free(text);
    return 0;
}
