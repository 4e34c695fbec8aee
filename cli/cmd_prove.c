/* cmd_prove.c - `paperball prove`: check the book's theorems exhaustively
 * (proofs/), print per claim its statement, method, fields, counts and
 * verdict; write each counterexample's SVG diagram. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../proofs/proofs.h"
#include "../solver/diagram.h"
#include "../solver/json.h"
#include "cli.h"

/* The odd/even map as text: 'o' odd (red in the book), '.' even, 'C' the
 * centre, with row numbers and column letters. */
static void print_odd_map(FILE *out, const pb_field *f) {
    char d[80];
    fprintf(out, "odd/even map of %s: o = odd (red), . = even, C = centre (even)\n", pb_field_describe(f, d, sizeof d));
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
    char d[80], title[160];
    snprintf(title, sizeof title, "odd (red) and even nodes of %s", pb_field_describe(f, d, sizeof d));
    pb_game g;
    pb_game_init(&g, f, PB_TOP);
    pb_diagram_opts dop = {.odd = 1, .names = 1, .highlight_from = -1, .title = title};
    char *svg = pb_diagram_svg(&g, &dop);
    pb_game_free(&g);
    int rc = pb_write_file(path, svg);
    free(svg);
    return rc;
}

/* The claims and the exit statuses under the usage line. */
static const char *about(char *buf, size_t len) {
    size_t n =
        (size_t)snprintf(buf, len, "%s",
                         "Checks the theorems of the book \"Futbol na bumage\" on every field where the\n"
                         "book game can be enumerated, and prints for each claim its statement, method,\n"
                         "the fields and counts checked, and the verdict.  A failed claim prints its shortest\n"
                         "counterexample as a game record and writes its diagram to DIR/counterexample-NAME.svg\n"
                         "(--out, default the current directory).  Exit status 6 when a claim fails.\n\nClaims:\n");
    for (const pb_proofs_claim *c = pb_proofs_claims; c->name && n < len; c++)
        n += (size_t)snprintf(buf + n, len - n, "  %-16s %s\n", c->name, c->statement);
    return buf;
}

/* --out DIR must be a directory that can be written, checked before the
 * work so that no report is lost at the end. */
static int check_out_dir(const char *dir) {
    struct stat st;
    if (stat(dir, &st)) return pb_fail(PB_EXIT_USAGE, "--out %s: %s", dir, strerror(errno));
    if (!S_ISDIR(st.st_mode)) return pb_fail(PB_EXIT_USAGE, "--out %s: not a directory", dir);
    if (access(dir, W_OK)) return pb_fail(PB_EXIT_USAGE, "--out %s: %s", dir, strerror(errno));
    return PB_EXIT_OK;
}

/* The claims of --claim (or all of them) into run; their number, or -1
 * after the error. */
static int choose_claims(const pb_opts *o, const pb_proofs_claim **run, int max) {
    int nrun = 0;
    if (o->claim && o->all) return pb_fail(PB_EXIT_USAGE, "give --claim or --all, not both"), -1;
    if (!o->claim) {
        if (!o->odd || o->all)
            for (const pb_proofs_claim *c = pb_proofs_claims; c->name && nrun < max; c++) run[nrun++] = c;
        return nrun;
    }
    char *list = strdup(o->claim), *save = NULL;
    for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        const pb_proofs_claim *c = pb_proofs_find(t);
        if (!c) {
            pb_fail(PB_EXIT_USAGE, "unknown claim '%s' (see paperball prove --help)", t);
            free(list);
            return -1;
        }
        if (nrun < max) run[nrun++] = c;
    }
    free(list);
    if (!nrun) return pb_fail(PB_EXIT_USAGE, "--claim needs a claim name"), -1;
    return nrun;
}

/* --odd: the odd/even map (text, and SVG with --svg).  PB_EXIT_OK or the
 * status to exit with. */
static int odd_map(const pb_opts *o, const pb_field *f, int nrun) {
    if (!o->odd)
        return o->svg ? pb_fail(PB_EXIT_USAGE, "--svg goes with --odd (counterexamples go to --out DIR)") : PB_EXIT_OK;
    if (!o->json) print_odd_map(stdout, f);
    int rc = o->svg ? write_odd_svg(o->svg, f) : PB_EXIT_OK;
    if (rc == PB_EXIT_OK && !o->json && nrun) fputc('\n', stdout);
    return rc;
}

/* What the run of the claims came to. */
typedef struct prove_tally {
    int any_fail, skipped, status;
} prove_tally;

/* Runs one claim and prints its report (j: the JSON array, or NULL). */
static void run_claim(const pb_opts *o, const pb_proofs_claim *c, const pb_proofs_opts *po, pb_json *j,
                      prove_tally *t) {
    pb_proofs_result res;
    pb_verdict v = pb_proofs_run(c, po, &res);
    if (v == PB_VERDICT_FAILS) t->any_fail = 1;
    char path[1024] = "";
    if (v == PB_VERDICT_FAILS && res.cx_svg) {
        snprintf(path, sizeof path, "%s/counterexample-%s.svg", o->out ? o->out : ".", res.claim);
        /* A lost diagram is reported at the end: the other claims go on. */
        if (pb_write_file(path, res.cx_svg) != PB_EXIT_OK) t->status = PB_EXIT_WRITE, path[0] = 0;
    }
    if (j) pb_proofs_json(j, &res);
    else {
        pb_proofs_print(stdout, &res);
        if (path[0]) printf("svg        %s\n", path);
        printf("\n");
    }
    fflush(stdout);
    pb_proofs_result_free(&res);
}

/* Every claim of run, in order; a claim reached after the deadline is not
 * started (said in the output). */
static prove_tally run_claims(const pb_opts *o, const pb_proofs_claim **run, int nrun, const pb_proofs_opts *po) {
    prove_tally t = {0, 0, PB_EXIT_OK};
    pb_json j;
    if (o->json) {
        pb_json_init(&j, stdout);
        pb_json_object(&j, NULL);
        pb_cli_json_version(&j);
        pb_json_array(&j, "claims");
    }
    for (int k = 0; k < nrun; k++) {
        if (po->deadline > 0 && pb_walk_now() >= po->deadline) {
            if (o->json) pb_json_str(&j, NULL, run[k]->name);
            else printf("claim      %s\nverdict    not checked (the time limit came first)\n\n", run[k]->name);
            t.skipped++;
            continue;
        }
        run_claim(o, run[k], po, o->json ? &j : NULL, &t);
    }
    if (o->json) {
        pb_json_end(&j);
        pb_json_bool(&j, "all_hold", !t.any_fail && !t.skipped);
        pb_json_int(&j, "not_checked", t.skipped);
        pb_json_end(&j);
    }
    return t;
}

int cmd_prove(int argc, char **argv) {
    pb_opts o;
    char text[4096];
    const pb_option options[] = {
        PB_OPT_TEXT("claim", "NAME[,NAME...]", &o.claim, "check these claims only (comma separated)"),
        PB_OPT_FLAG("all", &o.all, "check every claim (the default)"),
        {.name = "field",
         .value = "G;W;L",
         .help = "check on this field only (walking claims, empty-count; first-moves)",
         .kind = PB_ARG_CUSTOM,
         .target = &o,
         .parse = pb_opt_field},
        PB_OPT_DEPTH(o, "follow games for at most D turns (the check is then not exhaustive)"),
        PB_OPT_TIME_LIMIT(o, "stop walking after SECONDS: the claims not finished are reported\n"
                             "as not checked exhaustively (exit 3)"),
        PB_OPT_TEXT("out", "DIR", &o.out, "directory of the counterexample diagrams (default .)"),
        PB_OPT_FLAG("odd", &o.odd, "print the odd/even map of the field (the book's figure 4)"),
        PB_OPT_SVG(o, "with --odd: also write the map as SVG to FILE"),
        PB_OPT_JSON(o),
        PB_OPT_END};
    const pb_command cmd = {"prove", "[options]", about(text, sizeof text), options, 0};
    int rc = pb_cli_parse(&cmd, argc, argv, &o);
    if (rc != PB_CLI_GO) return rc;
    if (o.out && (rc = check_out_dir(o.out)) != PB_EXIT_OK) return rc;
    const pb_proofs_claim *run[16];
    int nrun = choose_claims(&o, run, 16);
    if (nrun < 0) return PB_EXIT_USAGE;
    pb_field *f = pb_cli_field(&o);
    if (!f) return PB_EXIT_USAGE;
    rc = odd_map(&o, f, nrun);
    pb_field_free(f);
    if (rc != PB_EXIT_OK) return rc;

    pb_proofs_opts po;
    memset(&po, 0, sizeof po);
    if (o.field_given) po.fields = &o.spec, po.nfields = 1;
    if (o.depth > 0) po.max_depth = o.depth;
    if (o.time_limit > 0) po.deadline = pb_walk_now() + o.time_limit;
    prove_tally t = run_claims(&o, run, nrun, &po);
    if (t.status != PB_EXIT_OK) return t.status;
    if (t.any_fail) return PB_EXIT_CLAIM;
    if (po.deadline > 0 && (t.skipped || pb_walk_now() >= po.deadline)) {
        fflush(stdout);
        return pb_fail(PB_EXIT_STOPPED,
                       "stopped by the time limit: %d claim%s not started, the last one's walks cut "
                       "short (not exhaustive)",
                       t.skipped, t.skipped == 1 ? "" : "s");
    }
    return PB_EXIT_OK;
}
