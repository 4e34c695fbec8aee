/* test_notation.c - game records (solver/notation.c): round trips of random
 * legal games on several fields and rule sets, records written in the
 * book's many ways, exact positions after specific records, and one test per
 * class of malformed record with its exact message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "game.h"

/* ---- a seeded PRNG of our own (splitmix64), so runs repeat exactly ---- */

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t rng_next(rng *r) {
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static int rng_below(rng *r, int n) { return (int)(rng_next(r) % (uint64_t)n); }

/* ---- fields ---- */

static pb_field *field(pb_rules rules, int g, int w, int l, int setback, pb_dead_end de) {
    pb_field_spec s = {rules, g, w, l, setback, de};
    char err[200];
    pb_field *f = pb_field_new(&s, err, sizeof err);
    if (!f) fail_msg("field: %s", err);
    return f;
}
static pb_field *book(int g, int w, int l) { return field(PB_RULES_BOOK, g, w, l, 0, PB_DEAD_END_DRAW); }

static int node(const pb_field *f, const char *name) {
    int used;
    int i = pb_node_parse(f, name, &used);
    assert_true(i >= 0);
    return i;
}
static int drawn(const pb_field *f, const pb_position *p, const char *a, const char *b) {
    int s = pb_seg_between(f, node(f, a), node(f, b));
    assert_true(s >= 0);
    return pb_drawn(p, s);
}

/* ---- random legal games ---- */

typedef struct pick {
    long want, seen;
    int16_t *nodes;
    int len, kick;
} pick;

static int pick_route(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    (void)f, (void)after;
    pick *p = ctx;
    if (p->seen++ != p->want) return 0;
    memcpy(p->nodes, r->nodes, sizeof(int16_t) * (size_t)r->len);
    p->len = r->len;
    p->kick = r->kick;
    return 1;
}

/* The annotations as the parser stores them. */
static const char *const annots[] = {"!!",  "!",   "?",   "??", "!?",    "?!",   "act",
                                     "pas", "ку²", "mpk", "БП", "ЧВ(В)", "ЧВ(Н)"};
#define NANNOTS (int)(sizeof annots / sizeof annots[0])

/* Plays a random legal game (at most max_turns turns) into g, annotating
 * about one turn in three with one or two annotations. */
static void random_game(const pb_field *f, rng *r, pb_game *g, int max_turns) {
    pb_game_init(g, f, rng_below(r, 3) == 0 ? PB_BOTTOM : PB_TOP);
    int16_t *nodes = malloc(sizeof(int16_t) * (size_t)(6 * f->nsegments + 2));
    char err[200];
    while (g->end == PB_END_NONE && g->nturns < max_turns) {
        long n = pb_routes_foreach(f, &g->pos, NULL, NULL);
        /* A game that goes on always has a turn: in triple, a ply that
         * leaves the opponent stuck without a kick ends the game. */
        assert_true(n > 0);
        pick p = {rng_below(r, (int)n), 0, nodes, 0, 0};
        assert_int_equal(pb_routes_foreach(f, &g->pos, pick_route, &p), -1);
        if (pb_game_play(g, p.nodes, p.len, p.kick, err, sizeof err)) fail_msg("play: %s", err);
        if (rng_below(r, 3) == 0) {
            char *a = g->turns[g->nturns - 1].annot;
            int k = 1 + rng_below(r, 2);
            for (int j = 0; j < k; j++) {
                if (j) strcat(a, " ");
                strcat(a, annots[rng_below(r, NANNOTS)]);
            }
        }
    }
    free(nodes);
}

/* The two games are the same: who began, every route, kick flag,
 * annotation and outcome, and the position now. */
static void assert_same_game(const pb_game *a, const pb_game *b) {
    assert_int_equal(a->first, b->first);
    assert_int_equal(a->nturns, b->nturns);
    for (int i = 0; i < a->nturns; i++) {
        const pb_game_turn *x = &a->turns[i], *y = &b->turns[i];
        assert_int_equal(x->len, y->len);
        assert_memory_equal(x->nodes, y->nodes, sizeof(int16_t) * (size_t)x->len);
        assert_int_equal(x->kick, y->kick);
        assert_int_equal(x->mover, y->mover);
        assert_int_equal(x->end, y->end);
        assert_int_equal(x->loser, y->loser);
        assert_string_equal(x->annot, y->annot);
    }
    assert_true(pb_position_equal(a->field, &a->pos, &b->pos));
    assert_true(a->pos.hash == b->pos.hash);
    assert_int_equal(a->end, b->end);
    assert_int_equal(a->loser, b->loser);
}

/* The same game written in the book's other ways: move numbers as "1.",
 * "1..." or "1)" or none, en dashes, comments, "ку2", the Cyrillic end mark,
 * a Latin header, marks apart from the route. */
static char *noisy_record(const pb_game *g, rng *r) {
    size_t cap = 256;
    for (int i = 0; i < g->nturns; i++) cap += 8 * (size_t)g->turns[i].len + 64;
    char *out = malloc(cap), name[8];
    size_t n = 0;
#define PUT(...) (n += (size_t)snprintf(out + n, cap - n, __VA_ARGS__))
    out[0] = 0;
    if (g->first == PB_BOTTOM) {
        static const char *const headers[] = {"(Н;В)", "(B;T)", "(Н; В)", "(н;в)", "(H;B)"};
        PUT("%s", headers[rng_below(r, 5)]);
    } else if (rng_below(r, 2)) {
        static const char *const headers[] = {"(В;Н)", "(T;B)", "(B;H)"};
        PUT("%s", headers[rng_below(r, 3)]);
    }
    if (rng_below(r, 4) == 0) PUT(" {a comment, with 1. d6-e7 inside}\n");
    for (int i = 0; i < g->nturns; i++) {
        const pb_game_turn *t = &g->turns[i];
        static const char *const seps[] = {" ", "\n", "\t", ", ", "  "};
        PUT("%s", seps[rng_below(r, 5)]);
        switch (rng_below(r, 5)) {
            case 0: PUT("%d. ", i + 1); break;
            case 1: PUT("%d.", i + 1); break;
            case 2: PUT("%d) ", i + 1); break;
            case 3: PUT("%d... ", (i + 2) / 2); break;
            default: break;
        }
        if (t->kick) PUT("*");
        for (int k = 0; k < t->len; k++)
            PUT("%s%s", k == 0 ? "" : rng_below(r, 4) == 0 ? "–" : "-", pb_node_name(g->field, t->nodes[k], name));
        /* The annotations, each attached or apart, "ку²" sometimes as "ку2". */
        char copy[PB_ANNOT_LEN];
        memcpy(copy, t->annot, sizeof copy);
        int first = 1;
        for (char *save = NULL, *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save), first = 0) {
            /* Only the first mark may stick to the route: "!!" "!" written
             * together would read as "!!!". */
            int mark = w[0] == '!' || w[0] == '?';
            PUT("%s%s", first && mark && rng_below(r, 2) ? "" : " ", !strcmp(w, "ку²") && rng_below(r, 2) ? "ку2" : w);
        }
        if (rng_below(r, 8) == 0) PUT(" {note}");
    }
    if (g->end != PB_END_NONE && rng_below(r, 3)) PUT(" %s", rng_below(r, 2) ? "X" : "Х");
    if (rng_below(r, 3) == 0) PUT("\n");
#undef PUT
    assert_true(n < cap);
    return out;
}

/* Plays games games on f: canonical record -> parse -> the same game, and
 * the record printed again is the same text; a noisy record parses to the
 * same game too.  Returns the number of finished games. */
static int round_trips(const pb_field *f, uint64_t seed, int games, int max_turns) {
    rng r = {seed};
    char err[256];
    int finished = 0;
    for (int i = 0; i < games; i++) {
        pb_game g, h, k;
        random_game(f, &r, &g, max_turns);
        finished += g.end != PB_END_NONE;
        char *text = pb_record_format(&g);
        if (pb_record_parse(f, text, &h, err, sizeof err)) fail_msg("'%s': %s", text, err);
        assert_same_game(&g, &h);
        char *again = pb_record_format(&h);
        assert_string_equal(text, again);
        char *noisy = noisy_record(&g, &r);
        if (pb_record_parse(f, noisy, &k, err, sizeof err)) fail_msg("'%s': %s", noisy, err);
        assert_same_game(&g, &k);
        /* The game cut short by one turn is its canonical record's prefix. */
        if (g.nturns > 0) {
            pb_game_undo(&g);
            char *shorter = pb_record_format(&g);
            assert_true(strncmp(text, shorter, strlen(shorter)) == 0);
            free(shorter);
        }
        free(text), free(again), free(noisy);
        pb_game_free(&g), pb_game_free(&h), pb_game_free(&k);
    }
    return finished;
}

static void test_round_trip_book(void **state) {
    (void)state;
    struct {
        int g, w, l, games;
    } fields[] = {{2, 6, 8, 300}, {2, 2, 2, 100}, {2, 8, 10, 60}, {4, 8, 6, 60}, {2, 4, 4, 100}};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        pb_field *f = book(fields[i].g, fields[i].w, fields[i].l);
        int finished = round_trips(f, 1000 + i, fields[i].games, 400);
        /* Book games always end; random ones end within 400 turns. */
        assert_int_equal(finished, fields[i].games);
        pb_field_free(f);
    }
}

static void test_round_trip_hockey(void **state) {
    (void)state;
    struct {
        int g, w, l, s;
        pb_dead_end de;
    } fields[] = {{2, 8, 10, 1, PB_DEAD_END_DRAW},
                  {2, 8, 10, 0, PB_DEAD_END_LOSS},
                  {2, 4, 6, 1, PB_DEAD_END_LOSS},
                  {4, 6, 6, 2, PB_DEAD_END_DRAW}};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        pb_field *f = field(PB_RULES_HOCKEY, fields[i].g, fields[i].w, fields[i].l, fields[i].s, fields[i].de);
        int finished = round_trips(f, 2000 + i, 80, 400);
        assert_int_equal(finished, 80);
        pb_field_free(f);
    }
}

/* Triple: normal moves and free-kick chains ("*d6-..."), with the end
 * mark also after a ply that leaves the opponent stuck without a kick. */
static void test_round_trip_triple(void **state) {
    (void)state;
    pb_field *f = field(PB_RULES_TRIPLE, 2, 6, 8, 0, PB_DEAD_END_DRAW);
    rng r = {4000};
    int kicks = 0, finished = 0;
    for (int i = 0; i < 150; i++) {
        pb_game g, h;
        char err[256];
        random_game(f, &r, &g, 400);
        for (int t = 0; t < g.nturns; t++) kicks += g.turns[t].kick;
        char *text = pb_record_format(&g);
        if (pb_record_parse(f, text, &h, err, sizeof err)) fail_msg("'%s': %s", text, err);
        assert_same_game(&g, &h);
        char *again = pb_record_format(&h);
        assert_string_equal(text, again);
        finished += strlen(text) > 0 && text[strlen(text) - 1] == 'X';
        free(text), free(again);
        pb_game_free(&g), pb_game_free(&h);
    }
    /* Random triple games do reach free kicks and do end. */
    assert_true(kicks > 0);
    assert_int_equal(finished, 150);
    /* And in the book's other spellings. */
    round_trips(f, 4001, 100, 400);
    pb_field_free(f);
}

/* Unfinished games too: records cut after a random number of turns. */
static void test_round_trip_unfinished(void **state) {
    (void)state;
    pb_field *f = book(2, 6, 8);
    round_trips(f, 3000, 100, 6);
    pb_field_free(f);
}

/* Every kind of ending shows up among the random games, so the round trips
 * above covered goals, own goals and dead ends. */
static void test_random_games_reach_every_ending(void **state) {
    (void)state;
    pb_field *f = book(2, 6, 8);
    rng r = {77};
    int goal = 0, own = 0, dead = 0;
    for (int i = 0; i < 200; i++) {
        pb_game g;
        random_game(f, &r, &g, 1000);
        assert_true(g.end != PB_END_NONE);
        if (g.end == PB_END_DEAD_END) dead++;
        else if (g.loser == g.turns[g.nturns - 1].mover) own++;
        else goal++;
        pb_game_free(&g);
    }
    assert_true(goal > 0 && own > 0 && dead > 0);
    pb_field_free(f);
}

/* ---- specific records ---- */

static void parse_ok(const pb_field *f, const char *text, pb_game *g) {
    char err[256];
    if (pb_record_parse(f, text, g, err, sizeof err)) fail_msg("'%s': %s", text, err);
}

static void test_parse_two_turns(void **state) {
    (void)state;
    pb_field *f = book(2, 6, 8);
    pb_game g;
    parse_ok(f, "1. d6-e7 2. e7-f8", &g);
    assert_int_equal(g.nturns, 2);
    assert_int_equal(g.first, PB_TOP);
    assert_int_equal(g.turns[0].mover, PB_TOP);
    assert_int_equal(g.turns[1].mover, PB_BOTTOM);
    assert_int_equal(g.pos.ball, node(f, "f8"));
    assert_int_equal(g.pos.to_move, PB_TOP);
    assert_int_equal(pb_position_drawn_count(f, &g.pos), 2);
    assert_true(drawn(f, &g.pos, "d6", "e7"));
    assert_true(drawn(f, &g.pos, "e7", "f8"));
    assert_false(drawn(f, &g.pos, "d6", "e6"));
    assert_int_equal(g.end, PB_END_NONE);
    char *text = pb_record_format(&g);
    assert_string_equal(text, "1. d6-e7 2. e7-f8");
    free(text);
    pb_game_free(&g);
    pb_field_free(f);
}

/* A bounce off the centre: e6-d6 reaches an occupied node, so the route
 * goes on to c7. */
static void test_parse_bounce(void **state) {
    (void)state;
    pb_field *f = book(2, 6, 8);
    pb_game g;
    parse_ok(f, "1. d6-e7 2. e7-e6 3. e6-d6-c7", &g);
    assert_int_equal(g.nturns, 3);
    assert_int_equal(g.turns[2].len, 3);
    assert_int_equal(g.turns[2].mover, PB_TOP);
    assert_int_equal(g.pos.ball, node(f, "c7"));
    assert_int_equal(g.pos.to_move, PB_BOTTOM);
    assert_int_equal(pb_position_drawn_count(f, &g.pos), 4);
    assert_true(drawn(f, &g.pos, "e6", "d6") && drawn(f, &g.pos, "d6", "c7"));
    pb_game_free(&g);
    pb_field_free(f);
}

/* The header names who plays first; each spelling. */
static void test_parse_header(void **state) {
    (void)state;
    pb_field *f = book(2, 6, 8);
    struct {
        const char *text;
        int first;
    } cases[] = {
        {"(В;Н) d6-e7", PB_TOP}, {"(Н;В) d6-e7", PB_BOTTOM}, {"(T;B) d6-e7", PB_TOP},        {"(B;T) d6-e7", PB_BOTTOM},
        {"(B;H) d6-e7", PB_TOP}, {"(H;B) d6-e7", PB_BOTTOM}, {"( Н ; В ) d6-e7", PB_BOTTOM}, {"d6-e7", PB_TOP},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pb_game g;
        parse_ok(f, cases[i].text, &g);
        assert_int_equal(g.first, cases[i].first);
        assert_int_equal(g.turns[0].mover, cases[i].first);
        assert_int_equal(g.pos.to_move, cases[i].first ^ 1);
        char *text = pb_record_format(&g);
        assert_string_equal(text, cases[i].first == PB_BOTTOM ? "(Н;В) 1. d6-e7" : "1. d6-e7");
        free(text);
        pb_game_free(&g);
    }
    /* A header alone: the start, Bottom to move. */
    pb_game g;
    parse_ok(f, "(Н;В)", &g);
    assert_int_equal(g.nturns, 0);
    assert_int_equal(g.pos.to_move, PB_BOTTOM);
    assert_int_equal(g.pos.ball, f->centre);
    pb_game_free(&g);
    pb_field_free(f);
}

static void test_parse_annotations(void **state) {
    (void)state;
    pb_field *f = book(2, 6, 8);
    pb_game g;
    parse_ok(f, "1. d6-e7!? act 2. e7-f8 ку2 ЧВ(Н) 3) f8-g8-f9?? 4... f9-e9 ! БП 5.e9-d9 ?! mpk pas", &g);
    assert_int_equal(g.nturns, 5);
    assert_string_equal(g.turns[0].annot, "!? act");
    assert_string_equal(g.turns[1].annot, "ку² ЧВ(Н)");
    assert_string_equal(g.turns[2].annot, "??");
    assert_string_equal(g.turns[3].annot, "! БП");
    assert_string_equal(g.turns[4].annot, "?! mpk pas");
    assert_int_equal(g.pos.ball, node(f, "d9"));
    char *text = pb_record_format(&g);
    assert_string_equal(text, "1. d6-e7!? act 2. e7-f8 ку² ЧВ(Н) 3. f8-g8-f9?? 4. f9-e9! БП 5. e9-d9?! mpk pas");
    free(text);
    pb_game_free(&g);
    parse_ok(f, "d6-e7!! e7-f8? f8-e8 ЧВ(В) e8-d8 ку²", &g);
    assert_string_equal(g.turns[0].annot, "!!");
    assert_string_equal(g.turns[1].annot, "?");
    assert_string_equal(g.turns[2].annot, "ЧВ(В)");
    assert_string_equal(g.turns[3].annot, "ку²");
    pb_game_free(&g);
    pb_field_free(f);
}

/* Separators, comments, en dashes, move numbers of every form, and
 * nothing at all. */
static void test_parse_layout(void **state) {
    (void)state;
    pb_field *f = book(2, 6, 8);
    pb_game g;
    parse_ok(f, "{Партия 1}\n1.d6–e7,\t1…e7-f8;\r\n 2) f8-g8-f9 {the end?} ", &g);
    assert_int_equal(g.nturns, 3);
    assert_int_equal(g.pos.ball, node(f, "f9"));
    pb_game_free(&g);
    parse_ok(f, "   \n {only a comment} ", &g);
    assert_int_equal(g.nturns, 0);
    assert_int_equal(g.pos.ball, f->centre);
    assert_int_equal(g.pos.to_move, PB_TOP);
    pb_game_free(&g);
    parse_ok(f, "", &g);
    char *text = pb_record_format(&g);
    assert_string_equal(text, "");
    free(text);
    pb_game_free(&g);
    pb_field_free(f);
}

/* Endings: own goal, goal, dead end, each with the end mark. */
static void test_parse_endings(void **state) {
    (void)state;
    pb_field *tiny = book(2, 2, 2), *f = book(2, 6, 8);
    pb_game g;
    char res[96];
    /* Bottom steps into its own goal b1. */
    parse_ok(tiny, "1. b3-b2 2. b2-b1 X", &g);
    assert_int_equal(g.end, PB_END_GOAL);
    assert_int_equal(g.loser, PB_BOTTOM);
    assert_int_equal(g.turns[1].mover, PB_BOTTOM);
    assert_string_equal(pb_game_result(&g, res, sizeof res), "own goal: Top wins");
    char *text = pb_record_format(&g);
    assert_string_equal(text, "1. b3-b2 2. b2-b1 X");
    free(text);
    pb_game_free(&g);
    /* The same moves with Bottom first: now Top scores in Bottom's goal. */
    parse_ok(tiny, "(Н;В) 1. b3-b2 2. b2-b1 Х", &g);
    assert_int_equal(g.loser, PB_BOTTOM);
    assert_int_equal(g.turns[1].mover, PB_TOP);
    assert_string_equal(pb_game_result(&g, res, sizeof res), "goal: Top wins");
    pb_game_free(&g);
    /* Into the corner g2: its only segment is the one just drawn. */
    parse_ok(f, "1. d6-e5 2. e5-f4 3. f4-f3 4. f3-g2 X", &g);
    assert_int_equal(g.end, PB_END_DEAD_END);
    assert_int_equal(g.loser, PB_BOTTOM);
    assert_int_equal(g.pos.ball, node(f, "g2"));
    pb_game_free(&g);
    /* The end mark is optional. */
    parse_ok(f, "1. d6-e5 2. e5-f4 3. f4-f3 4. f3-g2", &g);
    assert_int_equal(g.end, PB_END_DEAD_END);
    text = pb_record_format(&g);
    assert_string_equal(text, "1. d6-e5 2. e5-f4 3. f4-f3 4. f3-g2 X");
    free(text);
    pb_game_free(&g);
    pb_field_free(tiny);
    pb_field_free(f);
}

/* Hockey: a goal node reached from behind is a bounce. */
static void test_parse_hockey(void **state) {
    (void)state;
    pb_field *f = field(PB_RULES_HOCKEY, 2, 8, 10, 1, PB_DEAD_END_DRAW);
    pb_game g;
    parse_ok(f, "1. e6-e5 2. e5-e4 3. e4-e3 4. e3-e2 X", &g);
    assert_int_equal(g.end, PB_END_GOAL);
    assert_int_equal(g.loser, PB_BOTTOM);
    pb_game_free(&g);
    pb_field_free(f);
}

/* Triple: a free-kick chain written with '*'.  After 1. and 2. Top is
 * stuck on f9, so Bottom kicks six steps down the f file and Top moves on
 * from f3. */
static void test_parse_triple_kick(void **state) {
    (void)state;
    pb_field *f = field(PB_RULES_TRIPLE, 2, 6, 8, 0, PB_DEAD_END_DRAW);
    pb_game g;
    parse_ok(f, "1. d6-e6-d7-e7 2. e7-f8-e9-f9 3. *f9-f8-f7-f6-f5-f4-f3", &g);
    assert_int_equal(g.nturns, 3);
    assert_int_equal(g.turns[2].kick, 1);
    assert_int_equal(g.turns[2].len, 7);
    assert_int_equal(g.turns[2].mover, PB_BOTTOM);
    assert_int_equal(g.pos.ball, node(f, "f3"));
    assert_int_equal(g.pos.to_move, PB_TOP);
    assert_int_equal(pb_position_drawn_count(f, &g.pos), 12);
    assert_true(drawn(f, &g.pos, "f5", "f4"));
    char *text = pb_record_format(&g);
    assert_string_equal(text, "1. d6-e6-d7-e7 2. e7-f8-e9-f9 3. *f9-f8-f7-f6-f5-f4-f3");
    free(text);
    pb_game_free(&g);
    /* The same nodes without '*' are a normal move, which is illegal. */
    char err[256];
    assert_int_equal(pb_record_parse(f, "1. d6-e6-d7-e7 2. e7-f8-e9-f9 3. f9-f8-f7-f6-f5-f4-f3", &g, err, sizeof err),
                     -1);
    assert_true(strncmp(err, "move 3 (f9-f8-f7-f6-f5-f4-f3): ", 31) == 0);
    pb_game_free(&g);
    pb_field_free(f);
}

/* ---- malformed records: the exact one-line message ---- */

typedef struct bad_case {
    const char *text, *message;
    int exact; /* 0: message is the start and the reason a part of it */
    const char *reason;
} bad_case;

static void check_bad(const pb_field *f, const bad_case *c) {
    pb_game g;
    char err[256];
    memset(err, 0, sizeof err);
    int rc = pb_record_parse(f, c->text, &g, err, sizeof err);
    if (rc != -1) fail_msg("'%s' was accepted", c->text);
    if (c->exact) {
        if (strcmp(err, c->message)) fail_msg("'%s': got \"%s\", want \"%s\"", c->text, err, c->message);
    } else {
        if (strncmp(err, c->message, strlen(c->message)) || !strstr(err, c->reason))
            fail_msg("'%s': got \"%s\", want \"%s...%s...\"", c->text, err, c->message, c->reason);
    }
    assert_null(strchr(err, '\n'));
    /* A failed parse leaves an empty game at the start. */
    assert_int_equal(g.nturns, 0);
    assert_int_equal(g.pos.ball, f->centre);
    pb_game_free(&g);
}

static void test_malformed(void **state) {
    (void)state;
    pb_field *f = book(2, 6, 8);
    static const bad_case cases[] = {
        /* Lexical classes: messages written by notation.c. */
        {"1. d6-e7 2. z9-e8", "move 2: bad node 'z9'", 1, NULL},
        {"d6-e7 e7-E8", "move 2: bad node 'E8'", 1, NULL},
        {"d6-e7 e7-a0", "move 2: bad node 'a0'", 1, NULL},
        {"d6-e7 e7-e1234", "move 2: bad node 'e1234'", 1, NULL},
        {"d6-e7 e7-abc8", "move 2: bad node 'abc8'", 1, NULL},
        {"d6-e7 e7-e8x", "move 2: bad node 'e8x'", 1, NULL},
        {"d6-e7 e7-e8(", "move 2: bad node 'e8('", 1, NULL},
        {"d6-e7 e7-", "move 2: a node is missing in 'e7-'", 1, NULL},
        {"d6--e7", "move 1: a node is missing in 'd6-'", 1, NULL},
        {"d6-e7 foo", "unknown annotation 'foo' after move 1", 1, NULL},
        {"1. d6-e7 2. e7-f8 3. f8-e8 4. e8-d8 ?!? 5. d8-c8", "unknown annotation '?!?' after move 4", 1, NULL},
        {"d6-e7 act!", "unknown annotation 'act!' after move 1", 1, NULL},
        {"d6-e7 ку3", "unknown annotation 'ку3' after move 1", 1, NULL},
        {"! d6-e7", "annotation '!' before the first move", 1, NULL},
        {"act d6-e7", "annotation 'act' before the first move", 1, NULL},
        {"foo", "move 1: unexpected 'foo' (expected a route such as d6-e7)", 1, NULL},
        {"d6-e7 !! ! ? ?? !? ?! act pas mpk", "too many annotations after move 1 (at most 23 bytes)", 1, NULL},
        {"12 d6-e7", "move 1: bad move number '12': write it as 1. or 1... or 1)", 1, NULL},
        {"d6-e7 2: e7-f8", "move 2: bad move number '2:': write it as 1. or 1... or 1)", 1, NULL},
        {"(В;В) d6-e7", "bad header '(В;В)': expected (В;Н) or (Н;В)", 1, NULL},
        {"(T;X) d6-e7", "bad header '(T;X)': expected (В;Н) or (Н;В)", 1, NULL},
        {"(В;Н d6-e7", "bad header '(В;Н': expected (В;Н) or (Н;В)", 1, NULL},
        {"d6-e7 (Н;В)", "move 2: the header '(Н;В)' must come before the first move", 1, NULL},
        {"d6-e7 {open", "unterminated comment '{open' after move 1", 1, NULL},
        {"d6-e7 X", "end mark 'X' after move 1, but the game goes on", 1, NULL},
        {"Х", "end mark 'Х' before the first move", 1, NULL},
        {"1. d6-e5 2. e5-f4 3. f4-f3 4. f3-g2 X g2-f2", "text after the end mark: 'g2-f2'", 1, NULL},
        {"1. d6-e5 2. e5-f4 3. f4-f3 4. f3-g2 5. g2-f2", "move 5: the game is already over", 1, NULL},
        /* Rule classes: the reason comes from pb_route_play. */
        {"1. d6-e7 2. e7-d6", "move 2 (e7-d6): ", 0, "already drawn"},
        {"1. d6-e7 2. e7-g9", "move 2 (e7-g9): ", 0, "not a step to a neighbouring node"},
        {"1. d6-e7 2. d6-c7", "move 2 (d6-c7): ", 0, "the ball is on e7"},
        {"1. d6-e7 2. e7-f8-g8", "move 2 (e7-f8-g8): ", 0, "stops on the empty node f8"},
        {"1. d6-e7 2. e7-e6 3. e6-d6", "move 3 (e6-d6): ", 0, "occupied node"},
        {"1. d6-e5 2. e5-f4 3. f4-g4-g5", "move 3 (f4-g4-g5): ", 0, "border"},
        {"d6", "move 1 (d6): ", 0, "at least two nodes"},
        {"*d6-d7", "move 1 (*d6-d7): ", 0, "triple"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_bad(f, &cases[i]);
    pb_field_free(f);
}

/* A route longer than any turn is refused before it is played. */
static void test_malformed_long_route(void **state) {
    (void)state;
    pb_field *f = book(2, 2, 2);
    size_t cap = 8 * (size_t)f->nsegments + 64;
    char *text = malloc(cap);
    strcpy(text, "b3");
    for (int i = 0; i < f->nsegments + 2; i++) strcat(text, i % 2 ? "-b3" : "-b2");
    bad_case c = {text, "move 1: the route 'b3-b2-b3-b2-b3-b2-b3-b2-b3-b2-b3...' is longer than any turn on this field",
                  1, NULL};
    check_bad(f, &c);
    free(text);
    pb_field_free(f);
}

/* Long and binary junk in errors is quoted short, on one line. */
static void test_malformed_quote(void **state) {
    (void)state;
    pb_field *f = book(2, 6, 8);
    bad_case c1 = {"d6-e7 \x01\x02\x7fzz", "unknown annotation '\\x01\\x02\\x7fzz' after move 1", 1, NULL};
    check_bad(f, &c1);
    bad_case c2 = {"d6-e7 ЧВЧВЧВЧВЧВЧВЧВЧВЧВЧВ", "unknown annotation 'ЧВЧВЧВЧВЧВЧВЧВЧВ...' after move 1", 1, NULL};
    check_bad(f, &c2);
    pb_field_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_two_turns),   cmocka_unit_test(test_parse_bounce),
        cmocka_unit_test(test_parse_header),      cmocka_unit_test(test_parse_annotations),
        cmocka_unit_test(test_parse_layout),      cmocka_unit_test(test_parse_endings),
        cmocka_unit_test(test_parse_hockey),      cmocka_unit_test(test_parse_triple_kick),
        cmocka_unit_test(test_malformed),         cmocka_unit_test(test_malformed_long_route),
        cmocka_unit_test(test_malformed_quote),   cmocka_unit_test(test_round_trip_book),
        cmocka_unit_test(test_round_trip_hockey), cmocka_unit_test(test_round_trip_unfinished),
        cmocka_unit_test(test_round_trip_triple), cmocka_unit_test(test_random_games_reach_every_ending),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
