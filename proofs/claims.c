/* claims.c - the list of the book's claims: each one's statement, method
 * and checker (the checkers are one file each, beside their arguments:
 * empty-count.c and empty-count.md, ...), and running one. */
#include <stdlib.h>
#include <string.h>

#include "frame.h"

const char *pb_verdict_name(pb_verdict v) {
    return v == PB_VERDICT_HOLDS ? "holds" : v == PB_VERDICT_FAILS ? "FAILS" : "open";
}

const pb_proofs_claim pb_proofs_claims[] = {
    {"empty-count",
     "A (n1;n2;n3) box field has N = 2(n1-1) + (n2-1)(n3-1) - 1 empty nodes at the start, and N is even, for "
     "every even n1 <= n2 and n3.",
     "Build every field up to the size limit; compare the field model's count, its node flags, an independent "
     "count from the definition (nodes with four playable cells, minus the centre) and the formula.",
     pb_claim_empty_count},
    {"moves-converted",
     "After t turns of a game that goes on, exactly t nodes have turned from empty to occupied; a finished game "
     "of t turns has converted exactly t - 1 (its last turn ends in a goal or a dead end on an occupied node).",
     "Step walk: every reachable state and every step (a stop adds exactly one converted node, other steps "
     "none); turn walk on the smallest fields: every distinct position per turn count, every finishing route.",
     pb_claim_moves_converted},
    {"last-move-red",
     "(The book) the route of the last turn of a game played to its end always ends on a red (odd) node.",
     "Every finishing step from every reachable state (breadth-first by segments drawn, so the first violation "
     "is a shortest one), routes cross-checked turn by turn on the smallest fields; then an iterative-deepening "
     "search for the shortest game ending trapped on the centre, also on (2;6;8) and (2;8;10).",
     pb_claim_last_move_red},
    {"last-move-exact",
     "The last route of a finished game ends on an odd node (a goal node, or a boundary node in a dead end) or "
     "in a dead end on the centre with all eight centre segments drawn; nothing else.",
     "Every finishing step from every reachable state (turn-level cross-check on the smallest fields); goal "
     "nodes checked odd; centre-trap search.",
     pb_claim_last_move_exact},
    {"first-moves",
     "There are five essentially different first moves: the eight routes from the centre fall into five classes "
     "under the left-right mirror.",
     "All routes of the first turn on every field up to the size limit; classes of routes under the left-right "
     "mirror, and of positions under the full symmetry group.",
     pb_claim_first_moves},
    {"no-draws", "Book games never end drawn: every finished game has a loser.",
     "Every finishing step from every reachable state (turn-level cross-check on the smallest fields): its "
     "loser is Top or Bottom.",
     pb_claim_no_draws},
    {"dead-end-odd", "A turn can end in a dead end only on an odd node or on the centre.",
     "Every dead-end step from every reachable state; the trail-parity invariant at every reachable state "
     "(within turns too); turn-level cross-check on the smallest fields.",
     pb_claim_dead_end_odd},
    {NULL, NULL, NULL, NULL},
};

const pb_proofs_claim *pb_proofs_find(const char *name) {
    for (const pb_proofs_claim *c = pb_proofs_claims; c->name; c++)
        if (!strcmp(c->name, name)) return c;
    return NULL;
}

pb_verdict pb_proofs_run(const pb_proofs_claim *c, const pb_proofs_opts *o, pb_proofs_result *res) {
    static const pb_proofs_opts defaults;
    if (!o) o = &defaults;
    memset(res, 0, sizeof *res);
    res->claim = c->name, res->statement = c->statement, res->method = c->method;
    pb_check_outcome rc = c->check(o, res);
    res->verdict = rc == PB_CHECK_HOLDS ? PB_VERDICT_HOLDS : rc == PB_CHECK_OPEN ? PB_VERDICT_OPEN : PB_VERDICT_FAILS;
    return res->verdict;
}

void pb_proofs_result_free(pb_proofs_result *res) {
    free(res->fields);
    free(res->cx_record);
    free(res->cx_svg);
    res->fields = NULL, res->cx_record = res->cx_svg = NULL;
    res->nfields = res->capfields = 0;
}

/* A copy of a malloc'd string, NULL for NULL. */
static char *copy_text(const char *s) { return s ? strdup(s) : NULL; }

void pb_proofs_result_copy(pb_proofs_result *dst, const pb_proofs_result *src) {
    *dst = *src;
    dst->capfields = src->nfields;
    dst->fields = NULL;
    if (src->nfields) {
        dst->fields = malloc(sizeof *dst->fields * (size_t)src->nfields);
        if (!dst->fields) abort();
        memcpy(dst->fields, src->fields, sizeof *dst->fields * (size_t)src->nfields);
    }
    dst->cx_record = copy_text(src->cx_record);
    dst->cx_svg = copy_text(src->cx_svg);
}
