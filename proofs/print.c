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
            fprintf(out, "field      %-9s %s, %.1f s\n", d, pf->complete ? "complete (exhaustive)" : pf->failed ? "stopped at a counterexample" : "INCOMPLETE",
                    pf->seconds);
            if (pf->stepwalk)
                fprintf(out,
                        "           step walk: %d segment levels, %llu states, %llu steps, %llu finishing steps, "
                        "%llu%s finished games\n",
                        pf->step_levels, (unsigned long long)pf->states, (unsigned long long)pf->steps,
                        (unsigned long long)pf->fsteps, (unsigned long long)pf->step_games,
                        pf->games_overflow ? "+ (overflow)" : "");
            if (pf->turnwalk)
                fprintf(out, "           turn walk: %d turns deep, %llu positions, %llu routes, %llu finishing routes, "
                             "%llu finished games%s\n",
                        pf->depth, (unsigned long long)pf->positions, (unsigned long long)pf->routes,
                        (unsigned long long)pf->finished, (unsigned long long)pf->games,
                        pf->xcheck > 0 ? " (= step walk)" : pf->xcheck < 0 ? " (DIFFERS from the step walk)" : "");
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

void pb_proofs_print_json(FILE *out, const pb_proofs_result *res) {
    fprintf(out, "{\"claim\": ");
    pb_json_string(out, res->claim);
    fprintf(out, ", \"statement\": ");
    pb_json_string(out, res->statement);
    fprintf(out, ", \"method\": ");
    pb_json_string(out, res->method);
    fprintf(out, ", \"verdict\": ");
    pb_json_string(out, pb_verdict_name(res->verdict));
    fprintf(out, ", \"fields\": [");
    for (int i = 0; i < res->nfields; i++) {
        const pb_proofs_field *pf = &res->fields[i];
        char d[40];
        spec_desc(&pf->spec, d, sizeof d);
        fprintf(out, "%s{\"field\": ", i ? ", " : "");
        pb_json_string(out, d);
        fprintf(out,
                ", \"complete\": %s, \"failed\": %s, \"seconds\": %.3f", pf->complete ? "true" : "false",
                pf->failed ? "true" : "false", pf->seconds);
        if (pf->stepwalk)
            fprintf(out, ", \"step_walk\": {\"levels\": %d, \"states\": %llu, \"steps\": %llu, \"finishing_steps\": %llu, \"games\": %llu}",
                    pf->step_levels, (unsigned long long)pf->states, (unsigned long long)pf->steps,
                    (unsigned long long)pf->fsteps, (unsigned long long)pf->step_games);
        if (pf->turnwalk)
            fprintf(out,
                    ", \"turn_walk\": {\"depth\": %d, \"positions\": %llu, \"routes\": %llu, \"finishing_routes\": "
                    "%llu, \"games\": %llu, \"agrees\": %s}",
                    pf->depth, (unsigned long long)pf->positions, (unsigned long long)pf->routes,
                    (unsigned long long)pf->finished, (unsigned long long)pf->games,
                    pf->xcheck > 0 ? "true" : pf->xcheck < 0 ? "false" : "null");
        if (!pf->stepwalk && !pf->turnwalk)
            fprintf(out, ", \"count\": %llu", (unsigned long long)(pf->positions ? pf->positions : pf->routes));
        fprintf(out, ", \"games_overflow\": %s, \"note\": ", pf->games_overflow ? "true" : "false");
        pb_json_string(out, pf->note);
        fputc('}', out);
    }
    fprintf(out, "], \"summary\": ");
    pb_json_string(out, res->summary);
    if (res->has_cx) {
        char d[40];
        spec_desc(&res->cx_spec, d, sizeof d);
        fprintf(out, ", \"counterexample\": {\"field\": ");
        pb_json_string(out, d);
        fprintf(out, ", \"what\": ");
        pb_json_string(out, res->cx_what);
        fprintf(out, ", \"record\": ");
        pb_json_string(out, res->cx_record ? res->cx_record : "");
        fprintf(out, ", \"from_start\": %s}", res->cx_from_start ? "true" : "false");
    }
    fprintf(out, "}\n");
}
