/* pictures.c - the files of pictures.h. */
#include "pictures.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../solver/replay_html.h"
#include "cli.h"

int pb_cli_write_picture(const char *path, const char *what, const char *text) {
    FILE *out = fopen(path, "w");
    int ok = out && fputs(text, out) >= 0;
    if (out && fclose(out)) ok = 0;
    if (!ok) return pb_fail(PB_EXIT_FAIL, "cannot write %s '%s': %s", what, path, strerror(errno));
    fprintf(stderr, "paperball: wrote %s\n", path);
    return PB_EXIT_OK;
}

int pb_cli_write_game_pictures(const pb_game *g, const pb_diagram_opts *d, int perfect, const char *svg_path,
                               const char *html_path) {
    int status = PB_EXIT_OK;
    if (svg_path) {
        char *svg = pb_diagram_svg(g, d);
        status = pb_cli_write_picture(svg_path, "SVG", svg);
        free(svg);
    }
    if (html_path && status == PB_EXIT_OK) {
        pb_replay_opts r = {.title = d->title, .highlight_from = d->highlight_from, .perfect = perfect};
        char *html = pb_replay_html(g, &r);
        status = pb_cli_write_picture(html_path, "HTML", html);
        free(html);
    }
    return status;
}
