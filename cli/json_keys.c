/* json_keys.c - the JSON keys several commands write alike: the program's
 * version and commit, the field, a player. */
#include "../solver/json.h"
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
