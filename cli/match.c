/* match.c - the `--match` versions of solve, moves, perft and enumerate
 * (triple match play, docs/match.md).  The options and the game come from
 * the common loader (cli/common.c), which reads a match record when
 * --match is given; show and play need no version of their own. */
#include <stdlib.h>
#include <string.h>

#include "../solver/json.h"
#include "../solver/match_search.h"
#include "cli.h"
#include "stop.h"

static const char *key(int player) { return player == PB_TOP ? "top" : "bottom"; }

/* The win/draw/loss word of a goal difference (its sign). */
static const char *sign_name(int diff) { return diff > 0 ? "win" : diff < 0 ? "loss" : "draw"; }

static void print_text(const pb_field *f, const pb_game *g, const pb_match_result *r) {
    char desc[128], sc[64], buf[4096];
    int me = g->pos.to_move;
    printf("field        %s, match play\n", pb_field_describe(f, desc, sizeof desc));
    printf("position     %d turns played, %s, %s to move\n", g->nturns, pb_match_score(g->goals, sc, sizeof sc),
           pb_player_name(me));
    if (!r->known) printf("value        unknown (stopped)\n");
    else
        printf("value        goal difference %+d for %s (the player to move): %s\n", r->diff, pb_player_name(me),
               sign_name(r->diff));
    printf("first turns  %d routes in %d mirror classes%s\n", r->nturns, r->nclasses,
           r->mirror_lr ? " (the position is its own left-right mirror image)" : "");
    for (int i = 0; i < r->nturns; i++) {
        const pb_match_turn *t = &r->turns[i];
        pb_route_format(f, t->nodes, t->len, t->kick, buf, sizeof buf);
        if (t->known) printf("  %-28s %+d", buf, t->diff);
        else printf("  %-28s ?", buf);
        if (t->gain) printf(" %s", t->gain > 0 ? "scores" : "concedes");
        if (t->over) printf(" ends the match");
        if (t->klass != i) {
            const pb_match_turn *c = &r->turns[t->klass];
            printf(" mirror of %s", pb_route_format(f, c->nodes, c->len, c->kick, buf, sizeof buf));
        } else if (t->known && !t->over) {
            printf(" %llu plies, %.3f s", (unsigned long long)t->nodes_searched, t->seconds);
        }
        putchar('\n');
    }
    if (r->best >= 0) {
        const pb_match_turn *t = &r->turns[r->best];
        printf("best turn    %s\n", pb_route_format(f, t->nodes, t->len, t->kick, buf, sizeof buf));
    }
    if (r->nline) {
        printf("line         (the first value-keeping turn in generation order at each step)\n");
        for (int i = 0; i < r->nline; i++) {
            const pb_match_line_turn *l = &r->line[i];
            int goals[2] = {g->goals[0] + l->goals[0], g->goals[1] + l->goals[1]};
            printf("  %3d. %-28s", g->nturns + i + 1, pb_route_format(f, l->nodes, l->len, l->kick, buf, sizeof buf));
            if (l->goal) printf(" goal, %s", pb_match_score(goals, sc, sizeof sc));
            putchar('\n');
        }
        const pb_match_line_turn *last = &r->line[r->nline - 1];
        int goals[2] = {g->goals[0] + last->goals[0], g->goals[1] + last->goals[1]};
        int ng = last->goals[0] + last->goals[1];
        printf("             match over after %d turns, %s; %d goal%s on the line\n", g->nturns + r->nline,
               pb_match_score(goals, sc, sizeof sc), ng, ng == 1 ? "" : "s");
    }
    printf("nodes        %llu plies in %.3f s, %d thread%s\n", (unsigned long long)r->nodes, r->seconds, r->threads,
           r->threads == 1 ? "" : "s");
    printf("table        %.1f MiB, %zu slots; %llu probes, %llu hits, %llu stores\n", (double)r->tt_bytes / 1048576.0,
           r->tt_slots, (unsigned long long)r->probes, (unsigned long long)r->hits, (unsigned long long)r->stores);
}

static void json_route(pb_json *j, const char *k, const pb_field *f, const int16_t *nodes, int len, int kick) {
    char buf[4096];
    pb_json_str(j, k, pb_route_format(f, nodes, len, kick, buf, sizeof buf));
}

static void json_score(pb_json *j, int top, int bottom) {
    pb_json_object(j, "score");
    pb_json_int(j, "top", top);
    pb_json_int(j, "bottom", bottom);
    pb_json_end(j);
}

/* A value as JSON: the goal difference (null when not known) and its name. */
static void json_value(pb_json *j, int known, int diff) {
    if (known) pb_json_int(j, "goal_difference", diff);
    else pb_json_str(j, "goal_difference", NULL);
    pb_json_str(j, "value", known ? sign_name(diff) : "unknown");
}

static void json_first_turns(pb_json *j, const pb_field *f, const pb_match_result *r) {
    pb_json_array(j, "first_turns");
    for (int i = 0; i < r->nturns; i++) {
        const pb_match_turn *t = &r->turns[i];
        pb_json_object(j, NULL);
        json_route(j, "route", f, t->nodes, t->len, t->kick);
        json_value(j, t->known, t->diff);
        pb_json_int(j, "class", t->klass);
        pb_json_int(j, "goal", t->gain);
        pb_json_bool(j, "ends_match", t->over);
        pb_json_uint(j, "nodes", t->nodes_searched);
        pb_json_num(j, "seconds", "%.6f", t->seconds);
        pb_json_end(j);
    }
    pb_json_end(j);
}

/* The line of play with the score after each turn; its goals. */
static int json_line(pb_json *j, const pb_field *f, const pb_game *g, const pb_match_result *r) {
    pb_json_array(j, "line");
    int line_goals = 0;
    for (int i = 0; i < r->nline; i++) {
        const pb_match_line_turn *l = &r->line[i];
        pb_json_object(j, NULL);
        json_route(j, "route", f, l->nodes, l->len, l->kick);
        pb_json_bool(j, "goal", l->goal);
        json_score(j, g->goals[PB_TOP] + l->goals[PB_TOP], g->goals[PB_BOTTOM] + l->goals[PB_BOTTOM]);
        pb_json_end(j);
        line_goals += l->goal;
    }
    pb_json_end(j);
    return line_goals;
}

static void print_json(const pb_field *f, const pb_game *g, const pb_match_result *r) {
    char desc[128];
    pb_json j;
    pb_json_init(&j, stdout);
    pb_json_object(&j, NULL);
    pb_json_str(&j, "rules", "triple");
    pb_json_bool(&j, "match", 1);
    pb_json_str(&j, "field", pb_field_describe(f, desc, sizeof desc));
    pb_json_int(&j, "goal", f->spec.goal);
    pb_json_int(&j, "width", f->spec.width);
    pb_json_int(&j, "length", f->spec.length);
    pb_json_int(&j, "turns_played", g->nturns);
    pb_json_str(&j, "to_move", key(g->pos.to_move));
    json_score(&j, g->goals[PB_TOP], g->goals[PB_BOTTOM]);
    json_value(&j, r->known, r->diff);
    pb_json_bool(&j, "complete", r->complete);
    pb_json_bool(&j, "stopped", r->stopped);
    pb_json_int(&j, "classes", r->nclasses);
    json_first_turns(&j, f, r);
    if (r->best >= 0) json_route(&j, "best", f, r->turns[r->best].nodes, r->turns[r->best].len, r->turns[r->best].kick);
    else pb_json_str(&j, "best", NULL);
    pb_json_int(&j, "line_goals", json_line(&j, f, g, r));
    pb_json_uint(&j, "nodes", r->nodes);
    pb_json_num(&j, "seconds", "%.6f", r->seconds);
    pb_json_int(&j, "threads", r->threads);
    pb_json_object(&j, "table");
    pb_json_uints(&j, (const pb_json_count[]){{"bytes", r->tt_bytes},
                                              {"slots", r->tt_slots},
                                              {"probes", r->probes},
                                              {"hits", r->hits},
                                              {"stores", r->stores},
                                              {NULL, 0}});
    pb_json_end(&j);
    pb_cli_json_version(&j);
    pb_json_end(&j);
}

static int match_over(const pb_opts *o, const pb_game *g) {
    char buf[128];
    pb_game_result(g, buf, sizeof buf);
    if (o->json) {
        pb_json j;
        pb_json_init(&j, stdout);
        pb_json_object(&j, NULL);
        pb_json_bool(&j, "match_over", 1);
        pb_json_str(&j, "result", buf);
        json_score(&j, g->goals[PB_TOP], g->goals[PB_BOTTOM]);
        pb_json_end(&j);
    } else {
        printf("the %s\n", buf);
    }
    return PB_EXIT_OK;
}

int pb_cli_match_solve(const pb_opts *o, const pb_field *f, const pb_game *g, volatile sig_atomic_t *stop) {
    if (o->mpi) return pb_fail(PB_EXIT_USAGE, "--match has no cluster mode (--mpi)");
    if (o->svg) return pb_fail(PB_EXIT_USAGE, "solve --match draws no SVG: use show --match --svg with the line");
    if (g->end != PB_END_NONE) return match_over(o, g);
    pb_match_opts mo = {0};
    mo.threads = o->threads > 0 ? o->threads : 1;
    mo.hash_bytes = o->memory ? (size_t)pb_parse_size(o->memory) : 0;
    mo.time_limit = o->time_limit;
    mo.stop = stop;
    mo.progress = o->quiet ? NULL : stderr;
    pb_match_result r;
    if (pb_match_solve(f, &g->pos, &mo, &r))
        return pb_fail(PB_EXIT_MEMORY, "cannot allocate the transposition table (--memory %s)",
                       o->memory ? o->memory : "");
    if (o->json) print_json(f, g, &r);
    else print_text(f, g, &r);
    int status = PB_EXIT_OK;
    if (r.stopped || !r.known) {
        fflush(stdout);
        status = pb_fail(PB_EXIT_STOPPED, "stopped by %s before the end", pb_stop_by("the time limit"));
    }
    pb_match_result_free(&r);
    return status;
}

typedef struct list_ctx {
    pb_json *j; /* NULL: text */
    int n;
    char *buf;
    size_t buflen;
} list_ctx;

static int list_ply(void *c, const pb_field *f, pb_position *after, const pb_route *r, int over) {
    (void)after;
    list_ctx *x = c;
    char what[96];
    pb_route_format(f, r->nodes, r->len, r->kick, x->buf, x->buflen);
    if (x->j) {
        pb_json_object(x->j, NULL);
        pb_json_str(x->j, "route", x->buf);
        pb_json_int(x->j, "steps", r->len - 1);
        pb_json_bool(x->j, "goal", r->end == PB_END_GOAL);
        pb_json_str(x->j, "scorer", r->end == PB_END_GOAL ? key(r->loser ^ 1) : NULL);
        pb_json_bool(x->j, "ends_match", over);
        pb_json_end(x->j);
    } else {
        printf("%-24s %s\n", x->buf, pb_match_ply_text(r, over, what, sizeof what));
    }
    x->n++;
    return 0;
}

int pb_cli_match_moves(const pb_opts *o, const pb_field *f, pb_game *g) {
    char res[128];
    pb_json j;
    pb_json_init(&j, stdout);
    if (o->json) {
        pb_json_object(&j, NULL);
        pb_json_bool(&j, "over", g->end != PB_END_NONE);
        if (g->end != PB_END_NONE) pb_json_str(&j, "result", pb_game_result(g, res, sizeof res));
        else pb_json_str(&j, "to_move", key(g->pos.to_move));
        json_score(&j, g->goals[PB_TOP], g->goals[PB_BOTTOM]);
        pb_json_array(&j, "moves");
    } else if (g->end != PB_END_NONE) {
        printf("the %s\n", pb_game_result(g, res, sizeof res));
        return PB_EXIT_OK;
    } else {
        printf("%s; %s to move from the ball\n", pb_match_score(g->goals, res, sizeof res),
               pb_player_name(g->pos.to_move));
    }
    list_ctx x = {o->json ? &j : NULL, 0, NULL, 16 * (size_t)f->nsegments + 64};
    x.buf = malloc(x.buflen);
    if (g->end == PB_END_NONE) pb_match_foreach(f, &g->pos, list_ply, &x);
    if (o->json) {
        pb_json_end(&j);
        pb_json_int(&j, "count", x.n);
        pb_cli_json_version(&j);
        pb_json_end(&j);
    } else {
        printf("%d turns\n", x.n);
    }
    free(x.buf);
    return PB_EXIT_OK;
}

int pb_cli_match_perft(const pb_opts *o, const pb_field *f, pb_game *g) {
    int depth = o->depth >= 0 ? o->depth : 3;
    uint64_t *seq = calloc((size_t)depth + 1, sizeof *seq), *fin = calloc((size_t)depth + 1, sizeof *fin);
    int rc = g->end == PB_END_NONE ? pb_match_perft(f, &g->pos, depth, seq, fin) : 0;
    pb_json j;
    pb_json_init(&j, stdout);
    if (o->json) {
        pb_json_object(&j, NULL);
        pb_json_bool(&j, "match", 1);
        pb_json_array(&j, "depths");
    } else {
        printf("%5s %20s %16s\n", "depth", "sequences", "finished");
    }
    for (int d = 1; d <= depth; d++) {
        if (o->json) {
            pb_json_object(&j, NULL);
            pb_json_int(&j, "depth", d);
            pb_json_uint(&j, "sequences", seq[d - 1]);
            pb_json_uint(&j, "finished", fin[d - 1]);
            pb_json_end(&j);
        } else {
            printf("%5d %20llu %16llu\n", d, (unsigned long long)seq[d - 1], (unsigned long long)fin[d - 1]);
        }
    }
    if (o->json) {
        pb_json_end(&j);
        pb_cli_json_version(&j);
        pb_json_end(&j);
    }
    free(seq);
    free(fin);
    if (rc) return pb_fail(PB_EXIT_FAIL, "a count overflowed 64 bits");
    return PB_EXIT_OK;
}

int pb_cli_match_enumerate(const pb_opts *o, const pb_field *f, pb_game *g) {
    if (o->mpi || o->checkpoint || o->resume || o->depth >= 0)
        return pb_fail(PB_EXIT_USAGE, "enumerate --match counts whole matches: no --depth, --mpi or checkpoints");
    /* Every goal draws at least one segment. */
    int maxg = f->nsegments < 64 ? f->nsegments : 64;
    size_t n = (size_t)(maxg + 1) * (size_t)(maxg + 1);
    uint64_t *counts = calloc(n, sizeof *counts), total = 0;
    int rc = 0;
    if (g->end == PB_END_NONE) rc = pb_match_count_finished(f, &g->pos, maxg, counts);
    else counts[0] = 1;
    if (rc) {
        free(counts);
        return pb_fail(PB_EXIT_FAIL, "a count overflowed 64 bits (or a side scored more than %d goals)", maxg);
    }
    pb_json j;
    pb_json_init(&j, stdout);
    if (o->json) {
        pb_json_object(&j, NULL);
        pb_json_bool(&j, "match", 1);
        pb_json_array(&j, "finished_matches");
    } else if (o->csv) printf("top,bottom,matches\n");
    else printf("finished matches by final score (Top : Bottom)\n%5s %7s %20s\n", "top", "bottom", "matches");
    for (int t = 0; t <= maxg; t++)
        for (int b = 0; b <= maxg; b++) {
            uint64_t c = counts[b * (maxg + 1) + t];
            if (!c) continue;
            int ft = g->goals[PB_TOP] + t, fb = g->goals[PB_BOTTOM] + b;
            total += c;
            if (o->json) {
                pb_json_object(&j, NULL);
                pb_json_int(&j, "top", ft);
                pb_json_int(&j, "bottom", fb);
                pb_json_uint(&j, "matches", c);
                pb_json_end(&j);
            } else if (o->csv) printf("%d,%d,%llu\n", ft, fb, (unsigned long long)c);
            else printf("%5d %7d %20llu\n", ft, fb, (unsigned long long)c);
        }
    if (o->json) {
        pb_json_end(&j);
        pb_json_uint(&j, "total", total);
        pb_cli_json_version(&j);
        pb_json_end(&j);
    } else if (!o->csv) printf("total %llu\n", (unsigned long long)total);
    free(counts);
    return PB_EXIT_OK;
}

int pb_cli_match_run(const pb_opts *o, int (*fn)(const pb_opts *o, const pb_field *f, pb_game *g)) {
    pb_field *f;
    pb_game g;
    if (pb_cli_load(o, &f, &g) != PB_CLI_GO) return PB_EXIT_USAGE;
    int rc = fn(o, f, &g);
    pb_game_free(&g);
    pb_field_free(f);
    return rc;
}
