/* diagram.c - pictures of positions (placeholder until the diagram module lands). */
#include "diagram.h"

#include <stdlib.h>
#include <string.h>

char *pb_diagram_text(const pb_game *g, const pb_diagram_opts *o) {
    (void)o;
    char *rec = pb_record_format(g);
    return rec ? rec : strdup("");
}

char *pb_diagram_svg(const pb_game *g, const pb_diagram_opts *o) {
    (void)g, (void)o;
    return strdup("<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n");
}
