/* notation.c - game records as the book writes them (docs/notation.md):
 * parsing into a pb_game with one-line errors, and the canonical record.
 *
 *   record  = [header] { number | route [annotations] | comment } [end mark]
 *   header  = "(В;Н)" | "(Н;В)" | "(T;B)" | "(B;T)"   who plays first
 *   number  = digits ("." | "..." | "…" | ")")          a label, not checked
 *   route   = ["*"] node { "-" node }                   '*': a triple kick chain
 *   annot   = "!!" "!" "?" "??" "!?" "?!" act pas ку² ку2 mpk БП ЧВ(В) ЧВ(Н)
 *   score   = "[" digits ":" digits "]"                 a match: the score after a goal
 *   end     = "X" | "Х"                                 the game must be over
 *   comment = "{" ... "}"
 *
 * The parser works on raw UTF-8 bytes and never reads past the terminating
 * NUL: every look-ahead compares against a NUL-terminated literal, and every
 * piece of input quoted in an error is cut short with its control bytes
 * escaped, so a message is always one line whatever the input (tests/fuzz/ fuzzes it).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"

/* The longest quotation of input in an error message, in bytes. */
#define QUOTE_MAX 32

/* Cyrillic letters used by the book, as UTF-8. */
#define CYR_VE "\xd0\x92"       /* В: Top (Верхний) */
#define CYR_EN "\xd0\x9d"       /* Н: Bottom (Нижний) */
#define CYR_VE_LOWER "\xd0\xb2" /* в */
#define CYR_EN_LOWER "\xd0\xbd" /* н */
#define CYR_HA "\xd0\xa5"       /* Х: the end mark */
#define EN_DASH "\xe2\x80\x93"  /* – accepted between nodes */
#define ELLIPSIS "\xe2\x80\xa6" /* … accepted after a move number */

/* The annotations: what may be written and how it is stored. */
typedef struct annot_form {
    const char *written, *stored;
} annot_form;

static const annot_form annot_words[] = {
    {"act", "act"},
    {"pas", "pas"},
    {"mpk", "mpk"},
    {"\xd0\xba\xd1\x83\xc2\xb2", "\xd0\xba\xd1\x83\xc2\xb2"}, /* ку² */
    {"\xd0\xba\xd1\x83"
     "2",
     "\xd0\xba\xd1\x83\xc2\xb2"},                                     /* ку2 = ку² */
    {"\xd0\x91\xd0\x9f", "\xd0\x91\xd0\x9f"},                         /* БП */
    {"\xd0\xa7\xd0\x92(" CYR_VE ")", "\xd0\xa7\xd0\x92(" CYR_VE ")"}, /* ЧВ(В) */
    {"\xd0\xa7\xd0\x92(" CYR_EN ")", "\xd0\xa7\xd0\x92(" CYR_EN ")"}, /* ЧВ(Н) */
};
static const char *const annot_marks[] = {"!!", "!", "?", "??", "!?", "?!"};

#define NWORDS (int)(sizeof annot_words / sizeof annot_words[0])
#define NMARKS (int)(sizeof annot_marks / sizeof annot_marks[0])

static int starts(const char *s, const char *lit) { return strncmp(s, lit, strlen(lit)) == 0; }

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
/* Separators between items: white space, and the commas and semicolons some
 * transcriptions put between moves. */
static int is_sep(char c) { return is_space(c) || c == ',' || c == ';'; }
static int is_lower(char c) { return c >= 'a' && c <= 'z'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* Length of the word at s: up to a separator, a comment or the end. */
static size_t word_len(const char *s) {
    size_t n = 0;
    while (s[n] && !is_sep(s[n]) && s[n] != '{') n++;
    return n;
}

/* Room for a quotation: each byte may become a 4-character escape. */
#define QUOTE_BUF (4 * QUOTE_MAX + 4)

/* Copies at most n bytes of s into out (QUOTE_BUF bytes) for an error
 * message: control bytes become "\x01" escapes, and a piece longer than
 * QUOTE_MAX bytes is cut at a UTF-8 character boundary and ends with "...". */
static const char *quote(const char *s, size_t n, char *out) {
    size_t k = n < QUOTE_MAX ? n : QUOTE_MAX;
    if (k < n)
        while (k > 0 && ((unsigned char)s[k] & 0xc0) == 0x80) k--;
    size_t o = 0;
    for (size_t i = 0; i < k; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f) o += (size_t)snprintf(out + o, 5, "\\x%02x", c);
        else out[o++] = (char)c;
    }
    memcpy(out + o, k < n ? "..." : "", k < n ? 4 : 1);
    return out;
}

/* Parser state. */
typedef struct parser {
    const pb_field *f;
    const char *s; /* the cursor */
    pb_game *g;
    int16_t *nodes; /* route buffer of cap nodes */
    int cap;
    char *err;
    size_t errlen;
} parser;

/* The number of the next turn, used to name moves in messages. */
static int next_move(const parser *ps) { return ps->g->nturns + 1; }

/* A header side: 'В' or 'T' (Top), 'Н' (Bottom), and the Latin 'B' and
 * 'H', whose meaning depends on the other side (see parse_header).  Returns
 * a SIDE_ value or -1; *used gets the bytes read. */
enum { SIDE_TOP, SIDE_LATIN_B, SIDE_BOTTOM, SIDE_LATIN_H };
static int header_side(const char *s, int *used) {
    static const struct {
        const char *lit;
        int side;
    } sides[] = {
        {CYR_VE, SIDE_TOP},    {CYR_VE_LOWER, SIDE_TOP},    {"T", SIDE_TOP},     {"t", SIDE_TOP},
        {CYR_EN, SIDE_BOTTOM}, {CYR_EN_LOWER, SIDE_BOTTOM}, {"B", SIDE_LATIN_B}, {"b", SIDE_LATIN_B},
        {"H", SIDE_LATIN_H},   {"h", SIDE_LATIN_H},
    };
    for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++)
        if (starts(s, sides[i].lit)) {
            *used = (int)strlen(sides[i].lit);
            return sides[i].side;
        }
    return -1;
}

/* The extent of a header-like text at s, for quoting: up to a ')' close by
 * on the same line, else up to white space. */
static size_t header_len(const char *s) {
    for (size_t n = 0; n < 16 && s[n] && s[n] != '\n'; n++)
        if (s[n] == ')') return n + 1;
    size_t n = 0;
    while (s[n] && !is_space(s[n]) && s[n] != '{') n++;
    return n;
}

/* Parses "(В;Н)" and its variants at ps->s.  Latin "B" means Bottom next to
 * "T" (the English initials) and Top next to "H" (a Latin spelling of the
 * Cyrillic "В;Н"). */
static int parse_header(parser *ps) {
    const char *s = ps->s + 1, *start = ps->s;
    int side[2], used;
    for (int k = 0; k < 2; k++) {
        while (*s == ' ') s++;
        side[k] = header_side(s, &used);
        if (side[k] < 0) goto bad;
        s += used;
        while (*s == ' ') s++;
        if (*s != (k == 0 ? ';' : ')')) goto bad;
        s++;
    }
    int top[2];
    for (int k = 0; k < 2; k++) {
        int other = side[k ^ 1];
        switch (side[k]) {
            case SIDE_TOP: top[k] = 1; break;
            case SIDE_BOTTOM:
            case SIDE_LATIN_H: top[k] = 0; break;
            default: top[k] = other == SIDE_LATIN_H || other == SIDE_BOTTOM; break; /* Latin B */
        }
    }
    if (top[0] == top[1]) goto bad;
    int match = ps->g->match;
    pb_game_free(ps->g);
    if (match) pb_game_init_match(ps->g, ps->f, top[0] ? PB_TOP : PB_BOTTOM);
    else pb_game_init(ps->g, ps->f, top[0] ? PB_TOP : PB_BOTTOM);
    ps->s = s;
    return 0;
bad:;
    char q[QUOTE_BUF];
    snprintf(ps->err, ps->errlen, "bad header '%s': expected (\xd0\x92;\xd0\x9d) or (\xd0\x9d;\xd0\x92)",
             quote(start, header_len(start), q));
    return -1;
}

/* A move number: digits and ".", "...", "…" or ")". */
static int parse_number(parser *ps) {
    const char *s = ps->s;
    while (is_digit(*s)) s++;
    if (starts(s, "...")) s += 3;
    else if (starts(s, ELLIPSIS)) s += strlen(ELLIPSIS);
    else if (*s == '.' || *s == ')') s++;
    else {
        char q[QUOTE_BUF];
        snprintf(ps->err, ps->errlen, "move %d: bad move number '%s': write it as 1. or 1... or 1)", next_move(ps),
                 quote(ps->s, word_len(ps->s), q));
        return -1;
    }
    ps->s = s;
    return 0;
}

/* Ends a node name: a dash, an annotation mark, a separator, a comment. */
static int node_end(const char *s) {
    return !*s || is_sep(*s) || *s == '-' || *s == '!' || *s == '?' || *s == '{' || starts(s, EN_DASH);
}

/* Parses a route (and a leading '*') at ps->s and plays it. */
static int parse_route(parser *ps) {
    const pb_field *f = ps->f;
    const char *start = ps->s, *s = ps->s;
    char q[QUOTE_BUF];
    int kick = 0, len = 0, move = next_move(ps);
    if (*s == '*') kick = 1, s++;
    for (;;) {
        const char *n0 = s;
        while (!node_end(s)) s++;
        size_t n = (size_t)(s - n0);
        if (n == 0) {
            snprintf(ps->err, ps->errlen, "move %d: a node is missing in '%s'", move,
                     quote(start, (size_t)(s - start), q));
            return -1;
        }
        char name[16];
        int used = 0, node = -1;
        /* One or two column letters and at most three digits: anything else
         * is no node of a field that fits PB_MAX_DIM. */
        if (n < sizeof name) {
            memcpy(name, n0, n);
            name[n] = 0;
            size_t letters = 0;
            while (letters < n && is_lower(name[letters])) letters++;
            size_t digits = n - letters;
            int shape = letters >= 1 && letters <= 2 && digits >= 1 && digits <= 3;
            for (size_t i = letters; i < n; i++) shape &= is_digit(name[i]);
            if (shape) node = pb_node_parse(f, name, &used);
            if (node >= 0 && (size_t)used != n) node = -1;
        }
        if (node < 0) {
            snprintf(ps->err, ps->errlen, "move %d: bad node '%s'", move, quote(n0, n, q));
            return -1;
        }
        if (len == ps->cap) {
            snprintf(ps->err, ps->errlen, "move %d: the route '%s' is longer than any turn on this field", move,
                     quote(start, word_len(start), q));
            return -1;
        }
        ps->nodes[len++] = (int16_t)node;
        if (*s == '-') s++;
        else if (starts(s, EN_DASH)) s += strlen(EN_DASH);
        else break;
    }
    size_t rlen = (size_t)(s - start);
    if (ps->g->end != PB_END_NONE) {
        snprintf(ps->err, ps->errlen, "move %d: the game is already over", move);
        return -1;
    }
    char why[200];
    if (pb_game_play(ps->g, ps->nodes, len, kick, why, sizeof why)) {
        snprintf(ps->err, ps->errlen, "move %d (%s): %s", move, quote(start, rlen, q), why);
        return -1;
    }
    ps->s = s;
    return 0;
}

/* Appends a stored annotation to the last turn. */
static int add_annot(parser *ps, const char *stored, const char *written, size_t wlen) {
    char q[QUOTE_BUF];
    if (ps->g->nturns == 0) {
        snprintf(ps->err, ps->errlen, "annotation '%s' before the first move", quote(written, wlen, q));
        return -1;
    }
    char *a = ps->g->turns[ps->g->nturns - 1].annot;
    size_t have = strlen(a), need = strlen(stored) + (have ? 1 : 0);
    if (have + need >= PB_ANNOT_LEN) {
        snprintf(ps->err, ps->errlen, "too many annotations after move %d (at most %d bytes)", ps->g->nturns,
                 PB_ANNOT_LEN - 1);
        return -1;
    }
    if (have) a[have++] = ' ';
    memcpy(a + have, stored, strlen(stored) + 1);
    return 0;
}

/* Annotation marks at ps->s: a run of '!' and '?'. */
static int parse_marks(parser *ps) {
    const char *s = ps->s;
    size_t n = 0;
    while (s[n] == '!' || s[n] == '?') n++;
    for (int i = 0; i < NMARKS; i++)
        if (strlen(annot_marks[i]) == n && !strncmp(s, annot_marks[i], n)) {
            if (add_annot(ps, annot_marks[i], s, n)) return -1;
            ps->s = s + n;
            return 0;
        }
    char q[QUOTE_BUF];
    snprintf(ps->err, ps->errlen, "unknown annotation '%s' after move %d", quote(s, n, q), ps->g->nturns);
    return -1;
}

/* The annotation word at ps->s, or -1 without a message if it is none. */
static int match_word(const char *s, size_t n) {
    for (int i = 0; i < NWORDS; i++)
        if (strlen(annot_words[i].written) == n && !strncmp(s, annot_words[i].written, n)) return i;
    return -1;
}

/* Does a route start at s?  '*', or one or two letters and a digit (in
 * either case, so that "D6-E7" is reported as a bad node). */
static int is_letter(char c) { return is_lower(c) || (c >= 'A' && c <= 'Z'); }
static int route_ahead(const char *s) {
    if (*s == '*') return 1;
    if (!is_letter(s[0])) return 0;
    return is_digit(s[1]) || (is_letter(s[1]) && is_digit(s[2]));
}

/* A match's score mark "[T:B]" after a goal: checked against the score. */
static int parse_score(parser *ps) {
    const char *s = ps->s;
    char q[QUOTE_BUF];
    size_t wl = word_len(s);
    int top, bottom, used = 0;
    const pb_game *g = ps->g;
    if (sscanf(s, "[%3d:%3d]%n", &top, &bottom, &used) != 2 || used == 0 || (size_t)used != wl) {
        snprintf(ps->err, ps->errlen, "bad score mark '%s': write it as [1:0] (Top's goals, Bottom's goals)",
                 quote(s, wl, q));
        return -1;
    }
    if (!g->match) {
        snprintf(ps->err, ps->errlen, "score mark '%s' in a single game: score marks belong to a match (--match)",
                 quote(s, wl, q));
        return -1;
    }
    if (g->nturns == 0 || g->turns[g->nturns - 1].end != PB_END_GOAL) {
        snprintf(ps->err, ps->errlen, "score mark '%s' after move %d, which scores no goal", quote(s, wl, q),
                 g->nturns);
        return -1;
    }
    if (top != g->goals[PB_TOP] || bottom != g->goals[PB_BOTTOM]) {
        snprintf(ps->err, ps->errlen, "score mark '%s' after move %d, but the score is [%d:%d]", quote(s, wl, q),
                 g->nturns, g->goals[PB_TOP], g->goals[PB_BOTTOM]);
        return -1;
    }
    ps->s = s + wl;
    return 0;
}

static int parse_record(const pb_field *f, const char *text, pb_game *g, int match, char *err, size_t errlen);

int pb_record_parse(const pb_field *f, const char *text, pb_game *g, char *err, size_t errlen) {
    return parse_record(f, text, g, 0, err, errlen);
}

int pb_record_parse_match(const pb_field *f, const char *text, pb_game *g, char *err, size_t errlen) {
    return parse_record(f, text, g, 1, err, errlen);
}

/* A comment "{...}" at ps->s: skipped. */
static int skip_comment(parser *ps) {
    char q[QUOTE_BUF];
    const char *close = strchr(ps->s, '}');
    if (!close) {
        snprintf(ps->err, ps->errlen, "unterminated comment '%s' after move %d", quote(ps->s, strlen(ps->s), q),
                 ps->g->nturns);
        return -1;
    }
    ps->s = close + 1;
    return 0;
}

/* The end mark (wl bytes at ps->s): only after the move that ends the game. */
static int parse_end_mark(parser *ps, size_t wl) {
    char q[QUOTE_BUF];
    const pb_game *g = ps->g;
    int rc = 0;
    if (g->end == PB_END_NONE) {
        if (g->nturns == 0) snprintf(ps->err, ps->errlen, "end mark '%s' before the first move", quote(ps->s, wl, q));
        else
            snprintf(ps->err, ps->errlen, "end mark '%s' after move %d, but the game goes on", quote(ps->s, wl, q),
                     g->nturns);
        rc = -1;
    }
    ps->s += wl;
    return rc;
}

/* A word that is none of the items: an error naming where it stands. */
static int unexpected(parser *ps, size_t wl) {
    char q[QUOTE_BUF];
    if (ps->g->nturns > 0)
        snprintf(ps->err, ps->errlen, "unknown annotation '%s' after move %d", quote(ps->s, wl, q), ps->g->nturns);
    else snprintf(ps->err, ps->errlen, "move 1: unexpected '%s' (expected a route such as d6-e7)", quote(ps->s, wl, q));
    return -1;
}

/* One item at ps->s, not a comment: the header (first of all), a move
 * number, a route, marks, a score, the end mark or an annotation word.
 * items: the items before it; *ended: the end mark was read. */
static int parse_item(parser *ps, int items, int *ended) {
    const char *s = ps->s;
    size_t wl = word_len(s);
    char q[QUOTE_BUF];
    if (*ended) {
        snprintf(ps->err, ps->errlen, "text after the end mark: '%s'", quote(s, wl, q));
        return -1;
    }
    if (*s == '(') {
        if (!items) return parse_header(ps);
        snprintf(ps->err, ps->errlen, "move %d: the header '%s' must come before the first move", next_move(ps),
                 quote(s, header_len(s), q));
        return -1;
    }
    if (is_digit(*s)) return parse_number(ps);
    if (route_ahead(s)) return parse_route(ps);
    if (*s == '!' || *s == '?') return parse_marks(ps);
    if (*s == '[') return parse_score(ps);
    if ((*s == 'X' || starts(s, CYR_HA)) && wl == (*s == 'X' ? 1 : strlen(CYR_HA))) {
        *ended = 1;
        return parse_end_mark(ps, wl);
    }
    int w = match_word(s, wl);
    if (w < 0) return unexpected(ps, wl);
    ps->s += wl;
    return add_annot(ps, annot_words[w].stored, s, wl);
}

static int parse_record(const pb_field *f, const char *text, pb_game *g, int match, char *err, size_t errlen) {
    assert(f && text && g && err && errlen > 0);
    if (match) pb_game_init_match(g, f, PB_TOP);
    else pb_game_init(g, f, PB_TOP);
    int cap = pb_route_max(f);
    parser ps = {f, text, g, malloc(sizeof(int16_t) * (size_t)cap), cap, err, errlen};
    int ended = 0, rc = 0, items = 0;
    while (rc == 0) {
        while (is_sep(*ps.s)) ps.s++;
        if (!*ps.s) break;
        if (*ps.s == '{') rc = skip_comment(&ps);
        else rc = parse_item(&ps, items++, &ended);
    }
    free(ps.nodes);
    if (rc) {
        /* Leave a valid, empty game so the caller may free it or not. */
        int first = g->first;
        pb_game_free(g);
        if (match) pb_game_init_match(g, f, first);
        else pb_game_init(g, f, first);
    }
    return rc;
}

/* A growing string. */
typedef struct sbuf {
    char *s;
    size_t n, cap;
} sbuf;

static void sb_add(sbuf *b, const char *t) {
    size_t k = strlen(t);
    if (b->n + k + 1 > b->cap) {
        while (b->n + k + 1 > b->cap) b->cap *= 2;
        b->s = realloc(b->s, b->cap);
    }
    memcpy(b->s + b->n, t, k + 1);
    b->n += k;
}

char *pb_record_format(const pb_game *g) {
    assert(g && g->field);
    sbuf b = {malloc(256), 0, 256};
    b.s[0] = 0;
    int goals[2] = {0, 0}; /* a match's running score */
    if (g->first == PB_BOTTOM) sb_add(&b, "(" CYR_EN ";" CYR_VE ")");
    for (int i = 0; i < g->nturns; i++) {
        const pb_game_turn *t = &g->turns[i];
        char num[24];
        snprintf(num, sizeof num, "%s%d. ", b.n ? " " : "", i + 1);
        sb_add(&b, num);
        size_t rl = 6 * (size_t)t->len + 4;
        char *route = malloc(rl);
        sb_add(&b, pb_route_format(g->field, t->nodes, t->len, t->kick, route, rl));
        free(route);
        /* Marks stick to the route ("e7-f8!"); words follow after a space. */
        if (t->annot[0]) {
            if (t->annot[0] != '!' && t->annot[0] != '?') sb_add(&b, " ");
            sb_add(&b, t->annot);
        }
        if (g->match && t->end == PB_END_GOAL) {
            goals[t->loser ^ 1]++;
            snprintf(num, sizeof num, " [%d:%d]", goals[PB_TOP], goals[PB_BOTTOM]);
            sb_add(&b, num);
        }
    }
    if (g->end != PB_END_NONE) sb_add(&b, b.n ? " X" : "X");
    return b.s;
}
