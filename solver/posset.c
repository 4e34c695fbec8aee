/* posset.c - open-addressing hash set of whole positions. */
#include "posset.h"

#include <stdlib.h>
#include <string.h>

void pb_position_pack(const pb_field *f, const pb_position *p, uint64_t *key) {
    memcpy(key, p->seg, sizeof(uint64_t) * (size_t)f->nwords);
    key[f->nwords] = (uint64_t)(uint16_t)p->ball | (uint64_t)p->to_move << 16;
}

void pb_position_unpack(const pb_field *f, const uint64_t *key, pb_position *p) {
    memset(p->seg, 0, sizeof p->seg);
    memcpy(p->seg, key, sizeof(uint64_t) * (size_t)f->nwords);
    p->ball = (int16_t)(key[f->nwords] & 0xffff);
    p->to_move = (uint8_t)(key[f->nwords] >> 16);
    pb_position_refresh(f, p);
}

/* Empty slots for cap entries into s; -1 (s unchanged) when memory is short. */
static int alloc_table(pb_posset *s, size_t cap) {
    uint64_t *keys = malloc(sizeof(uint64_t) * cap * (size_t)s->kw), *hashes = calloc(cap, sizeof(uint64_t)),
             *counts = malloc(sizeof(uint64_t) * cap);
    if (!keys || !hashes || !counts) {
        free(keys), free(hashes), free(counts);
        return -1;
    }
    s->cap = cap, s->keys = keys, s->hashes = hashes, s->counts = counts;
    return 0;
}

void pb_posset_init(pb_posset *s, const pb_field *f) {
    memset(s, 0, sizeof *s);
    s->kw = f->nwords + 1;
    if (alloc_table(s, 1024)) s->failed = 1;
}

void pb_posset_free(pb_posset *s) {
    free(s->keys);
    free(s->hashes);
    free(s->counts);
    memset(s, 0, sizeof *s);
}

static size_t find_slot(const pb_posset *s, uint64_t h, const uint64_t *key) {
    size_t mask = s->cap - 1, i = (size_t)(h ^ (h >> 29)) & mask;
    while (s->hashes[i]) {
        if (s->hashes[i] == h && !memcmp(s->keys + i * (size_t)s->kw, key, sizeof(uint64_t) * (size_t)s->kw)) return i;
        i = (i + 1) & mask;
    }
    return i;
}

/* Doubles the slots; -1 (s unchanged) when memory is short. */
static int grow(pb_posset *s) {
    pb_posset old = *s;
    if (alloc_table(s, old.cap * 2)) return -1;
    for (size_t i = 0; i < old.cap; i++) {
        if (!old.hashes[i]) continue;
        size_t j = find_slot(s, old.hashes[i], old.keys + i * (size_t)s->kw);
        s->hashes[j] = old.hashes[i];
        s->counts[j] = old.counts[i];
        memcpy(s->keys + j * (size_t)s->kw, old.keys + i * (size_t)s->kw, sizeof(uint64_t) * (size_t)s->kw);
    }
    free(old.keys);
    free(old.hashes);
    free(old.counts);
    return 0;
}

uint64_t *pb_posset_slot(pb_posset *s, const pb_field *f, const pb_position *p, int *isnew) {
    uint64_t key[PB_MAX_WORDS + 1];
    pb_position_pack(f, p, key);
    uint64_t h = p->hash | 1;
    if (!s->failed && 2 * (s->size + 1) > s->cap && grow(s)) s->failed = 1;
    size_t i = s->cap ? find_slot(s, h, key) : 0;
    if (s->failed && (!s->cap || !s->hashes[i])) {
        /* A new position and no room to be sure of one: left out. */
        if (isnew) *isnew = 0;
        s->sink = 0;
        return &s->sink;
    }
    int fresh = !s->hashes[i];
    if (fresh) {
        s->hashes[i] = h;
        s->counts[i] = 0;
        memcpy(s->keys + i * (size_t)s->kw, key, sizeof(uint64_t) * (size_t)s->kw);
        s->size++;
    }
    if (isnew) *isnew = fresh;
    return &s->counts[i];
}

int pb_posset_add(pb_posset *s, const pb_field *f, const pb_position *p, uint64_t count) {
    int fresh;
    *pb_posset_slot(s, f, p, &fresh) += count;
    return fresh;
}

const uint64_t *pb_posset_find(const pb_posset *s, const uint64_t *key, uint64_t hash) {
    if (!s->size || !s->cap) return NULL;
    size_t i = find_slot(s, hash | 1, key);
    return s->hashes[i] ? &s->counts[i] : NULL;
}

int pb_posset_get(const pb_posset *s, const pb_field *f, size_t slot, pb_position *p, uint64_t *count) {
    if (!s->hashes[slot]) return 0;
    pb_position_unpack(f, s->keys + slot * (size_t)s->kw, p);
    if (count) *count = s->counts[slot];
    return 1;
}

size_t pb_posset_bytes(const pb_posset *s) { return s->cap * (sizeof(uint64_t) * (size_t)(s->kw + 2)); }
