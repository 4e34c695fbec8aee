/* common.c - the option parser (getopt_long over each command's table),
 * its --help, and the loading of the field and the position shared by the
 * subcommands. */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
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
        case 'k':
        case 'K':
            mult = 1024.0;
            end++;
            break;
        case 'm':
        case 'M':
            mult = 1024.0 * 1024;
            end++;
            break;
        case 'g':
        case 'G':
            mult = 1024.0 * 1024 * 1024;
            end++;
            break;
        case 't':
        case 'T':
            mult = 1024.0 * 1024 * 1024 * 1024;
            end++;
            break;
    }
    if (*end == 'i') end++;
    if (*end == 'B' || *end == 'b') end++;
    if (*end) return -1;
    return (long long)(v * mult);
}

/* ---- the shared custom options (targets: the command's pb_opts) ---- */

int pb_opt_rules(void *target, const char *name, const char *val) {
    pb_opts *o = target;
    (void)name;
    if (pb_rules_parse(val, &o->spec.rules))
        return pb_fail(PB_EXIT_USAGE, "unknown rules '%s': expected book, hockey or triple", val), -1;
    return 0;
}

int pb_opt_field(void *target, const char *name, const char *val) {
    pb_opts *o = target;
    (void)name;
    char err[200];
    pb_field_spec s = o->spec;
    if (pb_field_spec_parse(val, &s, err, sizeof err)) return pb_fail(PB_EXIT_USAGE, "%s", err), -1;
    /* --field gives the geometry alone: the other options keep theirs. */
    o->spec.goal = s.goal, o->spec.width = s.width, o->spec.length = s.length;
    o->field_given = 1;
    return 0;
}

int pb_opt_setback(void *target, const char *name, const char *val) {
    pb_opts *o = target;
    char *end;
    errno = 0;
    long v = strtol(val, &end, 10);
    if (end == val || *end || errno || v < 0 || v > PB_MAX_DIM)
        return pb_fail(PB_EXIT_USAGE, "bad value '%s' for --%s: expected a whole number from 0 to %d", val, name,
                       PB_MAX_DIM),
               -1;
    o->spec.setback = (int)v;
    o->setback_given = 1;
    return 0;
}

int pb_opt_dead_end(void *target, const char *name, const char *val) {
    pb_opts *o = target;
    if (!strcmp(val, "draw")) o->spec.dead_end = PB_DEAD_END_DRAW;
    else if (!strcmp(val, "loss")) o->spec.dead_end = PB_DEAD_END_LOSS;
    else return pb_fail(PB_EXIT_USAGE, "bad value '%s' for --%s: expected draw or loss", val, name), -1;
    o->dead_end_given = 1;
    return 0;
}

int pb_opt_first(void *target, const char *name, const char *val) {
    pb_opts *o = target;
    if (strcmp(val, "top") && strcmp(val, "bottom"))
        return pb_fail(PB_EXIT_USAGE, "bad value '%s' for --%s: expected top or bottom", val, name), -1;
    o->first = val;
    return 0;
}

/* ---- the parser ---- */

static int store(const pb_option *op, const char *val) {
    char *end;
    switch (op->kind) {
        case PB_ARG_FLAG: *(int *)op->target = 1; return 0;
        case PB_ARG_TEXT: *(const char **)op->target = val; return 0;
        case PB_ARG_INT: {
            errno = 0;
            long v = strtol(val, &end, 10);
            if (end == val || *end || errno || v < op->lo || v > op->hi)
                return pb_fail(PB_EXIT_USAGE, "bad value '%s' for --%s: expected a whole number from %d to %d", val,
                               op->name, op->lo, op->hi),
                       -1;
            *(int *)op->target = (int)v;
            return 0;
        }
        case PB_ARG_SECONDS: {
            double v = strtod(val, &end);
            if (end == val || *end || !(v > 0) || v > 1e9)
                return pb_fail(PB_EXIT_USAGE, "bad value '%s' for --%s: expected seconds > 0", val, op->name), -1;
            *(double *)op->target = v;
            return 0;
        }
        case PB_ARG_SIZE:
            if (pb_parse_size(val) <= 0)
                return pb_fail(PB_EXIT_USAGE, "bad size '%s' for --%s: expected e.g. 64M or 2G", val, op->name), -1;
            *(const char **)op->target = val;
            return 0;
        case PB_ARG_CUSTOM: return op->parse(op->target, op->name, val);
    }
    return -1;
}

static int count_options(const pb_option *t) {
    int n = 0;
    while (t && t[n].name) n++;
    return n;
}

static int has_option(const pb_command *cmd, const char *name) {
    for (const pb_option *op = cmd->options; op && op->name; op++)
        if (!strcmp(op->name, name)) return 1;
    return 0;
}

/* The checks that tie options together, after all are read. */
static int finish(const pb_command *cmd, pb_opts *o) {
#ifndef PB_HAVE_MPI
    if (o->mpi) return pb_fail(PB_EXIT_USAGE, "this paperball was built without MPI");
#endif
    if (!o->field_given) {
        int hockey = o->spec.rules == PB_RULES_HOCKEY;
        o->spec.goal = 2, o->spec.width = hockey ? 8 : 6, o->spec.length = hockey ? 10 : 8;
    }
    if (o->match && o->spec.rules != PB_RULES_TRIPLE)
        return pb_fail(PB_EXIT_USAGE, "--match applies to --rules triple only: match play is a triple rule");
    if (o->match && o->batch) return pb_fail(PB_EXIT_USAGE, "--match and --batch exclude each other");
    if (o->spec.rules != PB_RULES_HOCKEY) {
        if (o->setback_given) return pb_fail(PB_EXIT_USAGE, "--setback applies to --rules hockey only");
        if (o->dead_end_given) return pb_fail(PB_EXIT_USAGE, "--dead-end applies to --rules hockey only");
        o->spec.setback = 0;
    }
    int sources = (o->record != NULL) + (o->record_file != NULL) + (o->batch != NULL);
    if (has_option(cmd, "record") && o->nargs > 0) sources++;
    if (sources > 1)
        return pb_fail(PB_EXIT_USAGE, "give the position once: a RECORD-FILE argument, --record, --record-file "
                                      "or --batch");
    if (o->nargs > cmd->max_args) {
        if (cmd->max_args == 0)
            return pb_fail(PB_EXIT_USAGE, "%s takes no arguments (got '%s')", cmd->name, o->args[0]);
        return pb_fail(PB_EXIT_USAGE, "%s takes at most %d argument%s (got '%s')", cmd->name, cmd->max_args,
                       cmd->max_args == 1 ? "" : "s", o->args[cmd->max_args]);
    }
    return PB_CLI_GO;
}

int pb_cli_parse(const pb_command *cmd, int argc, char **argv, pb_opts *o) {
    memset(o, 0, sizeof *o);
    o->spec.rules = PB_RULES_BOOK;
    o->spec.setback = 1;
    o->depth = -1;
    int n = count_options(cmd->options);
    /* getopt_long's table: the command's options, then --help.  An
     * option's index is its getopt value minus 256, clear of -h. */
    struct option *lo = calloc((size_t)n + 2, sizeof *lo);
    for (int i = 0; i < n; i++) {
        lo[i].name = cmd->options[i].name;
        lo[i].has_arg = cmd->options[i].kind == PB_ARG_FLAG ? no_argument : required_argument;
        lo[i].val = 256 + i;
    }
    lo[n].name = "help", lo[n].val = 'h';
    /* getopt_long wants argv[0] to be the program: hand it the command
     * name in front of the words. */
    char **av = malloc(sizeof(char *) * ((size_t)argc + 2));
    av[0] = (char *)cmd->name;
    memcpy(av + 1, argv, sizeof(char *) * (size_t)argc);
    av[argc + 1] = NULL;
    int rc = PB_CLI_GO, c;
    opterr = 0;
    optind = 0; /* a full reset of GNU getopt */
    while (rc == PB_CLI_GO && (c = getopt_long(argc + 1, av, ":h", lo, NULL)) != -1) {
        const char *word = av[optind - 1];
        if (c == 'h') {
            pb_cli_help(cmd, stdout);
            rc = PB_EXIT_OK;
        } else if (c == ':') {
            rc = pb_fail(PB_EXIT_USAGE, "option %s needs a value (see paperball %s --help)", word, cmd->name);
        } else if (c == '?' && optopt >= 256) {
            rc = pb_fail(PB_EXIT_USAGE, "option --%s takes no value", cmd->options[optopt - 256].name);
        } else if (c == '?') {
            if (optopt)
                rc = pb_fail(PB_EXIT_USAGE, "unknown option '-%c' for %s (see paperball %s --help)", optopt, cmd->name,
                             cmd->name);
            else
                rc = pb_fail(PB_EXIT_USAGE, "unknown option '%s' for %s (see paperball %s --help)", word, cmd->name,
                             cmd->name);
        } else if (store(&cmd->options[c - 256], optarg)) {
            rc = PB_EXIT_USAGE;
        }
    }
    if (rc == PB_CLI_GO)
        for (int i = optind; i < argc + 1; i++) {
            if (o->nargs == PB_MAX_ARGS) {
                rc = pb_fail(PB_EXIT_USAGE, "too many arguments");
                break;
            }
            o->args[o->nargs++] = av[i];
        }
    free(av);
    free(lo);
    return rc == PB_CLI_GO ? finish(cmd, o) : rc;
}

/* ---- --help ---- */

void pb_cli_exit_help(FILE *out) {
    fputs("Exit status:\n"
          "  0  success (prove: every checked claim holds)\n"
          "  1  another runtime failure (a system error)\n"
          "  2  bad input: an option, a field, a record, a checkpoint\n"
          "  3  stopped early by --time-limit, Ctrl-C or SIGTERM: the output is partial\n"
          "  4  out of memory, or over the --memory budget\n"
          "  5  the output could not be written (a full disk, a closed standard output)\n"
          "  6  prove: a claim fails\n",
          out);
}

/* Prints text with every line after the first indented by `indent`. */
static void put_indented(FILE *out, const char *text, int indent) {
    for (const char *s = text; *s; s++) {
        fputc(*s, out);
        if (*s == '\n') fprintf(out, "%*s", indent, "");
    }
    fputc('\n', out);
}

void pb_cli_help(const pb_command *cmd, FILE *out) {
    fprintf(out, "usage: paperball %s %s\n\n%s\n", cmd->name, cmd->synopsis, cmd->about);
    fputs("Options:\n", out);
    enum { COL = 28 };
    for (const pb_option *op = cmd->options; op && op->name; op++) {
        if (!op->help) continue;
        char head[64];
        snprintf(head, sizeof head, "  --%s%s%s", op->name, op->value ? " " : "", op->value ? op->value : "");
        if ((int)strlen(head) >= COL) fprintf(out, "%s\n%*s", head, COL, "");
        else fprintf(out, "%-*s", COL, head);
        put_indented(out, op->help, COL);
    }
    fprintf(out, "%-*s%s\n\n", COL, "  -h, --help", "this text");
    pb_cli_exit_help(out);
}

/* ---- loading ---- */

pb_field *pb_cli_field(const pb_opts *o) {
    char err[256];
    pb_field *f = pb_field_new(&o->spec, err, sizeof err);
    if (!f) pb_fail(PB_EXIT_USAGE, "%s", err);
    return f;
}

char *pb_read_file(const char *what, const char *path) {
    int is_stdin = !strcmp(path, "-");
    FILE *in = is_stdin ? stdin : fopen(path, "rb");
    if (!in) {
        pb_fail(PB_EXIT_USAGE, "cannot read %s '%s': %s", what, path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, n = 0, r;
    char *buf = malloc(cap);
    while (buf && (r = fread(buf + n, 1, cap - n - 1, in)) > 0) {
        n += r;
        if (cap - n < 2) {
            char *b = realloc(buf, cap *= 2);
            if (!b) free(buf);
            buf = b;
        }
    }
    /* A directory opens on Linux, and its read fails with EISDIR. */
    int err = ferror(in) ? errno : 0;
    if (!is_stdin) fclose(in);
    const char *why = !buf                ? "out of memory"
                      : err               ? strerror(err)
                      : memchr(buf, 0, n) ? "not a text file (a NUL byte)"
                                          : NULL;
    if (why) {
        pb_fail(PB_EXIT_USAGE, "cannot read %s '%s': %s", what, is_stdin ? "-" : path, why);
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    return buf;
}

int pb_write_file(const char *path, const char *text) {
    FILE *out = fopen(path, "w");
    int ok = out && fputs(text, out) >= 0;
    int err = errno;
    if (out && fclose(out)) ok = 0, err = errno;
    if (!ok) return pb_fail(PB_EXIT_WRITE, "cannot write '%s': %s", path, strerror(err));
    return PB_EXIT_OK;
}

int pb_cli_game(const pb_opts *o, const pb_field *f, pb_game *g) {
    char *text = NULL;
    if (o->record) text = strdup(o->record);
    else if (o->record_file || o->nargs > 0) {
        text = pb_read_file("record file", o->record_file ? o->record_file : o->args[0]);
        if (!text) return -1;
    }
    int first = o->first && !strcmp(o->first, "bottom") ? PB_BOTTOM : PB_TOP;
    if (!text) {
        if (o->match) pb_game_init_match(g, f, first);
        else pb_game_init(g, f, first);
        return 0;
    }
    char err[256];
    int rc =
        o->match ? pb_record_parse_match(f, text, g, err, sizeof err) : pb_record_parse(f, text, g, err, sizeof err);
    free(text);
    if (rc) {
        pb_fail(PB_EXIT_USAGE, "%s", err);
        return -1;
    }
    return 0;
}

int pb_cli_begin(const pb_command *cmd, int argc, char **argv, pb_opts *o, pb_field **f, pb_game *g) {
    int rc = pb_cli_parse(cmd, argc, argv, o);
    return rc != PB_CLI_GO ? rc : pb_cli_load(o, f, g);
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

const char *pb_cli_route_outcome(const pb_route *r, char *buf, size_t len) {
    switch (r->end) {
        case PB_END_NONE: snprintf(buf, len, "stop"); break;
        case PB_END_GOAL:
        case PB_END_DEAD_END: pb_end_words(r->end, r->mover, r->loser, buf, len); break;
        case PB_END_NO_KICK: snprintf(buf, len, "no free kick: draw"); break;
    }
    return buf;
}
