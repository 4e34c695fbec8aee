/* pictures.h - writing a game's pictures (the SVG diagram, the HTML
 * replayer) to the files the user named. */
#ifndef PB_CLI_PICTURES_H
#define PB_CLI_PICTURES_H

#include "../solver/diagram.h"

/* The SVG diagram (svg_path) and the replayer page (html_path) of g, each
 * if its path is not NULL, drawn as d says (the page takes its title and
 * continuation); perfect: the continuation is a line of perfect play.
 * Each file written is announced on standard error unless quiet.  The
 * first failure's status (after its one-line error), else PB_EXIT_OK. */
int pb_cli_write_game_pictures(const pb_game *g, const pb_diagram_opts *d, int perfect, const char *svg_path,
                               const char *html_path, int quiet);

#endif
