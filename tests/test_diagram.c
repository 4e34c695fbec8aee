/* test_diagram.c - the text and SVG diagrams (solver/diagram*.c) checked on
 * rendered output: exact text of small positions, glyph and element counts
 * against the model's own figures on random games, kick and continuation
 * styles, and well-formed SVG. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagram.h"

/* ---- helpers ---------------------------------------------------------- */

static pb_field *make_field(pb_rules rules, int g, int w, int l, int s) {
    pb_field_spec sp = {rules, g, w, l, s, PB_DEAD_END_DRAW};
    char err[200];
    pb_field *f = pb_field_new(&sp, err, sizeof err);
    if (!f) fail_msg("field: %s", err);
    return f;
}

static void parse_game(const pb_field *f, const char *record, pb_game *g) {
    char err[200];
    if (pb_record_parse(f, record, g, err, sizeof err)) fail_msg("record '%s': %s", record, err);
}

static int count_substr(const char *hay, const char *needle) {
    int n = 0;
    size_t k = strlen(needle);
    for (const char *p = strstr(hay, needle); p; p = strstr(p + k, needle)) n++;
    return n;
}

/* Number of SVG elements whose opening tag contains `attr` (e.g. a class). */
static int count_elements(const char *svg, const char *tag, const char *attr) {
    int n = 0;
    char open[32];
    snprintf(open, sizeof open, "<%s ", tag);
    for (const char *p = strstr(svg, open); p; p = strstr(p + 1, open)) {
        const char *end = strchr(p, '>');
        assert_non_null(end);
        if (!attr) n++;
        else {
            size_t len = (size_t)(end - p);
            char *tagtext = strndup(p, len);
            n += strstr(tagtext, attr) != NULL;
            free(tagtext);
        }
    }
    return n;
}

/* A small XML checker: every tag closed in order, attributes quoted, no raw
 * '<' or '&' in text.  Returns 0 when well formed. */
static int xml_check(const char *s, char *why, size_t whylen) {
    char stack[64][32];
    int depth = 0, roots = 0;
    while (*s) {
        if (*s == '&') {
            const char *semi = strchr(s, ';');
            if (!semi || semi - s > 6) return snprintf(why, whylen, "raw & at '%.20s'", s), -1;
            s = semi + 1;
            continue;
        }
        if (*s != '<') {
            if (*s == '>') return snprintf(why, whylen, "raw > at '%.20s'", s), -1;
            s++;
            continue;
        }
        if (s[1] == '?') {
            const char *e = strstr(s, "?>");
            if (!e) return snprintf(why, whylen, "unterminated <?"), -1;
            s = e + 2;
            continue;
        }
        int closing = s[1] == '/';
        const char *p = s + 1 + closing;
        char name[32];
        size_t n = 0;
        while (*p && (isalnum((unsigned char)*p) || *p == '-' || *p == ':') && n < sizeof name - 1) name[n++] = *p++;
        name[n] = 0;
        if (!n) return snprintf(why, whylen, "bad tag at '%.20s'", s), -1;
        int quote = 0;
        while (*p && (quote || *p != '>')) {
            if (*p == '"') quote = !quote;
            else if (!quote && *p == '<') return snprintf(why, whylen, "'<' inside tag %s", name), -1;
            p++;
        }
        if (!*p) return snprintf(why, whylen, "unterminated tag %s", name), -1;
        int selfclose = p[-1] == '/';
        if (closing) {
            if (depth == 0 || strcmp(stack[depth - 1], name))
                return snprintf(why, whylen, "</%s> closes %s", name, depth ? stack[depth - 1] : "nothing"), -1;
            depth--;
        } else if (!selfclose) {
            if (depth == 0) roots++;
            if (depth == 64) return snprintf(why, whylen, "too deep"), -1;
            strcpy(stack[depth++], name);
        } else if (depth == 0) {
            roots++;
        }
        s = p + 1;
    }
    if (depth) return snprintf(why, whylen, "<%s> never closed", stack[depth - 1]), -1;
    if (roots != 1) return snprintf(why, whylen, "%d root elements", roots), -1;
    return 0;
}

/* The value of attribute attr (e.g. "stroke=\"") in the first element or
 * group whose text has marker, searched from marker on. */
static void attr_value(const char *svg, const char *marker, const char *attr, char *out, size_t len) {
    const char *p = strstr(svg, marker);
    assert_non_null(p);
    p = strstr(p, attr);
    assert_non_null(p);
    p += strlen(attr);
    size_t k = strcspn(p, "\"");
    assert_true(k < len);
    memcpy(out, p, k);
    out[k] = 0;
}

static void assert_well_formed(const char *svg) {
    char why[200] = "";
    if (xml_check(svg, why, sizeof why)) fail_msg("SVG not well formed: %s", why);
}

/* Plays a random game of up to `turns` turns (a fixed linear congruential
 * sequence, so the test is repeatable); with keep_going it avoids turns
 * that end the game and stops instead. */
typedef struct pick_ctx {
    long want, seen;
    int16_t nodes[512];
    int len, ends;
} pick_ctx;

static int pick_route(void *c, const pb_field *f, pb_position *after, const pb_route *r) {
    (void)f, (void)after;
    pick_ctx *x = c;
    if (x->seen++ == x->want) {
        assert_true(r->len <= 512);
        memcpy(x->nodes, r->nodes, sizeof(int16_t) * (size_t)r->len);
        x->len = r->len;
        x->ends = r->end != PB_END_NONE;
        return 1;
    }
    return 0;
}

static void random_game(const pb_field *f, pb_game *g, int turns, uint64_t seed, int keep_going) {
    pb_game_init(g, f, PB_TOP);
    for (int t = 0; t < turns && g->end == PB_END_NONE; t++) {
        pick_ctx x = {-1, 0, {0}, 0, 0};
        long n = pb_routes_foreach(f, &g->pos, pick_route, &x);
        assert_true(n > 0);
        for (int tries = 0; tries < 20; tries++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            x.want = (long)((seed >> 33) % (uint64_t)n);
            x.seen = 0;
            pb_routes_foreach(f, &g->pos, pick_route, &x);
            if (!keep_going || !x.ends) break;
        }
        if (keep_going && x.ends) break;
        char err[200];
        if (pb_game_play(g, x.nodes, x.len, 0, err, sizeof err)) fail_msg("random game: %s", err);
    }
}

/* Segment glyphs in an ASCII diagram: each horizontal segment is three
 * '-', a crossing 'X' holds two diagonals. */
static int ascii_segment_count(const char *text) {
    int h = 0, other = 0;
    /* Only the diagram lines: stop before the column-letter line. */
    const char *end = strrchr(text, '\n');
    while (end > text && end[-1] != '\n') end--;
    for (const char *p = text; p < end; p++) {
        if (*p == '-') h++;
        else if (*p == '|' || *p == '/' || *p == '\\') other++;
        else if (*p == 'X') other += 2;
    }
    assert_int_equal(h % 3, 0);
    return h / 3 + other;
}

/* ---- exact text -------------------------------------------------------- */

static void test_text_start_222(void **state) {
    (void)state;
    pb_field *f = make_field(PB_RULES_BOOK, 2, 2, 2, 0);
    pb_game g;
    pb_game_init(&g, f, PB_TOP);
    char *t = pb_diagram_text(&g, NULL);
    assert_string_equal(t, " 5  G===G===G\n"
                           "    #       #\n"
                           " 4  #   .   #\n"
                           "    #       #\n"
                           " 3  #   *   #\n"
                           "    #       #\n"
                           " 2  #   .   #\n"
                           "    #       #\n"
                           " 1  G===G===G\n"
                           "    a   b   c\n");
    free(t);
    pb_diagram_opts o = {0};
    o.unicode = 1;
    t = pb_diagram_text(&g, &o);
    assert_string_equal(t, " 5  \u25aa\u2550\u2550\u2550\u25aa\u2550\u2550\u2550\u25aa\n"
                           "    \u2503       \u2503\n"
                           " 4  \u2503   \u00b7   \u2503\n"
                           "    \u2503       \u2503\n"
                           " 3  \u2503   \u25cf   \u2503\n"
                           "    \u2503       \u2503\n"
                           " 2  \u2503   \u00b7   \u2503\n"
                           "    \u2503       \u2503\n"
                           " 1  \u25aa\u2550\u2550\u2550\u25aa\u2550\u2550\u2550\u25aa\n"
                           "    a   b   c\n");
    free(t);
    /* With odd nodes: every boundary node of a box field is odd. */
    o.unicode = 0;
    o.odd = 1;
    t = pb_diagram_text(&g, &o);
    assert_string_equal(t, " 5  o===o===o\n"
                           "    #       #\n"
                           " 4  o   .   o\n"
                           "    #       #\n"
                           " 3  o   *   o\n"
                           "    #       #\n"
                           " 2  o   .   o\n"
                           "    #       #\n"
                           " 1  o===o===o\n"
                           "    a   b   c\n");
    free(t);
    pb_game_free(&g);
    pb_field_free(f);
}

static void test_text_after_routes_222(void **state) {
    (void)state;
    pb_field *f = make_field(PB_RULES_BOOK, 2, 2, 2, 0);
    pb_game g;
    /* Top bounces off the border at c3 and stops on b2; Bottom bounces off
     * the centre and the border at a4 and stops on b4. */
    parse_game(f, "b3-c3-b2 b2-b3-a4-b4", &g);
    char *t = pb_diagram_text(&g, NULL);
    assert_string_equal(t, " 5  G===G===G\n"
                           "    #       #\n"
                           " 4  #---*   #\n"
                           "    # \\     #\n"
                           " 3  #   +---#\n"
                           "    #   | / #\n"
                           " 2  #   +   #\n"
                           "    #       #\n"
                           " 1  G===G===G\n"
                           "    a   b   c\n");
    free(t);
    /* Colour: Top's lines blue, Bottom's red, the rest plain. */
    pb_diagram_opts o = {0};
    o.color = 1;
    t = pb_diagram_text(&g, &o);
    assert_string_equal(t, " 5  G===G===G\n"
                           "    #       #\n"
                           " 4  #\033[31m---\033[0m*   #\n"
                           "    # \033[31m\\\033[0m     #\n"
                           " 3  #   +\033[34m---\033[0m#\n"
                           "    #   \033[31m|\033[0m \033[34m/\033[0m #\n"
                           " 2  #   +   #\n"
                           "    #       #\n"
                           " 1  G===G===G\n"
                           "    a   b   c\n");
    /* The text has no continuation style: highlight_from changes nothing. */
    char *t2;
    o.highlight_from = 0;
    t2 = pb_diagram_text(&g, &o);
    assert_string_equal(t, t2);
    free(t2);
    free(t);
    pb_game_free(&g);
    pb_field_free(f);
}

static void test_text_crossing_x(void **state) {
    (void)state;
    /* Both diagonals of the cell right of d6 on (2;6;8): Top d6-e7,
     * Bottom e7-e6, Top e6-d7 (each turn stops on an empty node). */
    pb_field *f = make_field(PB_RULES_BOOK, 2, 6, 8, 0);
    pb_game g;
    parse_game(f, "d6-e7 e7-e6 e6-d7", &g);
    char *t = pb_diagram_text(&g, NULL);
    /* The cell between d6, e6, d7 and e7 shows an X, and the three routes
     * draw three segments: two diagonals (X) and one vertical. */
    assert_non_null(strstr(t, " 7  #   .   .   *   +   .   #\n"
                              "    #             X |       #\n"
                              " 6  #   .   .   +   +   .   #\n"));
    assert_int_equal(ascii_segment_count(t), pb_position_drawn_count(f, &g.pos));
    free(t);
    pb_game_free(&g);
    pb_field_free(f);
}

static void test_text_odd_count(void **state) {
    (void)state;
    int fields[][3] = {{2, 6, 8}, {2, 8, 10}, {4, 8, 10}, {2, 16, 20}};
    for (int k = 0; k < 4; k++) {
        pb_field *f = make_field(PB_RULES_BOOK, fields[k][0], fields[k][1], fields[k][2], 0);
        pb_game g;
        pb_game_init(&g, f, PB_TOP);
        pb_diagram_opts o = {0};
        o.odd = 1;
        char *t = pb_diagram_text(&g, &o);
        /* Count 'o' only above the column-letter line ((2;16;20) has a
         * column o). */
        char *letters = strrchr(t, '\n');
        *letters = 0;
        letters = strrchr(t, '\n');
        *letters = 0;
        assert_int_equal(count_substr(t, "o"), f->nodd);
        free(t);
        o.unicode = 1;
        t = pb_diagram_text(&g, &o);
        assert_int_equal(count_substr(t, "\u2022"), f->nodd);
        /* Every node is a point: one node glyph per node. */
        o.odd = 0;
        free(t);
        t = pb_diagram_text(&g, &o);
        int lines = count_substr(t, "\n");
        assert_int_equal(lines, 2 * (f->rows - 1) + 2);
        free(t);
        /* Up to (2;16;20) a line fits an 80-column terminal. */
        o.unicode = 0;
        t = pb_diagram_text(&g, &o);
        for (char *p = t; *p;) {
            size_t len = strcspn(p, "\n");
            assert_true(len <= 80);
            p += len + (p[len] != 0);
        }
        free(t);
        pb_game_free(&g);
        pb_field_free(f);
    }
}

static void test_text_counts_random_games(void **state) {
    (void)state;
    pb_field *fields[3] = {make_field(PB_RULES_BOOK, 2, 6, 8, 0), make_field(PB_RULES_BOOK, 2, 8, 10, 0),
                           make_field(PB_RULES_HOCKEY, 2, 8, 10, 1)};
    for (int k = 0; k < 3; k++)
        for (uint64_t seed = 1; seed <= 20; seed++) {
            pb_game g;
            random_game(fields[k], &g, 30, seed * 7919 + (uint64_t)k, 0);
            char *t = pb_diagram_text(&g, NULL);
            int drawn = pb_position_drawn_count(fields[k], &g.pos);
            assert_true(drawn > 0);
            assert_int_equal(ascii_segment_count(t), drawn);
            /* The ball is shown once. */
            assert_int_equal(count_substr(t, "*"), 1);
            free(t);
            pb_game_free(&g);
        }
    for (int k = 0; k < 3; k++) pb_field_free(fields[k]);
}

/* ---- SVG --------------------------------------------------------------- */

static void test_svg_start_elements(void **state) {
    (void)state;
    pb_field *f = make_field(PB_RULES_BOOK, 2, 6, 8, 0);
    pb_game g;
    pb_game_init(&g, f, PB_TOP);
    pb_diagram_opts o = {0};
    o.highlight_from = -1;
    o.odd = 1;
    char *svg = pb_diagram_svg(&g, &o);
    assert_well_formed(svg);
    assert_int_equal(f->nodd, 32);
    assert_int_equal(count_elements(svg, "circle", "class=\"odd\""), f->nodd);
    assert_int_equal(count_elements(svg, "circle", "class=\"node\""), f->nnodes);
    int posts = 0;
    for (int i = 0; i < f->nlattice; i++) posts += (f->flags[i] & PB_POST) != 0;
    assert_int_equal(count_elements(svg, "rect", "class=\"post\""), posts);
    assert_int_equal(count_elements(svg, "circle", "class=\"ball\""), 1);
    assert_int_equal(count_elements(svg, "circle", "class=\"centre\""), 1);
    assert_int_equal(count_elements(svg, "line", NULL), 0);
    assert_non_null(strstr(svg, ">the start, Top to move<"));
    assert_non_null(strstr(svg, "book (2;6;8)"));
    /* Each goal labelled with the player who attacks it: Top the bottom
     * goal (the one Bottom defends, below), Bottom the top goal. */
    assert_non_null(strstr(svg, ">Top attacks \u2193<"));
    assert_non_null(strstr(svg, ">Bottom attacks \u2191<"));
    assert_int_equal(count_elements(svg, "g", "class=\"turn-no"), 0);
    free(svg);
    o.odd = 0;
    svg = pb_diagram_svg(&g, &o);
    assert_int_equal(count_elements(svg, "circle", "class=\"odd\""), 0);
    free(svg);
    pb_game_free(&g);
    pb_field_free(f);
}

/* The caption's result, worked out from the game's end apart from the
 * diagram: after a goal the ball is on a goal node, and its owner lost. */
static void expected_result(const pb_game *g, char *buf, size_t len) {
    const char *name[2] = {"Bottom", "Top"};
    int n = g->nturns;
    if (g->end == PB_END_NONE) {
        snprintf(buf, len, ">after %d turn%s: game goes on, %s to move<", n, n == 1 ? "" : "s", name[g->pos.to_move]);
    } else if (g->end == PB_END_GOAL) {
        int owner = pb_goal_owner(g->field, g->pos.ball);
        assert_true(owner == PB_TOP || owner == PB_BOTTOM);
        snprintf(buf, len, ">%s wins in %d turn%s (%sgoal)<", name[owner ^ 1], n, n == 1 ? "" : "s",
                 g->turns[n - 1].mover == owner ? "own " : "");
    } else if (g->field->spec.rules == PB_RULES_HOCKEY) {
        /* make_field plays hockey with dead end = draw. */
        snprintf(buf, len, ">draw after %d turn%s (dead end)<", n, n == 1 ? "" : "s");
    } else {
        /* Book: the player stuck in a dead end (the last mover) loses. */
        snprintf(buf, len, ">%s wins in %d turn%s (dead end)<", name[g->turns[n - 1].mover ^ 1], n, n == 1 ? "" : "s");
    }
}

static void test_svg_lines_random_games(void **state) {
    (void)state;
    pb_field *fields[3] = {make_field(PB_RULES_BOOK, 2, 6, 8, 0), make_field(PB_RULES_HOCKEY, 2, 8, 10, 1),
                           make_field(PB_RULES_BOOK, 2, 16, 20, 0)};
    for (int k = 0; k < 3; k++)
        for (uint64_t seed = 1; seed <= 10; seed++) {
            pb_game g;
            random_game(fields[k], &g, 40, seed * 104729 + (uint64_t)k, 0);
            pb_diagram_opts o = {0};
            o.highlight_from = -1;
            o.title = "a <title> & more";
            char *svg = pb_diagram_svg(&g, &o);
            assert_well_formed(svg);
            int drawn = pb_position_drawn_count(fields[k], &g.pos);
            assert_int_equal(count_elements(svg, "line", NULL), drawn);
            /* Each line in its mover's colour: count per player from the turns. */
            int top = 0, bottom = 0;
            for (int t = 0; t < g.nturns; t++) {
                if (g.turns[t].mover == PB_TOP) top += g.turns[t].len - 1;
                else bottom += g.turns[t].len - 1;
            }
            assert_int_equal(count_elements(svg, "line", "class=\"seg top"), top);
            assert_int_equal(count_elements(svg, "line", "class=\"seg bottom"), bottom);
            assert_int_equal(count_elements(svg, "line", "stroke-dasharray"), 0);
            assert_non_null(strstr(svg, "a &lt;title&gt; &amp; more"));
            char want[160];
            expected_result(&g, want, sizeof want);
            if (!strstr(svg, want)) fail_msg("no '%s' in the caption", want);
            /* One number per turn, the last one the number of turns. */
            assert_int_equal(count_elements(svg, "g", "class=\"turn-no\""), g.nturns);
            snprintf(want, sizeof want, ">%d</text></g>\n</g>", g.nturns);
            assert_non_null(strstr(svg, want));
            free(svg);
            pb_game_free(&g);
        }
    for (int k = 0; k < 3; k++) pb_field_free(fields[k]);
}

static void test_svg_continuation(void **state) {
    (void)state;
    pb_field *f = make_field(PB_RULES_BOOK, 2, 6, 8, 0);
    pb_game g;
    random_game(f, &g, 12, 42, 1);
    assert_true(g.nturns >= 6);
    int from = 4, cont_segs = 0;
    for (int t = from; t < g.nturns; t++) cont_segs += g.turns[t].len - 1;
    pb_diagram_opts o = {0};
    o.highlight_from = from;
    char *svg = pb_diagram_svg(&g, &o);
    assert_well_formed(svg);
    assert_int_equal(count_elements(svg, "line", NULL), pb_position_drawn_count(f, &g.pos));
    assert_int_equal(count_elements(svg, "line", " cont\""), cont_segs);
    assert_int_equal(count_elements(svg, "line", "stroke-opacity=\"0.8\""), cont_segs);
    assert_int_equal(count_elements(svg, "line", "stroke-dasharray"), 0);
    /* Every turn numbered, the continuation's as rings; the ball where the
     * shown position has it, a ring where the continuation ends. */
    assert_int_equal(count_elements(svg, "g", "class=\"turn-no cont\""), g.nturns - from);
    assert_int_equal(count_elements(svg, "g", "class=\"turn-no\""), from);
    assert_int_equal(count_elements(svg, "circle", "class=\"ball-end\""), 1);
    char want[64];
    int b = g.turns[from].nodes[0];
    snprintf(want, sizeof want, "class=\"ball\" cx=\"");
    const char *p = strstr(svg, want);
    assert_non_null(p);
    /* The same x as the node circle of the shown ball. */
    char node[80];
    const char *cx = p + strlen(want);
    snprintf(node, sizeof node, "class=\"node\" cx=\"%.*s", (int)(strchr(cx, '"') - cx + 1), cx);
    assert_non_null(strstr(svg, node));
    (void)b;
    free(svg);
    /* Out of range: no continuation at all. */
    o.highlight_from = g.nturns;
    svg = pb_diagram_svg(&g, &o);
    assert_int_equal(count_elements(svg, "line", " cont\""), 0);
    assert_int_equal(count_elements(svg, "g", "class=\"turn-no cont\""), 0);
    free(svg);
    pb_game_free(&g);
    pb_field_free(f);
}

/* A triple game built by hand: one normal move by Top, then a free kick
 * chain by Bottom (kick = 1), drawn segment by segment. */
static void add_turn(pb_game *g, const char *const *names, int len, int kick, int mover) {
    const pb_field *f = g->field;
    if (g->nturns == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 8;
        g->turns = realloc(g->turns, sizeof *g->turns * (size_t)g->cap);
    }
    pb_game_turn *t = &g->turns[g->nturns++];
    memset(t, 0, sizeof *t);
    t->nodes = malloc(sizeof(int16_t) * (size_t)len);
    for (int k = 0; k < len; k++) {
        int used = 0, i = pb_node_parse(f, names[k], &used);
        assert_true(i >= 0);
        t->nodes[k] = (int16_t)i;
        if (k) {
            int s = pb_seg_between(f, t->nodes[k - 1], i);
            assert_true(s >= 0);
            pb_draw_segment(f, &g->pos, s);
        }
    }
    t->len = len, t->kick = kick, t->mover = mover, t->end = PB_END_NONE, t->loser = PB_NOBODY;
    pb_set_ball(f, &g->pos, t->nodes[len - 1]);
}

static void test_svg_kick_dashed(void **state) {
    (void)state;
    pb_field *f = make_field(PB_RULES_TRIPLE, 2, 6, 8, 0);
    pb_game g;
    pb_game_init(&g, f, PB_TOP);
    static const char *move[] = {"d6", "d7", "e8", "e7"};
    static const char *kick[] = {"e7", "e6", "e5", "e4", "e3", "e2"};
    add_turn(&g, move, 4, 0, PB_TOP);
    add_turn(&g, kick, 6, 1, PB_BOTTOM); /* six steps: e7 .. e2 */
    pb_diagram_opts o = {0};
    o.highlight_from = -1;
    char *svg = pb_diagram_svg(&g, &o);
    assert_well_formed(svg);
    assert_int_equal(count_elements(svg, "line", NULL), 3 + 5);
    assert_int_equal(count_elements(svg, "line", " kick"), 5);
    assert_int_equal(count_elements(svg, "line", "stroke-dasharray"), 5);
    /* The normal move's lines are solid. */
    assert_int_equal(count_elements(svg, "line", "class=\"seg top\""), 3);
    /* The legend names the kick style only when there is a kick, and shows
     * it in the kicker's colour: the colour of the kick's own lines. */
    assert_non_null(strstr(svg, ">free kick<"));
    char kick_colour[32], key_colour[32];
    attr_value(svg, "class=\"seg bottom kick\"", "stroke=\"", kick_colour, sizeof kick_colour);
    attr_value(svg, "class=\"key kick\"", "stroke=\"", key_colour, sizeof key_colour);
    assert_string_equal(key_colour, kick_colour);
    attr_value(svg, "class=\"seg top\"", "stroke=\"", key_colour, sizeof key_colour);
    assert_string_not_equal(key_colour, kick_colour);
    /* Turn numbers in each mover's colour: 1 Top's, 2 Bottom's. */
    assert_int_equal(count_elements(svg, "g", "class=\"turn-no\""), 2);
    free(svg);
    g.nturns = 1; /* hide the kick turn (its nodes stay owned by g) */
    svg = pb_diagram_svg(&g, &o);
    assert_null(strstr(svg, ">free kick<"));
    free(svg);
    g.nturns = 2;
    pb_game_free(&g);
    pb_field_free(f);
}

/* A kick into a post comes straight back along its own line (docs/triple.md):
 * f4-f3-f2-f3-f4-f5-f6 on (2;8;10), whose posts are d2 and f2.  Four
 * segments drawn; the two run twice are drawn again beside themselves, and
 * one ring marks the turning node f2. */
static void test_svg_kick_reflects_back(void **state) {
    (void)state;
    pb_field *f = make_field(PB_RULES_TRIPLE, 2, 8, 10, 0);
    pb_game g;
    pb_game_init(&g, f, PB_TOP);
    static const char *kick[] = {"f4", "f3", "f2", "f3", "f4", "f5", "f6"};
    add_turn(&g, kick, 7, 1, PB_TOP);
    char *svg = pb_diagram_svg(&g, NULL);
    assert_well_formed(svg);
    assert_int_equal(count_elements(svg, "line", " kick"), 4);
    assert_int_equal(count_elements(svg, "path", "class=\"kick-return top\""), 2);
    assert_int_equal(count_elements(svg, "circle", "class=\"reflection\""), 1);
    int post = pb_node_parse(f, "f2", &(int){0});
    assert_true(post >= 0 && (f->flags[post] & PB_POST));
    free(svg);
    pb_game_free(&g);
    pb_field_free(f);
}

static void test_svg_goals(void **state) {
    (void)state;
    /* Box goals: one tinted goal area per player; hockey too (behind its
     * goal lines, S = 1), and none behind S = 0 goal lines. */
    pb_field *fs[3] = {make_field(PB_RULES_BOOK, 2, 6, 8, 0), make_field(PB_RULES_HOCKEY, 2, 8, 10, 1),
                       make_field(PB_RULES_HOCKEY, 2, 8, 10, 0)};
    int areas[3] = {2, 2, 0};
    for (int k = 0; k < 3; k++) {
        pb_game g;
        pb_game_init(&g, fs[k], PB_TOP);
        char *svg = pb_diagram_svg(&g, NULL);
        assert_well_formed(svg);
        assert_int_equal(count_elements(svg, "path", "class=\"goal top\"") +
                             count_elements(svg, "path", "class=\"goal bottom\""),
                         areas[k]);
        assert_int_equal(count_elements(svg, "path", "class=\"goal-line"), 2);
        assert_int_equal(count_elements(svg, "rect", "class=\"post\""), 4);
        free(svg);
        pb_game_free(&g);
        pb_field_free(fs[k]);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_start_222),
        cmocka_unit_test(test_text_after_routes_222),
        cmocka_unit_test(test_text_crossing_x),
        cmocka_unit_test(test_text_odd_count),
        cmocka_unit_test(test_text_counts_random_games),
        cmocka_unit_test(test_svg_start_elements),
        cmocka_unit_test(test_svg_lines_random_games),
        cmocka_unit_test(test_svg_continuation),
        cmocka_unit_test(test_svg_kick_dashed),
        cmocka_unit_test(test_svg_kick_reflects_back),
        cmocka_unit_test(test_svg_goals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
