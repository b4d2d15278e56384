/* The option table: TorchAir's CompilerConfig tree (torchair/configs/ files
 * at fced8842) as far as airc implements it, plus airc's own switches.
 * Defaults are TorchAir's except `mode` (airc: reduce-overhead, the fast
 * path on the CPU runtime). docs/config.md documents the same table; a unit
 * test keeps the two in step. */
#include "config/config.h"

#include <string.h>

#define RO AIRC_CFG_MODE_REDUCE_OVERHEAD
#define MA AIRC_CFG_MODE_MAX_AUTOTUNE
#define ALL AIRC_CFG_MODE_ALL

static const char *const modes[] = {"reduce-overhead", "max-autotune", "eager", NULL};
static const char *const dump_types[] = {"txt", "pbtxt", "pb", NULL};
static const char *const npy_only[] = {"npy", NULL};
static const char *const csv_only[] = {"csv", NULL};
static const char *const oo_levels[] = {"O1", "O3", NULL};
static const char *const compile_stat[] = {"0", "1", "2", NULL};
static const char *const jit_modes[] = {"auto", NULL};
static const char *const topo[] = {"BFS", "DFS", "RDFS", "StableRDFS", NULL};
static const char *const dump_modes[] = {"input", "output", "all", NULL};
static const char *const dump_data[] = {"tensor", "stats", NULL};
static const char *const dump_stages[] = {"original", "optimized", NULL};
static const char *const merge_policies[] = {"zip", "product", NULL};
static const char *const devices[] = {"cpu", "cuda", "npu", NULL};

#define BOOL(k, d, m, ta, doc) {k, AIRC_CFG_BOOL, d, NULL, 0, 0, NULL, NULL, m, ta, doc}
#define INT(k, d, lo, hi, m, doc) {k, AIRC_CFG_INT, d, NULL, lo, hi, NULL, NULL, m, true, doc}
#define ENUM(k, d, list, m, ta, doc) {k, AIRC_CFG_ENUM, d, list, 0, 0, NULL, NULL, m, ta, doc}
#define STR(k, m, doc) {k, AIRC_CFG_STRING, NULL, NULL, 0, 0, NULL, NULL, m, true, doc}
#define PATH(k, d, m, doc) {k, AIRC_CFG_PATH, d, NULL, 0, 0, NULL, NULL, m, true, doc}

static const airc_config_option options[] = {
    {"mode", AIRC_CFG_ENUM, "reduce-overhead", modes, 0, 0, "npugraph_ex",
     "TorchAir's npugraph_ex backend is airc's reduce-overhead", ALL, true,
     "backend: reduce-overhead (captured replay), max-autotune (GE ModelDef), eager "
     "(node-by-node reference); TorchAir's default is max-autotune"},
    ENUM("device", "cpu", devices, ALL, false, "runtime the compiled graph runs on"),

    /* debug */
    {"debug.graph_dump.type", AIRC_CFG_ENUM, NULL, dump_types, 0, 0, "py",
     "airc cannot emit Python; use txt, pbtxt or pb", ALL, true,
     "dump the compiled graph: txt (protobuf text / FX text), pbtxt (Netron), pb (binary)"},
    PATH("debug.graph_dump.path", NULL, ALL, "folder for graph dumps (unset: current folder)"),
    ENUM("debug.data_dump.type", NULL, npy_only, ALL, true,
         "dump every node's output as .npy while running eagerly"),
    STR("debug.data_dump.filter", ALL,
        "node-name pattern (fnmatch) of the outputs to dump (TorchAir: a Python callable)"),
    PATH("debug.data_dump.path", NULL, ALL, "folder for data dumps (unset: current folder)"),
    ENUM("debug.fx_summary.type", NULL, csv_only, MA, true, "write a csv summary of the FX graph"),
    BOOL("debug.fx_summary.skip_compile", "1", MA, true,
         "with fx_summary: run eagerly instead of compiling"),
    {"debug.fx_summary.path", AIRC_CFG_PATH, NULL, NULL, 0, 0, NULL, NULL, MA, false,
     "folder for the fx_summary csv (unset: current folder)"},
    BOOL("debug.run_eagerly", "0", ALL, true, "skip capture/lowering; interpret the graph"),
    BOOL("debug.deadlock_check", "0", ALL, true, "check cross-stream waits for cycles"),
    BOOL("debug.aclgraph.disable_reinplace_inplaceable_ops_pass", "0", RO, true,
         "turn off the reinplace pass for in-placeable ops"),
    BOOL("debug.aclgraph.disable_reinplace_input_mutated_ops_pass", "0", RO, true,
         "turn off reinplacing of ops that mutate graph inputs"),
    BOOL("debug.aclgraph.disable_mempool_reuse_in_same_fx", "0", RO, true,
         "give each capture of one graph its own memory instead of one shared arena"),
    BOOL("debug.aclgraph.enable_output_clone", "0", RO, true,
         "copy outputs out of the arena (otherwise valid until the next replay)"),
    INT("debug.aclgraph.static_capture_size_limit", "64", 1, INT64_MAX, RO,
        "captures per compiled graph before it falls back to eager for good"),
    BOOL("debug.aclgraph.clone_input", "1", RO, true,
         "copy non-static inputs into captured buffers (0: capture the caller's addresses)"),
    BOOL("debug.aclgraph.remove_cat_ops", "1", RO, true,
         "write dim-0 cat inputs straight into the output buffer"),

    /* ge_config: max-autotune only */
    BOOL("ge_config.enable_single_stream", "0", MA, true, "ge.enableSingleStream"),
    ENUM("ge_config.oo_level", "O3", oo_levels, MA, true, "ge.oo.level"),
    BOOL("ge_config.oo_constant_folding", NULL, MA, true, "ge.oo.constantFolding (unset: GE's)"),
    BOOL("ge_config.oo_dead_code_elimination", NULL, MA, true,
         "ge.oo.deadCodeElimination (unset: GE's)"),
    ENUM("ge_config.export_compile_stat", "2", compile_stat, MA, true, "ge.exportCompileStat"),
    STR("ge_config.aicore_num", MA, "ge.aicoreNum"),
    STR("ge_config.optimization_switch", MA, "ge.optimizationSwitch, e.g. AutomaticUbFusion:off"),

    /* experimental_config */
    BOOL("experimental_config.cc_parallel_enable", "0", MA, true, "ge.exec.enableEngineParallel"),
    BOOL("experimental_config.keep_inference_input_mutations", "1", ALL, true,
         "keep input mutations (copy_ back into inputs) in inference graphs"),
    BOOL("experimental_config.memory_efficiency", "0", MA, true, "ge.featureBaseRefreshable"),
    BOOL("experimental_config.frozen_parameter", "0", ALL, true,
         "parameters never change address (not part of the graph key)"),
    INT("experimental_config.static_model_ops_lower_limit", NULL, -1, INT64_MAX, MA,
        "ge.exec.static_model_ops_lower_limit"),
    ENUM("experimental_config.jit_compile", "auto", jit_modes, MA, true, "ge.jit_compile=2"),
    BOOL("experimental_config.npu_fx_pass", "0", ALL, true, "run the joint-graph pattern passes"),
    ENUM("experimental_config.topology_sorting_strategy", "DFS", topo, MA, true,
         "ge.topoSortingMode 0/1/2/3"),
    BOOL("experimental_config.enable_ref_data", "0", MA, true, "Data -> RefData for mutated inputs"),
    BOOL("experimental_config.enable_view_optimize", "1", MA, true,
         "keep views of inputs as views in the GE graph"),
    BOOL("experimental_config.remove_noop_ops", "1", ALL, true,
         "built-in pass remove_noop_ops (Inductor's)"),
    BOOL("experimental_config.tiling_schedule_optimize", "0", MA, true,
         "ge.tiling_schedule_optimize"),
    BOOL("experimental_config.pattern_fusion_pass", "1", ALL, true, "pattern-fusion passes"),

    /* dump_config */
    BOOL("dump_config.enable_dump", "0", MA | RO, true, "dump op inputs/outputs while running"),
    PATH("dump_config.dump_path", "./", MA | RO, "folder for dump_config dumps"),
    ENUM("dump_config.dump_mode", "all", dump_modes, MA, true, "ge.exec.dumpMode"),
    ENUM("dump_config.dump_data", "tensor", dump_data, MA, true, "ge.exec.dumpData"),
    ENUM("dump_config.data_dump_stage", "optimized", dump_stages, RO, true,
         "aclgraph.dumpStage: dump the original or the optimized graph"),

    ENUM("inference_config.dynamic_gears_merge_policy", "zip", merge_policies, MA, true,
         "how dynamic gears of several inputs combine"),

    /* airc's built-in graph passes (DESIGN.md "The compile pipeline") */
    BOOL("passes.functionalize", "1", ALL, false, "built-in pass functionalize"),
    BOOL("passes.view_to_reshape", "1", ALL, false, "built-in pass view_to_reshape"),
    BOOL("passes.dce", "1", ALL, false, "built-in pass dce"),
    BOOL("passes.cse", "1", ALL, false, "built-in pass cse"),
    BOOL("passes.constant_folding", "1", ALL, false, "built-in pass constant_folding"),
    BOOL("passes.meta_propagation", "1", ALL, false, "built-in pass meta_propagation"),
};
#define NOPTIONS (sizeof options / sizeof options[0])

size_t airc_config_num_options(void)
{
    return NOPTIONS;
}

const airc_config_option *airc_config_option_at(size_t i)
{
    return i < NOPTIONS ? &options[i] : NULL;
}

const airc_config_option *airc_config_find_option(const char *key, size_t *index)
{
    if (!key)
        return NULL;
    for (size_t i = 0; i < NOPTIONS; i++) {
        if (!strcmp(options[i].key, key)) {
            if (index)
                *index = i;
            return &options[i];
        }
    }
    return NULL;
}

/* TorchAir options airc does not carry, and why. */
static const struct {
    const char *key; /* exact key, or a prefix ending in '.' */
    const char *why;
} torchair_only[] = {
    {"post_grad_custom_pre_pass", "register user passes with the pass API instead"},
    {"post_grad_custom_post_pass", "register user passes with the pass API instead"},
    {"aoe_config.", "AOE tuning needs CANN"},
    {"export.", "graph export needs CANN; dump with debug.graph_dump instead"},
    {"fusion_config.", "GE fusion switches need CANN"},
    {"aclgraph_config.", "graph memory pools are managed by airc's runtime"},
    {"npugraphex_config.", "npugraph_ex options map onto debug.aclgraph.*"},
    {"experimental_config.aclgraph.", "static-shape aclnn kernels and super kernels need CANN"},
    {"experimental_config.aot_config_enable_joint_graph", "airc compiles inference graphs"},
    {"experimental_config.aot_config_output_loss_index", "airc compiles inference graphs"},
    {"dump_config.quant_dumpable", "GE-specific dump option"},
    {"dump_config.dump_step", "GE-specific dump option"},
    {"dump_config.dump_layer", "GE-specific dump option"},
    {"dump_config.dump_config_path", "GE-specific dump option"},
};

const char *airc_config_torchair_only(const char *key)
{
    for (size_t i = 0; i < sizeof torchair_only / sizeof torchair_only[0]; i++) {
        const char *k = torchair_only[i].key;
        size_t n = strlen(k);
        if (k[n - 1] == '.' ? !strncmp(key, k, n) : !strcmp(key, k))
            return torchair_only[i].why;
    }
    return NULL;
}
