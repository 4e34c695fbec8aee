/* pictures.c - the files of pictures.h. */
#include "pictures.h"

#include <stdio.h>
#include <stdlib.h>

#include "../solver/replay_html.h"
#include "cli.h"

/* Writes text (malloc'd; freed here) to path. */
static int write_picture(const char *path, char *text, int quiet) {
    int status = pb_write_file(path, text);
    free(text);
    if (status == PB_EXIT_OK && !quiet) fprintf(stderr, "paperball: wrote %s\n", path);
    return status;
}

int pb_cli_write_game_pictures(const pb_game *g, const pb_diagram_opts *d, int perfect, const char *svg_path,
                               const char *html_path, int quiet) {
    int status = PB_EXIT_OK;
    if (svg_path) status = write_picture(svg_path, pb_diagram_svg(g, d), quiet);
    if (html_path && status == PB_EXIT_OK) {
        pb_replay_opts r = {.title = d->title, .highlight_from = d->highlight_from, .perfect = perfect};
        status = write_picture(html_path, pb_replay_html(g, &r), quiet);
    }
    return status;
}
