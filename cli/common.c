/* common.c - option parsing and loading shared by all subcommands. */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int pb_fail(int status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("paperball: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return status;
}

long long pb_parse_size(const char *s) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || v < 0) return -1;
    double mult = 1;
    switch (*end) {
    case 'k': case 'K': mult = 1024.0; end++; break;
    case 'm': case 'M': mult = 1024.0 * 1024; end++; break;
    case 'g': case 'G': mult = 1024.0 * 1024 * 1024; end++; break;
    case 't': case 'T': mult = 1024.0 * 1024 * 1024 * 1024; end++; break;
    }
    if (*end == 'i') end++;
    if (*end == 'B' || *end == 'b') end++;
    if (*end) return -1;
    return (long long)(v * mult);
}

static int parse_int(const char *name, const char *val, int lo, int hi, int *out) {
    char *end;
    errno = 0;
    long v = strtol(val, &end, 10);
    if (end == val || *end || errno || v < lo || v > hi) {
        pb_fail(PB_EXIT_USAGE, "bad value '%s' for %s: expected a whole number from %d to %d", val, name, lo, hi);
        return -1;
    }
    *out = (int)v;
    return 0;
}

int pb_opts_parse(pb_opts *o, int argc, char **argv) {
    memset(o, 0, sizeof *o);
    o->spec.rules = PB_RULES_BOOK;
    o->spec.setback = 1;
    o->depth = -1;
    o->seed = 1;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        char name[64];
        if (strncmp(a, "--", 2) != 0 || strcmp(a, "--") == 0) {
            if (strcmp(a, "--") == 0) {
                for (i++; i < argc; i++) {
                    if (o->nargs == PB_MAX_ARGS) return pb_fail(2, "too many arguments"), -1;
                    o->args[o->nargs++] = argv[i];
                }
                break;
            }
            if (o->nargs == PB_MAX_ARGS) return pb_fail(2, "too many arguments"), -1;
            o->args[o->nargs++] = a;
            continue;
        }
        const char *eq = strchr(a, '=');
        size_t n = eq ? (size_t)(eq - a) : strlen(a);
        if (n >= sizeof name) n = sizeof name - 1;
        memcpy(name, a, n);
        name[n] = 0;
        static const char *flags[] = {"--json", "--csv", "--quiet", "--all", "--resume", "--vs-solver",
                                      "--odd", "--unicode", "--ascii", "--solve", "--enumerate", "--mpi", NULL};
        int *flag_ptr[] = {&o->json, &o->csv, &o->quiet, &o->all, &o->resume, &o->vs_solver,
                           &o->odd, &o->unicode, &o->ascii, &o->solve, &o->enumerate, &o->mpi};
        int fi;
        for (fi = 0; flags[fi]; fi++)
            if (strcmp(name, flags[fi]) == 0) break;
        if (flags[fi]) {
            if (eq) return pb_fail(2, "option %s takes no value", name), -1;
            *flag_ptr[fi] = 1;
            continue;
        }
        if (eq) val = eq + 1;
        else if (i + 1 < argc) val = argv[++i];
        else return pb_fail(2, "option %s needs a value", name), -1;
        if (!strcmp(name, "--rules")) {
            if (pb_rules_parse(val, &o->spec.rules))
                return pb_fail(2, "unknown rules '%s': expected book, hockey or triple", val), -1;
        } else if (!strcmp(name, "--field")) {
            char err[200];
            pb_rules r = o->spec.rules;
            int sb = o->spec.setback;
            pb_dead_end de = o->spec.dead_end;
            if (pb_field_spec_parse(val, &o->spec, err, sizeof err)) return pb_fail(2, "%s", err), -1;
            o->spec.rules = r, o->spec.setback = sb, o->spec.dead_end = de;
            o->field_given = 1;
        } else if (!strcmp(name, "--setback")) {
            if (parse_int(name, val, 0, PB_MAX_DIM, &o->spec.setback)) return -1;
            o->setback_given = 1;
        } else if (!strcmp(name, "--dead-end")) {
            if (!strcmp(val, "draw")) o->spec.dead_end = PB_DEAD_END_DRAW;
            else if (!strcmp(val, "loss")) o->spec.dead_end = PB_DEAD_END_LOSS;
            else return pb_fail(2, "bad value '%s' for --dead-end: expected draw or loss", val), -1;
        } else if (!strcmp(name, "--record")) {
            o->record = val;
        } else if (!strcmp(name, "--record-file")) {
            o->record_file = val;
        } else if (!strcmp(name, "--depth")) {
            if (parse_int(name, val, 0, 100000, &o->depth)) return -1;
        } else if (!strcmp(name, "--threads")) {
            if (parse_int(name, val, 1, 1024, &o->threads)) return -1;
        } else if (!strcmp(name, "--seed")) {
            int s;
            if (parse_int(name, val, 0, 2000000000, &s)) return -1;
            o->seed = s;
        } else if (!strcmp(name, "--svg")) {
            o->svg = val;
        } else if (!strcmp(name, "--html")) {
            o->html = val;
        } else if (!strcmp(name, "--hash")) {
            if (pb_parse_size(val) <= 0) return pb_fail(2, "bad size '%s' for --hash: expected e.g. 64M or 2G", val), -1;
            o->hash = val;
        } else if (!strcmp(name, "--memory")) {
            if (pb_parse_size(val) <= 0) return pb_fail(2, "bad size '%s' for --memory: expected e.g. 512M or 4G", val), -1;
            o->memory = val;
        } else if (!strcmp(name, "--claim")) {
            o->claim = val;
        } else if (!strcmp(name, "--checkpoint")) {
            o->checkpoint = val;
        } else if (!strcmp(name, "--first")) {
            if (strcmp(val, "top") && strcmp(val, "bottom"))
                return pb_fail(2, "bad value '%s' for --first: expected top or bottom", val), -1;
            o->first = val;
        } else if (!strcmp(name, "--out")) {
            o->out = val;
        } else {
            return pb_fail(2, "unknown option '%s' (see paperball --help)", name), -1;
        }
    }
#ifndef PB_HAVE_MPI
    if (o->mpi) return pb_fail(2, "this paperball was built without MPI"), -1;
#endif
    if (o->spec.rules == PB_RULES_HOCKEY && !o->field_given) {
        o->spec.goal = 2, o->spec.width = 8, o->spec.length = 10;
    } else if (!o->field_given) {
        o->spec.goal = 2, o->spec.width = 6, o->spec.length = 8;
    }
    if (o->spec.rules != PB_RULES_HOCKEY) {
        if (o->setback_given) return pb_fail(2, "--setback applies to --rules hockey only"), -1;
        o->spec.setback = 0;
    }
    return 0;
}

pb_field *pb_cli_field(const pb_opts *o) {
    char err[256];
    pb_field *f = pb_field_new(&o->spec, err, sizeof err);
    if (!f) pb_fail(PB_EXIT_USAGE, "%s", err);
    return f;
}

char *pb_read_file(const char *path) {
    FILE *in = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!in) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t r;
    while ((r = fread(buf + n, 1, cap - n - 1, in)) > 0) {
        n += r;
        if (cap - n < 2) buf = realloc(buf, cap *= 2);
    }
    buf[n] = 0;
    if (in != stdin) fclose(in);
    return buf;
}

int pb_cli_game(const pb_opts *o, const pb_field *f, pb_game *g) {
    char *text = NULL;
    if (o->record) text = strdup(o->record);
    else if (o->record_file || o->nargs > 0) {
        const char *path = o->record_file ? o->record_file : o->args[0];
        text = pb_read_file(path);
        if (!text) {
            pb_fail(PB_EXIT_USAGE, "cannot read record file '%s': %s", path, strerror(errno));
            return -1;
        }
    }
    int first = o->first && !strcmp(o->first, "bottom") ? PB_BOTTOM : PB_TOP;
    if (!text) {
        pb_game_init(g, f, first);
        return 0;
    }
    char err[256];
    int rc = pb_record_parse(f, text, g, err, sizeof err);
    free(text);
    if (rc) {
        pb_fail(PB_EXIT_USAGE, "%s", err);
        return -1;
    }
    return 0;
}

int pb_cli_begin(int argc, char **argv, const char *usage, pb_opts *o, pb_field **f, pb_game *g) {
    if (argc > 0 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))) {
        fputs(usage, stdout);
        fputc('\n', stdout);
        pb_common_help(stdout);
        return PB_EXIT_OK;
    }
    if (pb_opts_parse(o, argc, argv)) return PB_EXIT_USAGE;
    return pb_cli_load(o, f, g);
}

int pb_cli_load(const pb_opts *o, pb_field **f, pb_game *g) {
    *f = pb_cli_field(o);
    if (!*f) return PB_EXIT_USAGE;
    if (g && pb_cli_game(o, *f, g)) {
        pb_field_free(*f);
        *f = NULL;
        return PB_EXIT_USAGE;
    }
    return PB_CLI_GO;
}

void pb_json_string(FILE *out, const char *s) {
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
        else if (c == '\n') fputs("\\n", out);
        else if (c < 0x20) fprintf(out, "\\u%04x", c);
        else fputc(c, out);
    }
    fputc('"', out);
}

void pb_common_help(FILE *out) {
    fputs("Options shared by the subcommands:\n"
          "  --rules book|hockey|triple   rule set (default book)\n"
          "  --field G;W;L                goal, width, length in cells: 2;6;8, (2;6;8) or 2,6,8\n"
          "                               (default (2;6;8); hockey (2;8;10))\n"
          "  --setback S                  hockey: goal lines S cells inside the ends (default 1)\n"
          "  --dead-end draw|loss         hockey: what a dead end means (default draw)\n"
          "  --record TEXT                the position reached by this game record\n"
          "  --record-file FILE           the same, read from FILE (- = standard input)\n"
          "  --first top|bottom           who plays first (default top, as the book's (В;Н))\n"
          "  --depth D                    depth in turns\n"
          "  --threads N                  OpenMP threads\n"
          "  --json                       machine-readable output\n"
          "  --mpi                        enumerate, solve: spread the work over the processes of\n"
          "                               mpirun (the same answers; docs/cluster.md)\n",
          out);
}
