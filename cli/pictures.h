/* pictures.h - writing the pictures the commands draw (SVG diagrams, the
 * HTML replayer) to the files the user named. */
#ifndef PB_CLI_PICTURES_H
#define PB_CLI_PICTURES_H

#include "../solver/diagram.h"

/* Writes text to path and says so on standard error ("paperball: wrote
 * PATH").  PB_EXIT_OK, or PB_EXIT_FAIL after a one-line error naming what
 * (e.g. "SVG") and path. */
int pb_cli_write_picture(const char *path, const char *what, const char *text);

/* The SVG diagram (svg_path) and the replayer page (html_path) of g, each
 * if its path is not NULL, drawn as d says (the page takes its title and
 * continuation); perfect: the continuation is a line of perfect play.
 * The first failure's status, else PB_EXIT_OK. */
int pb_cli_write_game_pictures(const pb_game *g, const pb_diagram_opts *d, int perfect, const char *svg_path,
                               const char *html_path);

#endif
