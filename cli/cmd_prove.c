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
#include "stop.h"

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
                         "(--out, default the current directory).  Exit status 6 when a claim fails.\n"
                         "--time-limit, Ctrl-C or SIGTERM stop the walks: exit status 3, and with --checkpoint\n"
                         "every claim and field finished is saved for --resume.\n\nClaims:\n");
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

/* --checkpoint FILE: what the run has finished (pb_proofs_saved: the
 * claims done, the fields done of the claim under way), written again
 * through a temporary file and a rename after each claim and each field
 * walked to its end, so a stop of any kind loses only the field under way. */
typedef struct prove_ckpt {
    const char *path;  /* NULL: no checkpoint */
    const pb_field *f; /* the field the header names */
    char run[256];     /* what the run checks: a resumed run must check the same */
    pb_proofs_saved s;
    pb_proofs_progress progress;
    int status; /* PB_EXIT_OK, or PB_EXIT_WRITE after a failed save */
} prove_ckpt;

/* Writes the checkpoint as it stands; the first failure is said at once and
 * is the run's status at the end (exit 5), the claims go on. */
static void ckpt_write(prove_ckpt *c) {
    char err[512];
    if (pb_proofs_save(c->path, c->f, c->run, &c->s, err, sizeof err) && c->status == PB_EXIT_OK)
        c->status = pb_fail(PB_EXIT_WRITE, "%s", err);
}

/* The progress of a walking claim: its fields done so far and its state. */
static void ckpt_progress(void *ctx, const pb_proofs_result *res, const void *state, size_t len) {
    prove_ckpt *c = ctx;
    if (c->s.has_part) pb_proofs_result_free(&c->s.part);
    pb_proofs_result_copy(&c->s.part, res);
    c->s.has_part = 1;
    free(c->s.state);
    c->s.state = malloc(len ? len : 1);
    if (!c->s.state) abort();
    if (len) memcpy(c->s.state, state, len);
    c->s.state_len = len;
    ckpt_write(c);
}

/* A claim finished: its whole result is kept, the progress dropped. */
static void ckpt_claim(prove_ckpt *c, const pb_proofs_result *res) {
    pb_proofs_result *done = realloc(c->s.done, sizeof *done * (size_t)(c->s.ndone + 1));
    if (!done) abort();
    c->s.done = done;
    pb_proofs_result_copy(&c->s.done[c->s.ndone++], res);
    if (c->s.has_part) pb_proofs_result_free(&c->s.part);
    c->s.has_part = 0;
    free(c->s.state);
    c->s.state = NULL, c->s.state_len = 0;
    ckpt_write(c);
}

/* What the run checks, as the checkpoint's header says it: the claims in
 * order, the field and the depth (the output options may differ). */
static void ckpt_run_text(prove_ckpt *c, const pb_opts *o, const pb_proofs_claim **run, int nrun) {
    size_t n = (size_t)snprintf(c->run, sizeof c->run, "claims=");
    for (int k = 0; k < nrun && n < sizeof c->run; k++)
        n += (size_t)snprintf(c->run + n, sizeof c->run - n, "%s%s", k ? "," : "", run[k]->name);
    if (n >= sizeof c->run) return;
    if (o->field_given)
        snprintf(c->run + n, sizeof c->run - n, " field=(%d;%d;%d) depth=%d", o->spec.goal, o->spec.width,
                 o->spec.length, o->depth > 0 ? o->depth : 0);
    else snprintf(c->run + n, sizeof c->run - n, " field=default depth=%d", o->depth > 0 ? o->depth : 0);
}

/* Opens the checkpoint of the run (loaded with --resume): PB_CLI_GO, or
 * the status to exit with. */
static int ckpt_open(prove_ckpt *c, const pb_opts *o, const pb_field *f, const pb_proofs_claim **run, int nrun) {
    memset(c, 0, sizeof *c);
    if (!o->checkpoint) return o->resume ? pb_fail(PB_EXIT_USAGE, "--resume needs --checkpoint FILE") : PB_CLI_GO;
    FILE *probe = o->resume ? NULL : fopen(o->checkpoint, "rb");
    if (probe) {
        fclose(probe);
        return pb_fail(PB_EXIT_USAGE, "%s exists: add --resume to go on from it, or remove it", o->checkpoint);
    }
    c->path = o->checkpoint, c->f = f;
    c->progress = (pb_proofs_progress){.save = ckpt_progress, .ctx = c};
    ckpt_run_text(c, o, run, nrun);
    if (!o->resume) {
        /* Written at once: a path that cannot be written is found before the work. */
        ckpt_write(c);
        return c->status == PB_EXIT_OK ? PB_CLI_GO : c->status;
    }
    char err[640];
    if (pb_proofs_load(c->path, f, c->run, &c->s, err, sizeof err)) return pb_fail(PB_EXIT_USAGE, "%s", err);
    int bad =
        c->s.ndone > nrun || (c->s.has_part && (c->s.ndone == nrun || strcmp(c->s.part.claim, run[c->s.ndone]->name)));
    for (int k = 0; k < c->s.ndone && !bad; k++) bad = strcmp(c->s.done[k].claim, run[k]->name) != 0;
    if (bad) {
        pb_proofs_saved_free(&c->s);
        return pb_fail(PB_EXIT_USAGE, "%s: damaged (its claims are not those of the run)", c->path);
    }
    fprintf(stderr, "prove: resumed from %s: %d of %d claims finished", c->path, c->s.ndone, nrun);
    if (c->s.has_part) fprintf(stderr, ", %s from field %d", c->s.part.claim, c->s.part.nfields + 1);
    fputc('\n', stderr);
    return PB_CLI_GO;
}

/* What the run of the claims came to. */
typedef struct prove_tally {
    int any_fail, skipped, cut, status;
} prove_tally;

/* Prints a claim's result (j: the JSON array, or NULL) and writes its
 * counterexample's diagram. */
static void report_claim(const pb_opts *o, const pb_proofs_result *res, pb_json *j, prove_tally *t) {
    if (res->verdict == PB_VERDICT_FAILS) t->any_fail = 1;
    char path[1024] = "";
    if (res->verdict == PB_VERDICT_FAILS && res->cx_svg) {
        snprintf(path, sizeof path, "%s/counterexample-%s.svg", o->out ? o->out : ".", res->claim);
        /* A lost diagram is reported at the end: the other claims go on. */
        if (pb_write_file(path, res->cx_svg) != PB_EXIT_OK) t->status = PB_EXIT_WRITE, path[0] = 0;
    }
    if (j) pb_proofs_json(j, res);
    else {
        pb_proofs_print(stdout, res);
        if (path[0]) printf("svg        %s\n", path);
        printf("\n");
    }
    fflush(stdout);
}

/* Runs one claim (from its saved progress, if any) and reports it; a claim
 * that ran to its end goes into the checkpoint. */
static void run_claim(const pb_opts *o, const pb_proofs_claim *c, pb_proofs_opts *po, prove_ckpt *ck, pb_json *j,
                      prove_tally *t) {
    pb_proofs_result res;
    if (ck->path) {
        ck->progress.from = ck->s.has_part ? &ck->s.part : NULL;
        ck->progress.state = ck->s.state, ck->progress.state_len = ck->s.state_len;
        po->progress = &ck->progress;
    }
    pb_proofs_run(c, po, &res);
    if (res.interrupted) t->cut = 1;
    else if (ck->path) ckpt_claim(ck, &res);
    report_claim(o, &res, j, t);
    pb_proofs_result_free(&res);
}

/* Whether the run was told to stop: the deadline passed, or a signal. */
static int run_stopped(const pb_proofs_opts *po) {
    return *po->stop || (po->deadline > 0 && pb_walk_now() >= po->deadline);
}

/* Every claim of run, in order: those the checkpoint holds as they were
 * saved, then the others; a claim reached after a stop is not started
 * (said in the output). */
static prove_tally run_claims(const pb_opts *o, const pb_proofs_claim **run, int nrun, pb_proofs_opts *po,
                              prove_ckpt *ck) {
    prove_tally t = {0, 0, 0, PB_EXIT_OK};
    pb_json j, *jp = o->json ? &j : NULL;
    if (jp) {
        pb_json_init(&j, stdout);
        pb_json_object(&j, NULL);
        pb_cli_json_version(&j);
        pb_json_array(&j, "claims");
    }
    for (int k = 0; k < nrun; k++) {
        if (k < ck->s.ndone) report_claim(o, &ck->s.done[k], jp, &t);
        else if (!run_stopped(po)) run_claim(o, run[k], po, ck, jp, &t);
        else {
            if (jp) pb_json_str(&j, NULL, run[k]->name);
            else
                printf("claim      %s\nverdict    not checked (%s came first)\n\n", run[k]->name,
                       pb_stop_by("the time limit"));
            t.skipped++;
        }
    }
    if (jp) {
        pb_json_end(&j);
        pb_json_bool(&j, "all_hold", !t.any_fail && !t.skipped);
        pb_json_int(&j, "not_checked", t.skipped);
        pb_json_end(&j);
    }
    return t;
}

/* The status of a run that went through its claims: a stop first (the
 * output is partial, and --resume goes on), then a failed write, then a
 * failed claim. */
static int prove_status(const prove_tally *t, const prove_ckpt *ck) {
    if (t->skipped || t->cut) {
        fflush(stdout);
        char saved[600] = "";
        if (ck->path && ck->status == PB_EXIT_OK)
            snprintf(saved, sizeof saved, "; the finished claims and fields are saved in %s (go on with --resume)",
                     ck->path);
        return pb_fail(PB_EXIT_STOPPED, "stopped by %s: %d claim%s not started%s (not exhaustive)%s",
                       pb_stop_by("the time limit"), t->skipped, t->skipped == 1 ? "" : "s",
                       t->cut ? ", the last one's walks cut short" : "", saved);
    }
    if (t->status != PB_EXIT_OK) return t->status;
    if (ck->status != PB_EXIT_OK) return ck->status;
    return t->any_fail ? PB_EXIT_CLAIM : PB_EXIT_OK;
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
        PB_OPT_TEXT("checkpoint", "FILE", &o.checkpoint,
                    "save every claim finished, and every field walked of the claim\n"
                    "under way, in FILE as it finishes (docs/cli.md)"),
        PB_OPT_RESUME(o, "go on from the checkpoint FILE: its claims are reported as saved,\n"
                         "the claim under way goes on from its next field"),
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
    prove_ckpt ck;
    if ((rc = ckpt_open(&ck, &o, f, run, nrun)) != PB_CLI_GO || (rc = odd_map(&o, f, nrun)) != PB_EXIT_OK) {
        pb_proofs_saved_free(&ck.s);
        pb_field_free(f);
        return rc;
    }
    pb_proofs_opts po;
    memset(&po, 0, sizeof po);
    if (o.field_given) po.fields = &o.spec, po.nfields = 1;
    if (o.depth > 0) po.max_depth = o.depth;
    if (o.time_limit > 0) po.deadline = pb_walk_now() + o.time_limit;
    po.stop = pb_stop_flag();
    struct sigaction old[2];
    pb_stop_catch(old);
    prove_tally t = run_claims(&o, run, nrun, &po, &ck);
    pb_stop_restore(old);
    rc = prove_status(&t, &ck);
    pb_proofs_saved_free(&ck.s);
    pb_field_free(f);
    return rc;
}
