/* images.h - the four orientations of a position, kept up to date step by
 * step, so that a table can key a position and its mirror images alike.
 *
 * Orientation k: bit 0 the left-right mirror, bit 1 the top-bottom mirror
 * with the players swapped.  Both maps send the rules to themselves (the
 * field is symmetric; a top-bottom mirror swaps the goals, so it must swap
 * who defends which: docs/rules.md §1), hence the value for the player to
 * move is the same in every orientation: an entry keyed by any image
 * answers for the position.  A searcher keeps, beside its position, the
 * hash and segment words of each orientation it uses (pb_image_state);
 * the key is the orientation with the smallest hash (any fixed choice
 * would do: the whole image is compared, so the choice changes which
 * entries are shared, never a value).
 */
#ifndef PB_IMAGES_H
#define PB_IMAGES_H

#include <stdint.h>

#include "position.h"

typedef struct pb_images {
    const pb_field *f;
    int nimg, img[4]; /* orientations used: img[0] = 0 (identity), then others */
    int16_t *node_img[4], *seg_img[4];
    uint64_t (*delta[4])[8]; /* hash change of the step (node, direction) in orientation k */
} pb_images;

/* The maps of f; uses the identity alone until pb_images_choose.
 * Returns 0, or -1 if memory is short. */
int pb_images_init(pb_images *im, const pb_field *f);
void pb_images_free(pb_images *im);

/* Uses the orientations under which root p is its own image (p itself,
 * with the players swapped for top-bottom), or the identity alone if
 * full_keys: a position and its image can both be met only when the
 * root's image is the root (or nearly so), so from other roots images
 * would cost time and merge almost nothing.  all: every orientation. */
void pb_images_choose(pb_images *im, const pb_position *p, int full_keys);
void pb_images_all(pb_images *im);

/* The orientations of the current position, beside it. */
typedef struct pb_image_state {
    uint64_t hash[4];
    uint64_t seg[4][PB_MAX_WORDS];
} pb_image_state;

/* Recomputes st from p. */
void pb_images_reset(const pb_images *im, pb_image_state *st, const pb_position *p);

/* Direction d seen in orientation k (each mirror is an involution). */
static inline int pb_dir_img(int k, int d) {
    if (d >= 8) return d;
    if (k & 1) d = (12 - d) & 7;
    if (k & 2) d = (8 - d) & 7;
    return d;
}

/* Applies (or, called again, undoes) the step from node `from` in
 * direction d that drew segment s; turn_passed: the player to move
 * changed. */
static inline void pb_images_step(const pb_images *im, pb_image_state *st, int from, int d, int s, int turn_passed) {
    uint64_t top = turn_passed ? im->f->zobrist_top : 0;
    for (int i = 1; i < im->nimg; i++) {
        int k = im->img[i], t = im->seg_img[k][s];
        st->seg[k][t >> 6] ^= 1ULL << (t & 63);
        st->hash[k] ^= im->delta[k][from][d] ^ top;
    }
}

/* The smallest hash over the orientations of the position one step (from
 * the ball of p, direction d) ahead, whether it passes the turn or not. */
static inline uint64_t pb_images_child_hash(const pb_images *im, const pb_image_state *st, const pb_position *p, int d,
                                            int turn_passed) {
    uint64_t top = turn_passed ? im->f->zobrist_top : 0, h = p->hash ^ im->delta[0][p->ball][d] ^ top;
    for (int i = 1; i < im->nimg; i++) {
        uint64_t hk = st->hash[im->img[i]] ^ im->delta[im->img[i]][p->ball][d] ^ top;
        if (hk < h) h = hk;
    }
    return h;
}

/* The key of p: the orientation with the smallest hash (*orient), its
 * hash, segment words (p's own or st's) and ball | to_move << 16. */
typedef struct pb_image_key {
    int orient;
    uint64_t hash, bt;
    const uint64_t *seg;
} pb_image_key;

static inline pb_image_key pb_images_key(const pb_images *im, const pb_image_state *st, const pb_position *p) {
    pb_image_key key = {0, p->hash, 0, p->seg};
    for (int i = 1; i < im->nimg; i++)
        if (st->hash[im->img[i]] < key.hash) key.hash = st->hash[im->img[i]], key.orient = im->img[i];
    int k = key.orient;
    if (k) key.seg = st->seg[k];
    key.bt = (uint64_t)(uint16_t)im->node_img[k][p->ball] | (uint64_t)(p->to_move ^ (k >> 1)) << 16;
    return key;
}

/* The key of the position one step ahead without applying the step to
 * every orientation: c is p after the step from node `from` in direction
 * d that drew segment sg (applied to c itself, not to st).  Only the
 * chosen orientation's segment words in st get the segment (st's hashes
 * stay p's), the same key pb_images_step and pb_images_key would give;
 * pb_images_child_undo(im, st, key, sg) takes the segment out again. */
static inline pb_image_key pb_images_child_key(const pb_images *im, pb_image_state *st, const pb_position *c, int from,
                                               int d, int sg, int turn_passed) {
    uint64_t top = turn_passed ? im->f->zobrist_top : 0;
    pb_image_key key = {0, c->hash, 0, c->seg};
    for (int i = 1; i < im->nimg; i++) {
        int k = im->img[i];
        uint64_t hk = st->hash[k] ^ im->delta[k][from][d] ^ top;
        if (hk < key.hash) key.hash = hk, key.orient = k;
    }
    int k = key.orient;
    if (k) {
        int t = im->seg_img[k][sg];
        st->seg[k][t >> 6] ^= 1ULL << (t & 63);
        key.seg = st->seg[k];
    }
    key.bt = (uint64_t)(uint16_t)im->node_img[k][c->ball] | (uint64_t)(c->to_move ^ (k >> 1)) << 16;
    return key;
}

static inline void pb_images_child_undo(const pb_images *im, pb_image_state *st, const pb_image_key *key, int sg) {
    int k = key->orient;
    if (k) {
        int t = im->seg_img[k][sg];
        st->seg[k][t >> 6] ^= 1ULL << (t & 63);
    }
}

#endif
