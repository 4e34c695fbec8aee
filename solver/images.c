/* images.c - the four orientations of a position (images.h). */
#include "images.h"

#include <stdlib.h>
#include <string.h>

int pb_images_init(pb_images *im, const pb_field *f) {
    memset(im, 0, sizeof *im);
    im->f = f;
    im->nimg = 1;
    for (int k = 0; k < 4; k++) {
        im->node_img[k] = malloc(sizeof(int16_t) * (size_t)f->nlattice);
        im->seg_img[k] = malloc(sizeof(int16_t) * (size_t)(f->nsegments + 1));
        im->delta[k] = malloc(sizeof *im->delta[k] * (size_t)f->nlattice);
        if (!im->node_img[k] || !im->seg_img[k] || !im->delta[k]) return -1;
    }
    for (int i = 0; i < f->nlattice; i++) {
        int lr = f->mirror_lr[i], tb = f->mirror_tb[i];
        im->node_img[0][i] = (int16_t)i;
        im->node_img[1][i] = (int16_t)lr;
        im->node_img[2][i] = (int16_t)tb;
        im->node_img[3][i] = (int16_t)(lr >= 0 ? f->mirror_tb[lr] : -1);
    }
    for (int s = 0; s < f->nsegments; s++) {
        int lr = f->seg_mirror_lr[s];
        im->seg_img[0][s] = (int16_t)s;
        im->seg_img[1][s] = (int16_t)lr;
        im->seg_img[2][s] = f->seg_mirror_tb[s];
        im->seg_img[3][s] = f->seg_mirror_tb[lr];
    }
    for (int i = 0; i < f->nlattice; i++)
        for (int d = 0; d < 8; d++) {
            for (int k = 0; k < 4; k++) im->delta[k][i][d] = 0;
            if (!pb_is_node(f, i) || f->seg[i][d] < 0) continue;
            int t = pb_step_to(f, i, d), s = f->seg[i][d];
            for (int k = 0; k < 4; k++)
                im->delta[k][i][d] = f->zobrist_seg[im->seg_img[k][s]] ^ f->zobrist_ball[im->node_img[k][i]] ^
                                     f->zobrist_ball[im->node_img[k][t]];
        }
    return 0;
}

void pb_images_free(pb_images *im) {
    for (int k = 0; k < 4; k++) free(im->node_img[k]), free(im->seg_img[k]), free(im->delta[k]);
    memset(im, 0, sizeof *im);
}

void pb_images_choose(pb_images *im, const pb_position *p, int full_keys) {
    const pb_field *f = im->f;
    im->nimg = 1;
    im->img[0] = 0;
    if (full_keys) return;
    pb_position *m = malloc(sizeof *m);
    if (!m) return;
    for (int k = 1; k < 4; k++) {
        pb_position_mirror(f, p, m, k & 1, k >> 1);
        if (m->ball == p->ball && !memcmp(m->seg, p->seg, sizeof(uint64_t) * (size_t)f->nwords))
            im->img[im->nimg++] = k;
    }
    free(m);
}

void pb_images_all(pb_images *im) {
    im->nimg = 4;
    for (int k = 0; k < 4; k++) im->img[k] = k;
}

void pb_images_reset(const pb_images *im, pb_image_state *st, const pb_position *p) {
    const pb_field *f = im->f;
    for (int i = 1; i < im->nimg; i++) {
        int k = im->img[i];
        uint64_t *seg = st->seg[k];
        memset(seg, 0, sizeof(uint64_t) * (size_t)f->nwords);
        uint64_t h = f->zobrist_ball[im->node_img[k][p->ball]];
        if ((p->to_move ^ (k >> 1)) == PB_TOP) h ^= f->zobrist_top;
        for (int wd = 0; wd < f->nwords; wd++)
            for (uint64_t b = p->seg[wd]; b; b &= b - 1) {
                int s = im->seg_img[k][wd * 64 + __builtin_ctzll(b)];
                seg[s >> 6] |= 1ULL << (s & 63);
                h ^= f->zobrist_seg[s];
            }
        st->hash[k] = h;
    }
}
