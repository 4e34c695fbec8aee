/* bench_steps.c - move generation speed: single steps per second. */
#include <string.h>
#include <time.h>

#include "../solver/json.h"
#include "../solver/perft.h"
#include "bench.h"

/* CPU time of this thread: the rate of one core even when other processes
 * share the machine (wall time is reported beside it). */
static double thread_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double wall_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct bench_pos {
    const char *name;
    pb_rules rules;
    int g, w, l, s;
    const char *record;
    int depth;
} bench_pos;

int pb_bench_steps(const pb_opts *o) {
    static const bench_pos set[] = {
        {"book (2;6;8) start", PB_RULES_BOOK, 2, 6, 8, 0, "", 6},
        {"book (2;8;10) start", PB_RULES_BOOK, 2, 8, 10, 0, "", 6},
        {"book (2;6;8) middle", PB_RULES_BOOK, 2, 6, 8, 0, "d6-e7 e7-e8 e8-d8 d8-c7", 5},
        {"hockey (2;8;10) S=1 start", PB_RULES_HOCKEY, 2, 8, 10, 1, "", 6},
    };
    uint64_t total = 0;
    double total_t = 0, total_w = 0;
    pb_json j;
    if (!pb_bench_json_list(&j, o, "steps", 1, "positions"))
        printf("%-28s %6s %14s %9s %9s %14s\n", "position", "depth", "steps", "cpu s", "wall s", "steps/s (cpu)");
    for (size_t k = 0; k < sizeof set / sizeof set[0]; k++) {
        const bench_pos *b = &set[k];
        pb_field_spec sp = {b->rules, b->g, b->w, b->l, b->s, PB_DEAD_END_DRAW};
        pb_field *f;
        pb_game g;
        if (pb_bench_load(&sp, b->record, &f, &g)) return PB_EXIT_FAIL;
        double w0 = wall_seconds(), t0 = thread_seconds();
        uint64_t n = pb_perft_steps(f, &g.pos, b->depth);
        double t = thread_seconds() - t0, w = wall_seconds() - w0;
        if (t <= 0) t = 1e-9;
        total += n;
        total_t += t;
        total_w += w;
        if (o->json) {
            pb_json_object(&j, NULL);
            pb_json_str(&j, "name", b->name);
            pb_json_int(&j, "depth", b->depth);
            pb_json_uint(&j, "steps", n);
            pb_json_num(&j, "cpu_seconds", "%.3f", t);
            pb_json_num(&j, "wall_seconds", "%.3f", w);
            pb_json_num(&j, "steps_per_second", "%.0f", n / t);
            pb_json_end(&j);
        } else printf("%-28s %6d %14llu %9.3f %9.3f %14.0f\n", b->name, b->depth, (unsigned long long)n, t, w, n / t);
        pb_game_free(&g);
        pb_field_free(f);
    }
    if (o->json) {
        pb_json_end(&j);
        pb_json_uint(&j, "steps", total);
        pb_json_num(&j, "cpu_seconds", "%.3f", total_t);
        pb_json_num(&j, "wall_seconds", "%.3f", total_w);
        pb_json_num(&j, "steps_per_second", "%.0f", total / total_t);
        pb_json_end(&j);
    } else
        printf("%-28s %6s %14llu %9.3f %9.3f %14.0f\n", "total (one core)", "", (unsigned long long)total, total_t,
               total_w, total / total_t);
    return PB_EXIT_OK;
}
