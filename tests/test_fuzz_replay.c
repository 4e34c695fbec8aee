/* test_fuzz_replay.c - the record parser's fuzz target without clang: every
 * file of tests/fuzz/corpus/ (seeds and the crashes found so far) is fed to
 * LLVMFuzzerTestOneInput, then a short seeded run of random mutations of
 * those files.  The target aborts on a broken property, which fails this
 * test; under ctest the sanitizers are off, so this checks the properties,
 * and scripts/fuzz.sh hunts for memory errors.
 *
 * The corpus is found next to this source file (__FILE__ is absolute in a
 * CMake build) unless PB_FUZZ_CORPUS names another directory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>

#include "fuzz/record_fuzz.c"

typedef struct corpus {
    char **data;
    size_t *size;
    int n;
} corpus;

static void corpus_dir(char *buf, size_t len) {
    const char *env = getenv("PB_FUZZ_CORPUS");
    if (env) {
        snprintf(buf, len, "%s", env);
        return;
    }
    snprintf(buf, len, "%s", __FILE__);
    char *slash = strrchr(buf, '/');
    if (slash) *slash = 0;
    else snprintf(buf, len, ".");
    strncat(buf, "/fuzz/corpus", len - strlen(buf) - 1);
}

static void corpus_load(corpus *c) {
    char dir[4096], path[8192];
    corpus_dir(dir, sizeof dir);
    DIR *d = opendir(dir);
    if (!d) fail_msg("cannot open the corpus directory %s", dir);
    memset(c, 0, sizeof *c);
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *in = fopen(path, "rb");
        assert_non_null(in);
        fseek(in, 0, SEEK_END);
        long n = ftell(in);
        fseek(in, 0, SEEK_SET);
        c->data = realloc(c->data, sizeof *c->data * (size_t)(c->n + 1));
        c->size = realloc(c->size, sizeof *c->size * (size_t)(c->n + 1));
        c->data[c->n] = malloc((size_t)n + 1);
        c->size[c->n] = fread(c->data[c->n], 1, (size_t)n, in);
        assert_int_equal(c->size[c->n], (size_t)n);
        c->n++;
        fclose(in);
    }
    closedir(d);
}

static void corpus_free(corpus *c) {
    for (int i = 0; i < c->n; i++) free(c->data[i]);
    free(c->data);
    free(c->size);
}

/* Does the parser accept the input (as the target reads it)? */
static int accepted(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    char *text = malloc(size), err[256];
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
    pb_game g;
    int ok = pb_record_parse(fuzz_field(data[0] % FUZZ_NFIELDS), text, &g, err, sizeof err) == 0;
    pb_game_free(&g);
    free(text);
    return ok;
}

static void test_replay_corpus(void **state) {
    (void)state;
    corpus c;
    corpus_load(&c);
    int good = 0;
    for (int i = 0; i < c.n; i++) {
        LLVMFuzzerTestOneInput((const uint8_t *)c.data[i], c.size[i]);
        good += accepted((const uint8_t *)c.data[i], c.size[i]);
    }
    /* The corpus holds both records the parser takes and ones it refuses;
     * an empty or unreadable corpus must not pass quietly. */
    assert_true(c.n >= 30);
    assert_true(good >= 10);
    assert_true(c.n - good >= 20);
    corpus_free(&c);
}

/* splitmix64: the mutations repeat exactly from run to run. */
static uint64_t next(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void test_seeded_mutations(void **state) {
    (void)state;
    static const char *const tokens[] = {"-",  "d6", "e7",  "!",     "?", "X",  "Х",  "(В;Н)", "{",  "}",
                                         "1.", "*",  "ку²", "ЧВ(Н)", " ", "\n", "b2", "\xd0",  "99", "-b3"};
    const int ntokens = (int)(sizeof tokens / sizeof tokens[0]);
    corpus c;
    corpus_load(&c);
    uint64_t s = 20261129;
    size_t cap = 1 << 14;
    uint8_t *buf = malloc(cap);
    for (int iter = 0; iter < 20000; iter++) {
        int k = (int)(next(&s) % (uint64_t)c.n);
        size_t n = c.size[k] < cap / 2 ? c.size[k] : cap / 2;
        memcpy(buf, c.data[k], n);
        for (int m = 1 + (int)(next(&s) % 4); m > 0; m--) {
            size_t at = n ? (size_t)(next(&s) % n) : 0;
            switch (next(&s) % 4) {
                case 0: /* flip a byte */
                    if (n) buf[at] ^= (uint8_t)(1u << (next(&s) % 8));
                    break;
                case 1: { /* insert a token */
                    const char *t = tokens[next(&s) % (uint64_t)ntokens];
                    size_t tl = strlen(t);
                    if (n + tl < cap) {
                        memmove(buf + at + tl, buf + at, n - at);
                        memcpy(buf + at, t, tl);
                        n += tl;
                    }
                    break;
                }
                case 2: { /* delete a run */
                    size_t len = n - at < 8 ? n - at : 1 + (size_t)(next(&s) % 8);
                    memmove(buf + at, buf + at + len, n - at - len);
                    n -= len;
                    break;
                }
                default: /* cut the end */ n = at; break;
            }
        }
        LLVMFuzzerTestOneInput(buf, n);
    }
    free(buf);
    corpus_free(&c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replay_corpus),
        cmocka_unit_test(test_seeded_mutations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
