/* report.c - what several commands write alike: the JSON keys of the
 * program's version and commit, the field and a player; the head of a
 * solve report. */
#include "../solver/json.h"
#include "../solver/search.h"
#include "cli.h"

void pb_cli_json_version(pb_json *j) {
    pb_json_str(j, "version", pb_cli_version());
    pb_json_str(j, "commit", pb_cli_commit());
}

void pb_cli_json_field(pb_json *j, const pb_field *f) {
    char desc[128];
    pb_json_str(j, "rules", pb_rules_name(f->spec.rules));
    pb_json_str(j, "field", pb_field_describe(f, desc, sizeof desc));
    pb_json_int(j, "goal", f->spec.goal);
    pb_json_int(j, "width", f->spec.width);
    pb_json_int(j, "length", f->spec.length);
    if (f->spec.rules == PB_RULES_HOCKEY) {
        pb_json_int(j, "setback", f->spec.setback);
        pb_json_str(j, "dead_end", f->spec.dead_end == PB_DEAD_END_LOSS ? "loss" : "draw");
    }
}

const char *pb_cli_player_key(int player) { return player == PB_TOP ? "top" : "bottom"; }

void pb_cli_print_head(const pb_field *f, const pb_game *g, int value, const char *unknown) {
    char desc[128];
    int me = g->pos.to_move;
    printf("field        %s\n", pb_field_describe(f, desc, sizeof desc));
    printf("position     %d turns played, %s to move\n", g->nturns, pb_player_name(me));
    if (value == PB_UNKNOWN) printf("value        unknown (%s)\n", unknown);
    else printf("value        %s for %s (the player to move)\n", pb_value_name(value), pb_player_name(me));
}
