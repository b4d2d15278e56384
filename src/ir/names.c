/* Node names with torch.fx's rules (torch/fx/graph.py _Namespace):
 * sanitize to an identifier, split a trailing _N, and bump N past names in
 * use or illegal in Python. Unlike torch 1.13, which probes from N every
 * time (quadratic), a per-base counter makes each creation O(1) amortised,
 * as torch 2.x does. Names are never released. */
#include "ir/ir.h"

#include <string.h>

/* Python keywords and builtins (3.11), plus torch.fx's custom builtins: a
 * node may not shadow them in generated code, so they get a suffix. */
static const char *const illegal_names[] = {
    "ArithmeticError", "AssertionError", "AttributeError", "BaseException",
    "BaseExceptionGroup", "BlockingIOError", "BrokenPipeError", "BufferError", "BytesWarning",
    "ChildProcessError", "ConnectionAbortedError", "ConnectionError", "ConnectionRefusedError",
    "ConnectionResetError", "DeprecationWarning", "EOFError", "Ellipsis", "EncodingWarning",
    "EnvironmentError", "Exception", "ExceptionGroup", "False", "FileExistsError",
    "FileNotFoundError", "FloatingPointError", "FutureWarning", "GeneratorExit", "IOError",
    "ImportError", "ImportWarning", "IndentationError", "IndexError", "InterruptedError",
    "IsADirectoryError", "KeyError", "KeyboardInterrupt", "LookupError", "MemoryError",
    "ModuleNotFoundError", "NameError", "None", "NoneType", "NotADirectoryError",
    "NotImplemented", "NotImplementedError", "OSError", "OverflowError",
    "PendingDeprecationWarning", "PermissionError", "ProcessLookupError", "RecursionError",
    "ReferenceError", "ResourceWarning", "RuntimeError", "RuntimeWarning",
    "StopAsyncIteration", "StopIteration", "SyntaxError", "SyntaxWarning", "SystemError",
    "SystemExit", "TabError", "TimeoutError", "True", "TypeError", "UnboundLocalError",
    "UnicodeDecodeError", "UnicodeEncodeError", "UnicodeError", "UnicodeTranslateError",
    "UnicodeWarning", "UserWarning", "ValueError", "Warning", "ZeroDivisionError",
    "__build_class__", "__debug__", "__doc__", "__import__", "__loader__", "__name__",
    "__package__", "__spec__", "abs", "aiter", "all", "and", "anext", "any", "as", "ascii",
    "assert", "async", "await", "bin", "bool", "break", "breakpoint", "bytearray", "bytes",
    "callable", "chr", "class", "classmethod", "compile", "complex", "continue", "copyright",
    "credits", "def", "del", "delattr", "device", "dict", "dir", "divmod", "elif", "else",
    "enumerate", "eval", "except", "exec", "exit", "filter", "finally", "float", "for",
    "format", "from", "frozenset", "fx_pytree", "getattr", "global", "globals", "hasattr",
    "hash", "help", "hex", "id", "if", "import", "in", "inf", "input", "int", "is",
    "isinstance", "issubclass", "iter", "lambda", "len", "license", "list", "locals", "map",
    "max", "memoryview", "min", "nan", "next", "nonlocal", "not", "object", "oct", "open", "or",
    "ord", "pass", "pow", "print", "property", "pytree", "quit", "raise", "range", "repr",
    "return", "reversed", "round", "set", "setattr", "slice", "sorted", "staticmethod", "str",
    "sum", "super", "torch", "try", "tuple", "type", "vars", "while", "with", "yield", "zip",
};

static bool is_illegal(const char *name)
{
    size_t lo = 0, hi = sizeof illegal_names / sizeof illegal_names[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(name, illegal_names[mid]);
        if (!c)
            return true;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return false;
}

static bool is_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

void airc_name_from_target(const char *target, bool is_op, char *buf, size_t cap)
{
    /* "aten.add.Tensor" -> "add"; "operator.getitem" -> "getitem";
     * "torch.ops.ns.name.overload" -> "name"; other text as is. */
    const char *t = target;
    if (!strncmp(t, "torch.ops.", 10))
        t += 10;
    const char *d1 = is_op ? strchr(t, '.') : NULL;
    const char *start = is_op ? t : target, *end = start + strlen(start);
    if (d1) {
        start = d1 + 1;
        const char *d2 = strchr(start, '.');
        end = d2 ? d2 : end;
    }
    /* torch.fx _snake_case: '_' before an upper-case letter that follows a
     * lower-case one, then lower-case */
    size_t o = 0;
    bool prev_lower = false;
    for (const char *p = start; p < end && o + 2 < cap; p++) {
        char c = *p;
        if (prev_lower && c >= 'A' && c <= 'Z')
            buf[o++] = '_';
        prev_lower = c >= 'a' && c <= 'z';
        buf[o++] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
    }
    buf[o] = '\0';
}

/* torch.fx create_name: runs of non-identifier characters become one '_';
 * a leading digit gets a '_' prefix. */
/* Writes the sanitized candidate into out (room for 2 * strlen + 10). */
static size_t sanitize(const char *cand, size_t n, char *out)
{
    size_t o = 0;
    if (cand[0] >= '0' && cand[0] <= '9')
        out[o++] = '_';
    bool in_bad = false;
    for (size_t i = 0; i < n; i++) {
        char c = cand[i];
        if (!is_ident_char(c)) {
            if (!in_bad)
                out[o++] = '_';
            in_bad = true;
            continue;
        }
        in_bad = false;
        out[o++] = c;
    }
    if (o == 0) {
        memcpy(out, "_unnamed", 9);
        o = 8;
    }
    out[o] = '\0';
    return o;
}

/* Writes "_N" and a NUL at dst (at most 22 bytes): as "_%llu" does, at a
 * fraction of the cost of snprintf, once per name of a big rewrite. */
static void put_suffix(char *dst, uint64_t k)
{
    char digits[20];
    size_t n = 0;
    do {
        digits[n++] = (char)('0' + k % 10);
        k /= 10;
    } while (k);
    *dst++ = '_';
    while (n)
        *dst++ = digits[--n];
    *dst = '\0';
}

const char *airc_graph_unique_name(airc_graph *g, const char *candidate)
{
    airc_context *ctx = g->ctx;
    size_t n = strlen(candidate);
    if (n > (SIZE_MAX - 64) / 2)
        return NULL;
    /* names are short: work on the stack, the heap only for huge ones */
    char small[256];
    size_t need = 2 * n + 32;
    char *s = need <= sizeof small ? small : airc_malloc(ctx, need);
    if (!s)
        return NULL;
    size_t len = sanitize(candidate, n, s);
    /* split "(.*)_(\d+)$"; a number too long for 18 digits stays in the base */
    size_t base_len = len;
    uint64_t num = 0;
    bool has_num = false;
    size_t j = len;
    while (j > 0 && s[j - 1] >= '0' && s[j - 1] <= '9')
        j--;
    if (j < len && j > 1 && s[j - 1] == '_' && len - j <= 18) {
        base_len = j - 1;
        for (size_t k = j; k < len; k++)
            num = num * 10 + (uint64_t)(s[k] - '0');
        has_num = true;
    }
    /* s has room for base + "_" + 20 digits: rewrite the suffix in place */
    char *buf = s;
    const char *result = NULL;
    buf[base_len] = '\0';
    if (has_num)
        put_suffix(buf + base_len, num);
    if (!airc_strmap_reserve(&g->ns.bases, 1))
        goto done;
    /* the small bases map first: a base seen colliding before means a bare
     * candidate is taken for good (names are never released), which saves
     * a probe of the big name table */
    uint64_t base_hash = airc_strmap_hash(buf, base_len);
    uintptr_t hint = (uintptr_t)airc_strmap_get_hashed(&g->ns.bases, buf, base_len, base_hash);
    /* what ns.runs knows spares probes of the big name table: names below
     * run->dense are taken, names above run->max (or of a base without a
     * run) are free; buf's suffix is canonical (just rewritten) */
    const airc_name_run *run = airc_strmap_get_hashed(&g->ns.runs, buf, base_len, base_hash);
    bool run_taken = has_num && run && num >= 1 && num < run->dense;
    if ((hint && !has_num) || run_taken || airc_strmap_get(&g->ns.used, buf) ||
        is_illegal(buf)) {
        uint64_t k = num + 1 > hint ? num + 1 : hint;
        if (run && k < run->dense)
            k = run->dense;
        for (;; k++) {
            put_suffix(buf + base_len, k);
            /* runs only know suffixes of up to 18 digits */
            bool known = k < UINT64_C(1000000000000000000);
            bool taken = (!known || (run && k <= run->max)) && airc_strmap_get(&g->ns.used, buf);
            if (!taken && !is_illegal(buf))
                break;
        }
        if (hint) {
            /* the base is known: update its counter in place */
            airc_strmap_put_existing(&g->ns.bases, buf, base_len, (void *)(uintptr_t)(k + 1));
        } else {
            const char *base_key = airc_arena_strndup(&g->arena, buf, base_len);
            if (!base_key)
                goto done;
            airc_strmap_put(&g->ns.bases, base_key, (void *)(uintptr_t)(k + 1));
        }
    }
    result = airc_arena_strdup(&g->arena, buf);
done:
    if (s != small)
        airc_free(ctx, s);
    return result;
}

/* The "_N" suffix of a name as unique_name writes it ("%llu": no leading
 * zero, N >= 1, a non-empty base); 0 when there is none. */
static uint64_t canonical_suffix(const char *name, size_t len, size_t *base_len)
{
    size_t j = len;
    while (j > 0 && name[j - 1] >= '0' && name[j - 1] <= '9')
        j--;
    if (j == len || j < 2 || name[j - 1] != '_' || name[j] == '0' || len - j > 18)
        return 0;
    uint64_t num = 0;
    for (size_t k = j; k < len; k++)
        num = num * 10 + (uint64_t)(name[k] - '0');
    *base_len = j - 1;
    return num;
}

bool airc_names_prepare(airc_graph *g, const char *name, size_t len, airc_name_note *note)
{
    *note = (airc_name_note){0};
    size_t base_len;
    uint64_t num = canonical_suffix(name, len, &base_len);
    if (!num)
        return true;
    uint64_t h = airc_strmap_hash(name, base_len);
    airc_name_run *run = airc_strmap_get_hashed(&g->ns.runs, name, base_len, h);
    bool fresh = !run;
    if (fresh && (!airc_strmap_reserve(&g->ns.runs, 1) ||
                  !(run = airc_arena_calloc(&g->arena, 1, sizeof *run))))
        return false;
    *note = (airc_name_note){run, num, fresh, base_len, h};
    return true;
}

void airc_names_commit(airc_graph *g, const char *name, const airc_name_note *note)
{
    airc_name_run *run = note->run;
    if (!run)
        return;
    if (note->fresh) { /* keyed by the name's own first base_len bytes */
        run->dense = 1;
        airc_strmap_insert_new(&g->ns.runs, name, note->base_len, note->hash, run);
    }
    if (note->num == run->dense)
        run->dense++;
    if (note->num > run->max)
        run->max = note->num;
}
