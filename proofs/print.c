/* print.c - a claim's result as text for people or as JSON. */
#include <string.h>

#include "../solver/json.h"
#include "proofs.h"

static void spec_desc(const pb_field_spec *s, char *buf, size_t len) {
    snprintf(buf, len, "(%d;%d;%d)", s->goal, s->width, s->length);
}

/* A walk's line: its depth (in depth_words), its first three counts in
 * words, then the finished games with marks inside and after. */
static void walk_text(FILE *out, const char *walk, int depth, const char *depth_words, const char *const words[3],
                      const uint64_t counts[4], const char *inside, const char *after) {
    fprintf(out, "           %s: %d %s", walk, depth, depth_words);
    for (int i = 0; i < 3; i++) fprintf(out, ", %llu %s", (unsigned long long)counts[i], words[i]);
    fprintf(out, ", %llu%s finished games%s\n", (unsigned long long)counts[3], inside, after);
}

static const char *const step_words[3] = {"states", "steps", "finishing steps"};
static const char *const turn_words[3] = {"positions", "routes", "finishing routes"};

/* One field of a claim: the walks' figures, or the field's note. */
static void field_text(FILE *out, const pb_proofs_field *pf) {
    char d[40];
    spec_desc(&pf->spec, d, sizeof d);
    if (!pf->stepwalk && !pf->turnwalk) {
        if (pf->routes) fprintf(out, "field      %-9s %s\n", d, pf->note);
        else fprintf(out, "fields     %s\n", pf->note);
        return;
    }
    fprintf(out, "field      %-9s %s, %.1f s\n", d,
            pf->complete        ? "complete (exhaustive)"
            : pf->failed        ? "stopped at a counterexample"
            : pf->out_of_memory ? "INCOMPLETE (memory ran out)"
                                : "INCOMPLETE",
            pf->seconds);
    if (pf->stepwalk) {
        const uint64_t steps[4] = {pf->states, pf->steps, pf->fsteps, pf->step_games};
        walk_text(out, "step walk", pf->step_levels, "segment levels", step_words, steps,
                  pf->games_overflow ? "+ (overflow)" : "", "");
    }
    if (pf->turnwalk) {
        const uint64_t turns[4] = {pf->positions, pf->routes, pf->finished, pf->games};
        walk_text(out, "turn walk", pf->depth, "turns deep", turn_words, turns, "",
                  pf->xcheck > 0   ? " (= step walk)"
                  : pf->xcheck < 0 ? " (DIFFERS from the step walk)"
                                   : "");
    }
    if (pf->note[0]) fprintf(out, "           %s\n", pf->note);
}

void pb_proofs_print(FILE *out, const pb_proofs_result *res) {
    fprintf(out, "claim      %s\n", res->claim);
    fprintf(out, "statement  %s\n", res->statement);
    fprintf(out, "method     %s\n", res->method);
    for (int i = 0; i < res->nfields; i++) field_text(out, &res->fields[i]);
    if (res->has_cx) {
        char d[40];
        spec_desc(&res->cx_spec, d, sizeof d);
        fprintf(out, "counterexample on %s: %s\n", d, res->cx_what);
        if (res->cx_record)
            fprintf(out, "record     %s%s\n", res->cx_from_start ? "" : "(from the given position) ", res->cx_record);
    }
    fprintf(out, "verdict    %s\n", pb_verdict_name(res->verdict));
    fprintf(out, "summary    %s\n", res->summary);
}

/* The counts of the two walks, in the order walk_json takes them. */
static const char *const step_keys[4] = {"states", "steps", "finishing_steps", "games"};
static const char *const turn_keys[4] = {"positions", "routes", "finishing_routes", "games"};

/* A walk's figures: an object named walk with its depth under depth_key,
 * then its four counts; the caller adds more and closes it. */
static void walk_json(pb_json *j, const char *walk, const char *depth_key, int depth, const char *const keys[4],
                      const uint64_t counts[4]) {
    pb_json_object(j, walk);
    pb_json_int(j, depth_key, depth);
    for (int i = 0; i < 4; i++) pb_json_uint(j, keys[i], counts[i]);
}

/* One field of a claim: its verdict, its time and the figures of its walks. */
static void field_json(pb_json *j, const pb_proofs_field *pf) {
    char d[40];
    spec_desc(&pf->spec, d, sizeof d);
    pb_json_object(j, NULL);
    pb_json_str(j, "field", d);
    pb_json_bool(j, "complete", pf->complete);
    pb_json_bool(j, "failed", pf->failed);
    if (pf->out_of_memory) pb_json_bool(j, "out_of_memory", 1);
    pb_json_num(j, "seconds", "%.3f", pf->seconds);
    if (pf->stepwalk) {
        const uint64_t steps[4] = {pf->states, pf->steps, pf->fsteps, pf->step_games};
        walk_json(j, "step_walk", "levels", pf->step_levels, step_keys, steps);
        pb_json_end(j);
    }
    if (pf->turnwalk) {
        const uint64_t turns[4] = {pf->positions, pf->routes, pf->finished, pf->games};
        walk_json(j, "turn_walk", "depth", pf->depth, turn_keys, turns);
        pb_json_raw(j, "agrees", pf->xcheck > 0 ? "true" : pf->xcheck < 0 ? "false" : "null");
        pb_json_end(j);
    }
    if (!pf->stepwalk && !pf->turnwalk) pb_json_uint(j, "count", pf->positions ? pf->positions : pf->routes);
    pb_json_bool(j, "games_overflow", pf->games_overflow);
    pb_json_str(j, "note", pf->note);
    pb_json_end(j);
}

void pb_proofs_json(pb_json *j, const pb_proofs_result *res) {
    char d[40];
    pb_json_object(j, NULL);
    pb_json_str(j, "claim", res->claim);
    pb_json_str(j, "statement", res->statement);
    pb_json_str(j, "method", res->method);
    pb_json_str(j, "verdict", pb_verdict_name(res->verdict));
    pb_json_array(j, "fields");
    for (int i = 0; i < res->nfields; i++) field_json(j, &res->fields[i]);
    pb_json_end(j);
    pb_json_str(j, "summary", res->summary);
    if (res->has_cx) {
        spec_desc(&res->cx_spec, d, sizeof d);
        pb_json_object(j, "counterexample");
        pb_json_str(j, "field", d);
        pb_json_str(j, "what", res->cx_what);
        pb_json_str(j, "record", res->cx_record ? res->cx_record : "");
        pb_json_bool(j, "from_start", res->cx_from_start);
        pb_json_end(j);
    }
    pb_json_end(j);
}
