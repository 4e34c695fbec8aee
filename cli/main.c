/* main.c - `paperball`: dispatch to the subcommands. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"info", cmd_info, "a field's figures: nodes, segments, empty and odd nodes"},
    {"show", cmd_show, "draw a position (terminal, or SVG with --svg FILE)"},
    {"moves", cmd_moves, "list the legal turns from a position with their outcomes"},
    {"play", cmd_play, "two people play in the terminal (or one against the solver)"},
    {"perft", cmd_perft, "count turn sequences and distinct positions per depth"},
    {"solve", cmd_solve, "the exact value of a position, every first turn, the best line"},
    {"enumerate", cmd_enumerate, "exact counts of positions and games per depth (GMP)"},
    {"prove", cmd_prove, "check the book's theorems exhaustively"},
    {"tb", cmd_tb, "tablebases: build, probe, verify and describe (book, hockey)"},
    {"bench", cmd_bench, "speed of move generation, search and enumeration"},
};
#define NCOMMANDS (int)(sizeof commands / sizeof commands[0])

static void usage(FILE *out) {
    fputs("usage: paperball <command> [options]\n\n"
          "Paperball solves, counts and checks the pencil-and-paper football games\n"
          "(rules: book, hockey, triple; see docs/rules.md).\n\nCommands:\n",
          out);
    for (int i = 0; i < NCOMMANDS; i++) fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fputs("\n'paperball <command> --help' describes one command.\n\n", out);
    pb_common_help(out);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return PB_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return PB_EXIT_OK;
    }
    for (int i = 0; i < NCOMMANDS; i++)
        if (!strcmp(argv[1], commands[i].name)) return commands[i].run(argc - 2, argv + 2);
    return pb_fail(PB_EXIT_USAGE, "unknown command '%s' (try paperball --help)", argv[1]);
}
