/* print.c - a claim's result as text for people or as JSON. */
#include <string.h>

#include "../solver/json.h"
#include "proofs.h"

static void spec_desc(const pb_field_spec *s, char *buf, size_t len) {
    snprintf(buf, len, "(%d;%d;%d)", s->goal, s->width, s->length);
}

void pb_proofs_print(FILE *out, const pb_proofs_result *res) {
    fprintf(out, "claim      %s\n", res->claim);
    fprintf(out, "statement  %s\n", res->statement);
    fprintf(out, "method     %s\n", res->method);
    for (int i = 0; i < res->nfields; i++) {
        const pb_proofs_field *pf = &res->fields[i];
        char d[40];
        spec_desc(&pf->spec, d, sizeof d);
        if (pf->stepwalk || pf->turnwalk) {
            fprintf(out, "field      %-9s %s, %.1f s\n", d,
                    pf->complete ? "complete (exhaustive)"
                    : pf->failed ? "stopped at a counterexample"
                                 : "INCOMPLETE",
                    pf->seconds);
            if (pf->stepwalk)
                fprintf(out,
                        "           step walk: %d segment levels, %llu states, %llu steps, %llu finishing steps, "
                        "%llu%s finished games\n",
                        pf->step_levels, (unsigned long long)pf->states, (unsigned long long)pf->steps,
                        (unsigned long long)pf->fsteps, (unsigned long long)pf->step_games,
                        pf->games_overflow ? "+ (overflow)" : "");
            if (pf->turnwalk)
                fprintf(out,
                        "           turn walk: %d turns deep, %llu positions, %llu routes, %llu finishing routes, "
                        "%llu finished games%s\n",
                        pf->depth, (unsigned long long)pf->positions, (unsigned long long)pf->routes,
                        (unsigned long long)pf->finished, (unsigned long long)pf->games,
                        pf->xcheck > 0   ? " (= step walk)"
                        : pf->xcheck < 0 ? " (DIFFERS from the step walk)"
                                         : "");
            if (pf->note[0]) fprintf(out, "           %s\n", pf->note);
        } else if (pf->routes) {
            fprintf(out, "field      %-9s %s\n", d, pf->note);
        } else {
            fprintf(out, "fields     %s\n", pf->note);
        }
    }
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

void pb_proofs_json(pb_json *j, const pb_proofs_result *res) {
    char d[40];
    pb_json_object(j, NULL);
    pb_json_str(j, "claim", res->claim);
    pb_json_str(j, "statement", res->statement);
    pb_json_str(j, "method", res->method);
    pb_json_str(j, "verdict", pb_verdict_name(res->verdict));
    pb_json_array(j, "fields");
    for (int i = 0; i < res->nfields; i++) {
        const pb_proofs_field *pf = &res->fields[i];
        spec_desc(&pf->spec, d, sizeof d);
        pb_json_object(j, NULL);
        pb_json_str(j, "field", d);
        pb_json_bool(j, "complete", pf->complete);
        pb_json_bool(j, "failed", pf->failed);
        pb_json_num(j, "seconds", "%.3f", pf->seconds);
        if (pf->stepwalk) {
            pb_json_object(j, "step_walk");
            pb_json_int(j, "levels", pf->step_levels);
            pb_json_uint(j, "states", pf->states);
            pb_json_uint(j, "steps", pf->steps);
            pb_json_uint(j, "finishing_steps", pf->fsteps);
            pb_json_uint(j, "games", pf->step_games);
            pb_json_end(j);
        }
        if (pf->turnwalk) {
            pb_json_object(j, "turn_walk");
            pb_json_int(j, "depth", pf->depth);
            pb_json_uint(j, "positions", pf->positions);
            pb_json_uint(j, "routes", pf->routes);
            pb_json_uint(j, "finishing_routes", pf->finished);
            pb_json_uint(j, "games", pf->games);
            pb_json_raw(j, "agrees", pf->xcheck > 0 ? "true" : pf->xcheck < 0 ? "false" : "null");
            pb_json_end(j);
        }
        if (!pf->stepwalk && !pf->turnwalk) pb_json_uint(j, "count", pf->positions ? pf->positions : pf->routes);
        pb_json_bool(j, "games_overflow", pf->games_overflow);
        pb_json_str(j, "note", pf->note);
        pb_json_end(j);
    }
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
