/* cmd_prove.c - `paperball prove`: check the book's theorems exhaustively
 * (proofs/), print per claim its statement, method, fields, counts and
 * verdict; write each counterexample's SVG diagram. */
#include <stdlib.h>
#include <string.h>

#include "../proofs/proofs.h"
#include "../solver/diagram.h"
#include "cli.h"

static void help(FILE *out) {
    fputs("usage: paperball prove [--claim NAME[,NAME...]] [--all] [--field G;W;L] [--depth D]\n"
          "                       [--json] [--out DIR] [--odd [--svg FILE]]\n\n"
          "Checks the theorems of the book \"Futbol na bumage\" (seed 003) on every field where\n"
          "the book game can be enumerated, and prints for each claim its statement, method,\n"
          "the fields and counts checked, and the verdict.  A failed claim prints its shortest\n"
          "counterexample as a game record and writes its diagram to DIR/counterexample-NAME.svg\n"
          "(--out, default the current directory).\n\n"
          "  --claim NAME   check these claims only (comma separated); --all (the default): every claim\n"
          "  --field F      check on this field only (walking claims, empty-count; first-moves)\n"
          "  --depth D      follow games for at most D turns (the check is then not exhaustive)\n"
          "  --odd          print the odd/even map of the field (the book's figure 4); with\n"
          "                 --svg FILE also write it as SVG\n\n"
          "Claims:\n",
          out);
    for (const pb_proofs_claim *c = pb_proofs_claims; c->name; c++) fprintf(out, "  %-16s %s\n", c->name, c->statement);
    fputs("\nExit status: 0 every checked claim holds (or is open: not checked to the end),\n"
          "1 a claim fails, 2 bad input.\n\n",
          out);
    pb_common_help(out);
}

/* The odd/even map as text: 'o' odd (red in the book), '.' even, 'C' the
 * centre, with row numbers and column letters. */
static void print_odd_map(FILE *out, const pb_field *f) {
    char d[80];
    fprintf(out, "odd/even map of %s: o = odd (red), . = even, C = centre (even)\n",
            pb_field_describe(f, d, sizeof d));
    for (int y = f->rows - 1; y >= 0; y--) {
        fprintf(out, "%3d ", y + 1);
        for (int x = 0; x < f->cols; x++) {
            int i = pb_at(f, x, y);
            char c = !(f->flags[i] & PB_NODE) ? ' ' : i == f->centre ? 'C' : (f->flags[i] & PB_ODD) ? 'o' : '.';
            fprintf(out, " %c", c);
        }
        fputc('\n', out);
    }
    fputs("    ", out);
    for (int x = 0; x < f->cols; x++) {
        char nb[8];
        pb_node_name(f, pb_at(f, x, 0), nb);
        fprintf(out, " %c", nb[0]);
    }
    fputc('\n', out);
}

/* The odd/even map as SVG, drawn like every other picture: the start,
 * every node named, odd ones red, as in the book's figure 4. */
static int write_odd_svg(const char *path, const pb_field *f) {
    pb_game g;
    pb_game_init(&g, f, PB_TOP);
    pb_diagram_opts dop = {.odd = 1, .names = 1, .highlight_from = -1, .title = "Odd (red) and even nodes"};
    char *svg = pb_diagram_svg(&g, &dop);
    pb_game_free(&g);
    FILE *out = fopen(path, "w");
    int rc = !out || fputs(svg, out) < 0;
    if (out && fclose(out)) rc = 1;
    free(svg);
    return rc ? -1 : 0;
}

int cmd_prove(int argc, char **argv) {
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            help(stdout);
            return PB_EXIT_OK;
        }
    pb_opts o;
    if (pb_opts_parse(&o, argc, argv)) return PB_EXIT_USAGE;
    if (o.nargs > 0) return pb_fail(PB_EXIT_USAGE, "prove takes no arguments (got '%s')", o.args[0]);
    if (o.spec.rules != PB_RULES_BOOK) return pb_fail(PB_EXIT_USAGE, "the book's theorems are about --rules book");
    if (o.record || o.record_file) return pb_fail(PB_EXIT_USAGE, "prove checks from the start: no --record");

    /* Which claims. */
    const pb_proofs_claim *run[16];
    int nrun = 0;
    if (o.claim && o.all) return pb_fail(PB_EXIT_USAGE, "give --claim or --all, not both");
    if (o.claim) {
        char *list = strdup(o.claim), *save = NULL;
        for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            const pb_proofs_claim *c = pb_proofs_find(t);
            if (!c) {
                int rc = pb_fail(PB_EXIT_USAGE, "unknown claim '%s' (see paperball prove --help)", t);
                free(list);
                return rc;
            }
            if (nrun < 16) run[nrun++] = c;
        }
        free(list);
        if (!nrun) return pb_fail(PB_EXIT_USAGE, "--claim needs a claim name");
    } else if (!o.odd || o.all) {
        for (const pb_proofs_claim *c = pb_proofs_claims; c->name; c++) run[nrun++] = c;
    }

    pb_field *f = pb_cli_field(&o);
    if (!f) return PB_EXIT_USAGE;
    if (o.odd) {
        if (!o.json) print_odd_map(stdout, f);
        if (o.svg && write_odd_svg(o.svg, f)) {
            pb_field_free(f);
            return pb_fail(PB_EXIT_FAIL, "cannot write '%s'", o.svg);
        }
        if (!o.json && nrun) fputc('\n', stdout);
    } else if (o.svg) {
        pb_field_free(f);
        return pb_fail(PB_EXIT_USAGE, "--svg goes with --odd (counterexamples go to --out DIR)");
    }

    pb_proofs_opts po;
    memset(&po, 0, sizeof po);
    if (o.field_given) po.fields = &o.spec, po.nfields = 1;
    if (o.depth > 0) po.max_depth = o.depth;
    const char *dir = o.out ? o.out : ".";
    int any_fail = 0;
    if (o.json) printf("{\"claims\": [\n");
    for (int k = 0; k < nrun; k++) {
        pb_proofs_result res;
        pb_verdict v = pb_proofs_run(run[k], &po, &res);
        if (v == PB_VERDICT_FAILS) any_fail = 1;
        char path[1024] = "";
        if (v == PB_VERDICT_FAILS && res.cx_svg) {
            snprintf(path, sizeof path, "%s/counterexample-%s.svg", dir, res.claim);
            FILE *out = fopen(path, "w");
            if (!out || fputs(res.cx_svg, out) < 0 || fclose(out)) {
                pb_proofs_result_free(&res);
                pb_field_free(f);
                return pb_fail(PB_EXIT_FAIL, "cannot write '%s'", path);
            }
        }
        if (o.json) {
            if (k) printf(",\n");
            pb_proofs_print_json(stdout, &res);
        } else {
            pb_proofs_print(stdout, &res);
            if (path[0]) printf("svg        %s\n", path);
            printf("\n");
        }
        fflush(stdout);
        pb_proofs_result_free(&res);
    }
    if (o.json) printf("], \"all_hold\": %s}\n", any_fail ? "false" : "true");
    pb_field_free(f);
    return any_fail ? PB_EXIT_FAIL : PB_EXIT_OK;
}
