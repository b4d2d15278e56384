/* parse_print: read a torch.fx graph, check it, compute its types from .npy
 * inputs, and print it with the types.
 *
 *     parse_print MODEL.fx [INPUT0.npy INPUT1.npy ...]
 *
 * The i-th .npy file gives the i-th placeholder its dtype and shape. Without
 * inputs the graph is printed as read. This is the complete example of
 * docs/api.md. */
#include <airc/airc.h>

#include <stdio.h>

/* Every fallible airc call returns a status; on failure the thread's last
 * error says what went wrong and where (file:line:col, node name...). */
static int report(const char *what)
{
    fprintf(stderr, "parse_print: %s: %s (%s)\n", what, airc_last_error(),
            airc_status_name(airc_last_error_code()));
    return 1;
}

/* Gives each placeholder, in order, the dtype and shape of one input file. */
static int set_inputs(airc_context *ctx, airc_graph *g, char **paths, int npaths)
{
    int i = 0;
    for (airc_node *n = airc_graph_first_node(g); n && i < npaths; n = airc_node_next(n)) {
        if (airc_node_get_kind(n) != AIRC_NODE_PLACEHOLDER)
            continue;
        airc_tensor *t;
        if (airc_npy_read(ctx, paths[i], &t) != AIRC_OK)
            return report(paths[i]);
        /* strides NULL: contiguous, as a .npy in C order is. */
        airc_status st = airc_node_set_meta(n, airc_tensor_dtype(t), airc_tensor_ndim(t),
                                            airc_tensor_shape(t), NULL);
        airc_tensor_destroy(t); /* the meta is copied; the tensor is ours to free */
        if (st != AIRC_OK)
            return report(airc_node_name(n));
        i++;
    }
    if (i < npaths) {
        fprintf(stderr, "parse_print: %d inputs given, the graph has %d placeholders\n",
                npaths, i);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s MODEL.fx [INPUT.npy...]\n", argv[0]);
        return 2;
    }
    printf("airc %s (ABI %d)\n", airc_version(), (int)airc_abi_version());

    /* NULL allocator: libc's malloc/realloc/free. */
    airc_context *ctx = NULL;
    if (airc_context_create(NULL, &ctx) != AIRC_OK)
        return report("airc_context_create");

    int rc = 0;
    airc_graph *g = NULL;
    char *text = NULL;
    if (airc_graph_parse_file(ctx, argv[1], &g) != AIRC_OK) {
        rc = report("parse");
        goto done;
    }
    if (airc_graph_lint(g) != AIRC_OK) {
        rc = report("lint");
        goto done;
    }
    printf("%zu nodes; output node: %s\n", airc_graph_num_nodes(g),
           airc_node_name(airc_graph_output_node(g)));

    uint32_t flags = AIRC_PRINT_DEFAULT;
    if (argc > 2) {
        if ((rc = set_inputs(ctx, g, argv + 2, argc - 2)) != 0)
            goto done;
        if (airc_graph_propagate_meta(g) != AIRC_OK) {
            rc = report("propagate_meta");
            goto done;
        }
        flags = AIRC_PRINT_TYPES;
    }
    /* The printed text is ours: free it with airc_string_free. */
    if (airc_graph_print(g, flags, &text) != AIRC_OK) {
        rc = report("print");
        goto done;
    }
    printf("%s\n", text);

done:
    airc_string_free(text);  /* NULL is a no-op */
    airc_graph_destroy(g);   /* nodes, values and meta die with the graph */
    airc_context_destroy(ctx);
    return rc;
}
