/* cmd_info.c - `paperball info`: a field's figures. */
#include <string.h>

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
        printf("{");
        pb_cli_json_version_keys(stdout);
        printf(",\"rules\":\"%s\",\"goal\":%d,\"width\":%d,\"length\":%d", pb_rules_name(s->rules), s->goal,
               s->width, s->length);
        if (s->rules == PB_RULES_HOCKEY)
            printf(",\"setback\":%d,\"dead_end\":\"%s\"", s->setback, s->dead_end ? "loss" : "draw");
        printf(",\"nodes\":%d,\"segments\":%d,\"empty\":%d,\"odd\":%d,\"inner\":%d,\"boundary\":%d,"
               "\"goal_nodes\":%d,\"posts\":%d,\"centre\":\"%s\",\"segment_words\":%d}\n",
               f->nnodes, f->nsegments, f->nempty, f->nodd, f->ninner, f->nnodes - f->ninner, goals, posts,
               pb_node_name(f, f->centre, cn), f->nwords);
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
