/* cmd_info.c - `paperball info`: a field's figures. */
#include <string.h>

#include "../solver/json.h"
#include "cli.h"

int cmd_info(int argc, char **argv) {
    pb_opts o;
    pb_field *f;
    const pb_option options[] = {PB_OPTS_FIELD(o), PB_OPT_JSON(o), PB_OPT_END};
    const pb_command cmd = {"info", "[options]",
                            "Prints the figures of a field at the start: nodes, legal segments, empty nodes\n"
                            "(N of the book), odd nodes, inner and boundary nodes, goal nodes and posts.\n",
                            options, 0};
    int rc = pb_cli_begin(&cmd, argc, argv, &o, &f, NULL);
    if (rc != PB_CLI_GO) return rc;
    char desc[128], cn[8];
    int goals = 0, posts = 0;
    for (int i = 0; i < f->nlattice; i++) {
        goals += (f->flags[i] & (PB_GOAL_BOTTOM | PB_GOAL_TOP)) != 0;
        posts += (f->flags[i] & PB_POST) != 0;
    }
    const pb_field_spec *s = &f->spec;
    int book_n = 2 * (s->goal - 1) + (s->width - 1) * (s->length - 1) - 1;
    if (o.json) {
        pb_json j;
        pb_json_init(&j, stdout);
        pb_json_object(&j, NULL);
        pb_cli_json_version(&j);
        pb_json_str(&j, "rules", pb_rules_name(s->rules));
        pb_json_int(&j, "goal", s->goal);
        pb_json_int(&j, "width", s->width);
        pb_json_int(&j, "length", s->length);
        if (s->rules == PB_RULES_HOCKEY) {
            pb_json_int(&j, "setback", s->setback);
            pb_json_str(&j, "dead_end", s->dead_end ? "loss" : "draw");
        }
        pb_json_int(&j, "nodes", f->nnodes);
        pb_json_int(&j, "segments", f->nsegments);
        pb_json_int(&j, "empty", f->nempty);
        pb_json_int(&j, "odd", f->nodd);
        pb_json_int(&j, "inner", f->ninner);
        pb_json_int(&j, "boundary", f->nnodes - f->ninner);
        pb_json_int(&j, "goal_nodes", goals);
        pb_json_int(&j, "posts", posts);
        pb_json_str(&j, "centre", pb_node_name(f, f->centre, cn));
        pb_json_int(&j, "segment_words", f->nwords);
        pb_json_end(&j);
    } else {
        printf("field       %s\n", pb_field_describe(f, desc, sizeof desc));
        printf("nodes       %d (%d inner, %d boundary)\n", f->nnodes, f->ninner, f->nnodes - f->ninner);
        printf("segments    %d legal\n", f->nsegments);
        printf("empty       %d at the start", f->nempty);
        if (f->box) printf(" (book formula 2(n1-1)+(n2-1)(n3-1)-1 = %d)", book_n);
        printf("\nodd         %d\n", f->nodd);
        printf("goal nodes  %d, posts %d\n", goals, posts);
        printf("centre      %s\n", pb_node_name(f, f->centre, cn));
    }
    pb_field_free(f);
    return PB_EXIT_OK;
}
