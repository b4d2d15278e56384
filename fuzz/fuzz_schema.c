/* Fuzz target: the schema parser. The bytes are schema text; it is parsed
 * (airc_schema_parse), read back through every accessor, printed and
 * re-parsed (it fails unless that gives the same text and the same
 * accessor values), then registered as an op (airc_context_register_op) in a
 * context of its own and printed from the registry. */
#include "fuzz_common.h"

static uint32_t read_schema(const airc_schema *s)
{
    uint32_t h = 0;
    size_t nargs = airc_schema_num_args(s), nret = airc_schema_num_returns(s);
    h += (uint32_t)strlen(airc_schema_namespace(s)) + (uint32_t)strlen(airc_schema_name(s)) +
         (uint32_t)strlen(airc_schema_overload(s));
    for (size_t i = 0; i < nargs; i++) {
        const char *alias = airc_schema_arg_alias(s, i);
        h = h * 31u + (uint32_t)strlen(airc_schema_arg_name(s, i));
        h = h * 31u + (uint32_t)airc_schema_arg_type(s, i);
        h = h * 31u + (uint32_t)strlen(airc_schema_arg_type_string(s, i));
        h = h * 31u + (uint32_t)airc_schema_arg_is_optional(s, i);
        h = h * 31u + (uint32_t)airc_schema_arg_is_list(s, i);
        h = h * 31u + (uint32_t)airc_schema_arg_list_size(s, i);
        h = h * 31u + (uint32_t)airc_schema_arg_is_kwarg_only(s, i);
        h = h * 31u + (uint32_t)airc_value_get_kind(airc_schema_arg_default(s, i));
        h = h * 31u + (alias ? (uint32_t)strlen(alias) : 0u);
        h = h * 31u + (uint32_t)airc_schema_arg_is_write(s, i);
    }
    for (size_t i = 0; i < nret; i++) {
        const char *name = airc_schema_return_name(s, i), *alias = airc_schema_return_alias(s, i);
        h = h * 31u + (uint32_t)airc_schema_return_type(s, i);
        h = h * 31u + (uint32_t)strlen(airc_schema_return_type_string(s, i));
        h = h * 31u + (name ? (uint32_t)strlen(name) : 0u);
        h = h * 31u + (alias ? (uint32_t)strlen(alias) : 0u);
        h = h * 31u + (uint32_t)airc_schema_return_is_write(s, i);
    }
    return h + (uint32_t)airc_schema_is_mutable(s);
}

FUZZ_PROCESS_CONTEXT(shared)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!shared || size > (16u << 10))
        return 0;
    char *text = fuzz_strndup(data, size);
    if (!text)
        return 0;
    airc_schema *s = NULL;
    if (airc_schema_parse(shared, text, &s) != AIRC_OK) {
        free(text);
        return 0;
    }
    volatile uint32_t sink = read_schema(s);
    (void)sink;
    char *canon = NULL;
    if (airc_schema_to_string(s, &canon) == AIRC_OK) {
        /* the canonical text parses back to the same schema and text */
        airc_schema *again = NULL;
        airc_status st = airc_schema_parse(shared, canon, &again);
        fuzz_require(st == AIRC_OK || st == AIRC_E_OUT_OF_MEMORY,
                     "a printed schema does not parse back", airc_last_error());
        char *canon2 = NULL;
        if (again && airc_schema_to_string(again, &canon2) == AIRC_OK) {
            fuzz_require(!strcmp(canon, canon2), "a printed schema prints differently", canon2);
            fuzz_require(read_schema(again) == sink, "a printed schema reads differently", canon);
            airc_string_free(canon2);
        }
        airc_schema_destroy(again);
        airc_string_free(canon);
    }
    airc_schema_destroy(s);

    /* A registry of its own: registered ops stay for the context's life. */
    airc_context *ctx = fuzz_context_create();
    airc_op_def def;
    airc_op_def_init(&def);
    def.schema = text;
    const airc_op *op = NULL;
    if (ctx && airc_context_register_op(ctx, &def, &op) == AIRC_OK) {
        const airc_op *found = NULL;
        airc_context_find_op(ctx, airc_op_name(op), &found);
        sink = (uint32_t)strlen(airc_op_target_string(op)) + airc_op_flags(op);
        if (airc_schema_to_string(airc_op_schema(op), &canon) == AIRC_OK)
            airc_string_free(canon);
    }
    airc_context_destroy(ctx);
    free(text);
    return 0;
}
