/* tactics.h - quick exact facts about a position that spare the searches a
 * full expansion (book and hockey): "can the player to move score this
 * turn?", found by a bounded walk over the turn's bounce chains.  A yes is
 * always a real goal route; a no may only mean "not found within the
 * budget", so callers use the answer only when it is yes.
 */
#ifndef PB_TACTICS_H
#define PB_TACTICS_H

#include <stdint.h>

#include "position.h"

/* Steps the quick check takes by default: enough for the short chains
 * that decide most positions, cheap against a node's expansion. */
#define PB_SCORE_BUDGET 24

typedef struct pb_tactics {
    const pb_field *f;
    int8_t (*score_owner)[8]; /* per node and direction: whose goal the step scores in, or -1 */
    /* Per node, as direction bits: its legal steps; those that score
     * against each player; those that score against nobody onto a node
     * occupied from the start, and onto any other node. */
    uint8_t *legal, (*scores)[2];
    uint8_t *plain_occupied, *plain_other;
    int off[8]; /* lattice offset of a step in each direction */
} pb_tactics;

/* Returns 0, or -1 if memory is short. */
int pb_tactics_init(pb_tactics *t, const pb_field *f);
void pb_tactics_free(pb_tactics *t);

/* Can p's player to move end this turn in the opponent's goal, within
 * *budget steps (decremented by the steps taken; -1 when the walk ran out
 * of budget and stopped)?  1 yes, 0 no or not found.  If nodes is given,
 * the route's nodes after the ball are written to nodes[len...] and its
 * end index to *out_len.  The walk draws its steps in p->dirs (and the
 * ball's node in p->deg) and restores them on return. */
int pb_can_score(const pb_tactics *t, pb_position *p, int *budget, int16_t *nodes, int len, int *out_len);

#endif
