/* GE graph dumps (backends/ge/dump_*.c): `txt` byte for byte against
 * `protoc --decode` of the same GraphDef packed by protobuf-c (also with
 * unknown fields read back by protobuf-c), `pbtxt` against TorchAir's
 * convert_to_pbtxt layout, escaping, empty graphs, bad arguments and
 * allocation failure. */
#include "testutil.h"

#include "backends/ge/dump.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROTOC "/usr/bin/protoc"

static airc_context *test_ctx; /* the strbufs' allocator */

/* ---- a hand-built GraphDef (every block malloc'd and listed for freeing) */

static void *blocks[4096];
static size_t n_blocks;

static void *grab(size_t size)
{
    void *p = calloc(1, size ? size : 1);
    assert_non_null(p);
    assert_true(n_blocks < sizeof blocks / sizeof blocks[0]);
    blocks[n_blocks++] = p;
    return p;
}

static void free_blocks(void)
{
    while (n_blocks > 0)
        free(blocks[--n_blocks]);
}

static char *str(const char *s)
{
    char *p = grab(strlen(s) + 1);
    memcpy(p, s, strlen(s) + 1);
    return p;
}

static char **strs(size_t n, const char *const *v)
{
    char **a = grab(n * sizeof *a);
    for (size_t i = 0; i < n; i++)
        a[i] = str(v[i]);
    return a;
}

static ProtobufCBinaryData bin(const void *p, size_t n)
{
    uint8_t *d = grab(n);
    memcpy(d, p, n);
    return (ProtobufCBinaryData){n, d};
}

static Ge__Proto__AttrDef *attr_new(Ge__Proto__AttrDef__ValueCase c)
{
    Ge__Proto__AttrDef *a = grab(sizeof *a);
    *a = (Ge__Proto__AttrDef)GE__PROTO__ATTR_DEF__INIT;
    a->value_case = c;
    return a;
}

static Ge__Proto__AttrDef *attr_i(int64_t v)
{
    Ge__Proto__AttrDef *a = attr_new(GE__PROTO__ATTR_DEF__VALUE_I);
    a->i = v;
    return a;
}

static Ge__Proto__AttrDef *attr_f(float v)
{
    Ge__Proto__AttrDef *a = attr_new(GE__PROTO__ATTR_DEF__VALUE_F);
    a->f = v;
    return a;
}

static Ge__Proto__AttrDef *attr_b(bool v)
{
    Ge__Proto__AttrDef *a = attr_new(GE__PROTO__ATTR_DEF__VALUE_B);
    a->b = v;
    return a;
}

static Ge__Proto__AttrDef *attr_s(const char *s)
{
    Ge__Proto__AttrDef *a = attr_new(GE__PROTO__ATTR_DEF__VALUE_S);
    a->s = bin(s, strlen(s));
    return a;
}

static Ge__Proto__ShapeDef *shape(size_t n, const int64_t *dims)
{
    Ge__Proto__ShapeDef *s = grab(sizeof *s);
    *s = (Ge__Proto__ShapeDef)GE__PROTO__SHAPE_DEF__INIT;
    s->n_dim = n;
    s->dim = grab(n * sizeof *s->dim);
    if (n)
        memcpy(s->dim, dims, n * sizeof *dims);
    return s;
}

static Ge__Proto__TensorDescriptor *desc(const char *name, Ge__Proto__DataType dt, size_t n,
                                         const int64_t *dims)
{
    Ge__Proto__TensorDescriptor *d = grab(sizeof *d);
    *d = (Ge__Proto__TensorDescriptor)GE__PROTO__TENSOR_DESCRIPTOR__INIT;
    d->name = str(name);
    d->dtype = dt;
    d->shape = shape(n, dims);
    d->layout = str("ND");
    return d;
}

/* Every map entry type (OpDef.AttrEntry, NamedAttrs.AttrEntry, ...) is laid
 * out alike: base, key, value. */
static void *entry(const ProtobufCMessageDescriptor *d, const char *k, Ge__Proto__AttrDef *v)
{
    Ge__Proto__OpDef__AttrEntry *e = grab(sizeof *e);
    protobuf_c_message_init(d, e);
    e->key = str(k);
    e->value = v;
    return e;
}
#define OP_ATTR(k, v) entry(&ge__proto__op_def__attr_entry__descriptor, k, v)
#define NA_ATTR(k, v) entry(&ge__proto__named_attrs__attr_entry__descriptor, k, v)
#define TD_ATTR(k, v) entry(&ge__proto__tensor_descriptor__attr_entry__descriptor, k, v)
#define G_ATTR(k, v) entry(&ge__proto__graph_def__attr_entry__descriptor, k, v)

static Ge__Proto__OpDef *op_new(const char *name, const char *type, size_t n_in,
                                const char *const *in)
{
    Ge__Proto__OpDef *op = grab(sizeof *op);
    *op = (Ge__Proto__OpDef)GE__PROTO__OP_DEF__INIT;
    op->name = str(name);
    op->type = str(type);
    op->n_input = n_in;
    op->input = strs(n_in, in);
    return op;
}

static void op_attrs(Ge__Proto__OpDef *op, size_t n, Ge__Proto__OpDef__AttrEntry **e)
{
    op->n_attr = n;
    op->attr = grab(n * sizeof *e);
    memcpy(op->attr, e, n * sizeof *e);
}

static Ge__Proto__TensorDescriptor **descs(size_t n, Ge__Proto__TensorDescriptor **d)
{
    Ge__Proto__TensorDescriptor **a = grab(n * sizeof *a);
    memcpy(a, d, n * sizeof *d);
    return a;
}

/* Data -> Const -> MatMul-like op with attributes of every kind. */
static Ge__Proto__GraphDef *build_graph(void)
{
    static const int64_t d23[] = {2, 3}, d32[] = {3, 2}, dneg[] = {-1, 4};

    Ge__Proto__OpDef *data = op_new("arg0_1", "Data", 0, NULL);
    op_attrs(data, 1, (Ge__Proto__OpDef__AttrEntry *[]){OP_ATTR("index", attr_i(0))});
    data->n_input_desc = 1;
    data->input_desc = descs(
        1, (Ge__Proto__TensorDescriptor *[]){desc("x", GE__PROTO__DATA_TYPE__DT_FLOAT, 2, d23)});
    data->n_output_desc = 1;
    data->output_desc = descs(
        1, (Ge__Proto__TensorDescriptor *[]){desc("y", GE__PROTO__DATA_TYPE__DT_FLOAT, 2, d23)});
    data->input_desc[0]->device_type = str("NPU");
    data->input_desc[0]->size = 24;
    data->input_desc[0]->real_dim_cnt = 2;

    /* Const: raw bytes with NUL, quote, backslash, high and control bytes */
    static const uint8_t raw[] = {0x00, 0x00, 0x80, 0x3f, '"', '\\', '\n', 0xff, 0x7f, 0x01, 'a'};
    Ge__Proto__TensorDef *t = grab(sizeof *t);
    *t = (Ge__Proto__TensorDef)GE__PROTO__TENSOR_DEF__INIT;
    t->desc = desc("", GE__PROTO__DATA_TYPE__DT_FLOAT, 2, d32);
    t->data = bin(raw, sizeof raw);
    Ge__Proto__AttrDef *tv = attr_new(GE__PROTO__ATTR_DEF__VALUE_T);
    tv->t = t;
    Ge__Proto__OpDef *cst = op_new("_tensor_constant0", "Const", 0, NULL);
    op_attrs(cst, 2,
             (Ge__Proto__OpDef__AttrEntry *[]){OP_ATTR("value", tv),
                                               OP_ATTR("_readable_value", attr_s("[1.0, ...]"))});
    cst->n_output_desc = 1;
    cst->output_desc = descs(
        1, (Ge__Proto__TensorDescriptor *[]){desc("y", GE__PROTO__DATA_TYPE__DT_FLOAT, 2, d32)});

    /* list values */
    Ge__Proto__AttrDef *lst = attr_new(GE__PROTO__ATTR_DEF__VALUE_LIST);
    Ge__Proto__AttrDef__ListValue *lv = grab(sizeof *lv);
    *lv = (Ge__Proto__AttrDef__ListValue)GE__PROTO__ATTR_DEF__LIST_VALUE__INIT;
    static const int64_t li[] = {-1, 0, 2, INT64_MIN, INT64_MAX};
    static const float lf[] = {0.1f, 1e-5f,     -2.5f,        3.4e38f, 0.0f,
                               1.0f, 100000.0f, 0.123456789f, 1e-40f /* subnormal: %.9g */};
    lv->n_i = 5;
    lv->i = grab(sizeof li);
    memcpy(lv->i, li, sizeof li);
    lv->n_f = 9;
    lv->f = grab(sizeof lf);
    memcpy(lv->f, lf, sizeof lf);
    lv->n_b = 2;
    lv->b = grab(2 * sizeof *lv->b);
    lv->b[0] = 1;
    lv->n_s = 2;
    lv->s = grab(2 * sizeof *lv->s);
    lv->s[0] = bin("ND", 2);
    lv->s[1] = bin("it's \"q\"\t\x01", 11);
    lv->n_dt = 2;
    lv->dt = grab(2 * sizeof *lv->dt);
    lv->dt[0] = 0;
    lv->dt[1] = 27;
    lv->n_td = 1;
    lv->td = descs(
        1, (Ge__Proto__TensorDescriptor *[]){desc("td", GE__PROTO__DATA_TYPE__DT_BF16, 2, dneg)});
    lv->val_type = GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_INT;
    lst->list = lv;

    Ge__Proto__AttrDef *lli = attr_new(GE__PROTO__ATTR_DEF__VALUE_LIST_LIST_INT);
    Ge__Proto__AttrDef__ListListInt *ll = grab(sizeof *ll);
    *ll = (Ge__Proto__AttrDef__ListListInt)GE__PROTO__ATTR_DEF__LIST_LIST_INT__INIT;
    ll->n_list_list_i = 2;
    ll->list_list_i = grab(2 * sizeof *ll->list_list_i);
    for (int k = 0; k < 2; k++) {
        Ge__Proto__AttrDef__ListListInt__ListInt *row = grab(sizeof *row);
        *row = (Ge__Proto__AttrDef__ListListInt__ListInt)
            GE__PROTO__ATTR_DEF__LIST_LIST_INT__LIST_INT__INIT;
        row->n_list_i = (size_t)k; /* an empty row, then one of 1 */
        row->list_i = grab(sizeof(int64_t));
        row->list_i[0] = -7;
        ll->list_list_i[k] = row;
    }
    lli->list_list_int = ll;

    Ge__Proto__AttrDef *llf = attr_new(GE__PROTO__ATTR_DEF__VALUE_LIST_LIST_FLOAT);
    Ge__Proto__AttrDef__ListListFloat *lf2 = grab(sizeof *lf2);
    *lf2 = (Ge__Proto__AttrDef__ListListFloat)GE__PROTO__ATTR_DEF__LIST_LIST_FLOAT__INIT;
    lf2->n_list_list_f = 1;
    lf2->list_list_f = grab(sizeof *lf2->list_list_f);
    Ge__Proto__AttrDef__ListListFloat__ListFloat *frow = grab(sizeof *frow);
    *frow = (Ge__Proto__AttrDef__ListListFloat__ListFloat)
        GE__PROTO__ATTR_DEF__LIST_LIST_FLOAT__LIST_FLOAT__INIT;
    frow->n_list_f = 2;
    frow->list_f = grab(2 * sizeof(float));
    frow->list_f[0] = 0.5f;
    frow->list_f[1] = -1e-30f;
    lf2->list_list_f[0] = frow;
    llf->list_list_float = lf2;

    /* NamedAttrs with its own (unsorted) map, one entry without a value */
    Ge__Proto__AttrDef *fn = attr_new(GE__PROTO__ATTR_DEF__VALUE_FUNC);
    Ge__Proto__NamedAttrs *na = grab(sizeof *na);
    *na = (Ge__Proto__NamedAttrs)GE__PROTO__NAMED_ATTRS__INIT;
    na->name = str("fn");
    na->n_attr = 3;
    na->attr = grab(3 * sizeof *na->attr);
    na->attr[0] = NA_ATTR("z", attr_f(-0.0f));
    na->attr[1] = NA_ATTR("a", NULL);
    na->attr[2] = NA_ATTR("", attr_i(3));
    fn->func = na;

    Ge__Proto__AttrDef *td = attr_new(GE__PROTO__ATTR_DEF__VALUE_TD);
    td->td = desc("desc", GE__PROTO__DATA_TYPE__DT_INT64, 0, NULL);
    td->td->n_attr = 1;
    td->td->attr = grab(sizeof *td->td->attr);
    td->td->attr[0] = TD_ATTR("_is_unfed_optional", attr_i(1));
    td->td->shape->n_dim = 0; /* a scalar: empty shape block */

    Ge__Proto__AttrDef *dt = attr_new(GE__PROTO__ATTR_DEF__VALUE_DT);
    dt->dt = 0; /* a oneof member at its default is still printed */
    Ge__Proto__AttrDef *bt = attr_new(GE__PROTO__ATTR_DEF__VALUE_BT);
    bt->bt = bin("\x00\xfe", 2);
    Ge__Proto__AttrDef *empty = attr_new(GE__PROTO__ATTR_DEF__VALUE__NOT_SET);

    Ge__Proto__OpDef *mm = op_new(
        "mm", "MatMul", 3, (const char *const[]){"arg0_1:0", "_tensor_constant0:0", "abs:-1"});
    op_attrs(mm, 16,
             (Ge__Proto__OpDef__AttrEntry *[]){
                 OP_ATTR("transpose_x2", attr_b(false)), OP_ATTR("transpose_x1", attr_b(true)),
                 OP_ATTR("alpha", attr_f(0.1f)), OP_ATTR("beta", attr_f(3.4e38f)),
                 OP_ATTR("eps", attr_f(1e-5f)), OP_ATTR("neg", attr_i(-42)),
                 OP_ATTR("_user_stream_label", attr_s("stream_1")), OP_ATTR("axes", lst),
                 OP_ATTR("lli", lli), OP_ATTR("llf", llf), OP_ATTR("func", fn), OP_ATTR("td", td),
                 OP_ATTR("dt", dt), OP_ATTR("bt", bt), OP_ATTR("empty", empty),
                 OP_ATTR("neg", attr_i(-43)), /* equal keys: both, in order */
             });
    mm->id = 3;
    mm->stream_id = -1;
    mm->n_input_name = 2;
    mm->input_name = strs(2, (const char *const[]){"x1", "x2"});
    mm->n_input_desc = 2;
    mm->input_desc = descs(
        2, (Ge__Proto__TensorDescriptor *[]){desc("x1", GE__PROTO__DATA_TYPE__DT_FLOAT, 2, d23),
                                             desc("x2", GE__PROTO__DATA_TYPE__DT_FLOAT16, 2, d32)});
    mm->n_output_desc = 1;
    mm->output_desc = descs(1, (Ge__Proto__TensorDescriptor *[]){desc(
                                   "y", GE__PROTO__DATA_TYPE__DT_FLOAT, 2, (int64_t[]){2, 2})});

    Ge__Proto__OpDef *out = op_new("Node_Output", "NetOutput", 1, (const char *const[]){"mm:0"});

    Ge__Proto__GraphDef *g = grab(sizeof *g);
    *g = (Ge__Proto__GraphDef)GE__PROTO__GRAPH_DEF__INIT;
    g->name = str("graph_1");
    g->n_input = 1;
    g->input = strs(1, (const char *const[]){"arg0_1"});
    g->n_op = 4;
    g->op = grab(4 * sizeof *g->op);
    g->op[0] = data;
    g->op[1] = cst;
    g->op[2] = mm;
    g->op[3] = out;
    g->n_attr = 2;
    g->attr = grab(2 * sizeof *g->attr);
    g->attr[0] = G_ATTR("_executor_type", attr_i(1));
    g->attr[1] = G_ATTR("_input_placements", attr_s("\xc3\xa9t\xc3\xa9"));
    return g;
}

/* ---- helpers ------------------------------------------------------------- */

static char *dump(airc_status (*fn)(const Ge__Proto__GraphDef *, airc_strbuf *),
                  const Ge__Proto__GraphDef *g)
{
    airc_strbuf sb;
    airc_sb_init(&sb, test_ctx);
    AIRC_ASSERT_OK(fn(g, &sb));
    char *s = strdup(airc_sb_cstr(&sb));
    airc_sb_free(&sb);
    assert_non_null(s);
    return s;
}

/* protoc's decode of the bytes, or NULL when protoc is not installed. */
static char *protoc_decode(const uint8_t *buf, size_t len)
{
    if (access(PROTOC, X_OK) != 0) {
        printf("SKIP protoc comparison: %s not installed\n", PROTOC);
        return NULL;
    }
    char path[] = "/tmp/airc_test_ge_dump_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, buf, len), (ssize_t)len);
    close(fd);
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             PROTOC " --decode=ge.proto.GraphDef -I %s/backends/ge %s/backends/ge/ge_model.proto "
                    "< %s",
             AIRC_SOURCE_DIR, AIRC_SOURCE_DIR, path);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    size_t got;
    while ((got = fread(text + n, 1, cap - n - 1, p)) > 0) {
        n += got;
        if (cap - n < 2) {
            cap *= 2;
            text = realloc(text, cap);
            assert_non_null(text);
        }
    }
    text[n] = '\0';
    assert_int_equal(pclose(p), 0);
    unlink(path);
    return text;
}

static void assert_same_text(const char *want, const char *got)
{
    if (strcmp(want, got) != 0) {
        size_t i = 0;
        while (want[i] && want[i] == got[i])
            i++;
        size_t from = i > 80 ? i - 80 : 0;
        print_error("texts differ at byte %zu (both in /tmp/airc_test_ge_dump.{want,got})\n"
                    "--- want:\n%.160s\n--- airc:\n%.160s\n",
                    i, want + from, got + from);
        FILE *f = fopen("/tmp/airc_test_ge_dump.want", "w");
        if (f) {
            fputs(want, f);
            fclose(f);
        }
        f = fopen("/tmp/airc_test_ge_dump.got", "w");
        if (f) {
            fputs(got, f);
            fclose(f);
        }
        fail();
    }
}

/* ---- txt ------------------------------------------------------------------- */

static void test_txt_matches_protoc(void **state)
{
    (void)state;
    Ge__Proto__GraphDef *g = build_graph();
    size_t len = protobuf_c_message_get_packed_size(&g->base);
    uint8_t *buf = malloc(len);
    assert_non_null(buf);
    assert_int_equal(protobuf_c_message_pack(&g->base, buf), len);
    char *mine = dump(airc_ge_dump_txt, g);
    /* spot checks that hold with or without protoc */
    assert_non_null(strstr(mine, "      f: 0.1\n"));
    assert_non_null(strstr(mine, "        f: 1e-05\n"));
    assert_non_null(strstr(mine, "        f: 3.4e+38\n"));
    assert_non_null(strstr(mine, "        i: -9223372036854775808\n"));
    assert_non_null(strstr(mine, "data: \"\\000\\000\\200?\\\"\\\\\\n\\377\\177\\001a\"\n"));
    const char *neg = strstr(mine, "      i: -42\n");
    assert_non_null(neg);
    assert_non_null(strstr(neg, "      i: -43\n"));
    assert_non_null(strstr(mine, "      dt: 0\n"));
    assert_non_null(strstr(mine, "      b: false\n"));
    char *want = protoc_decode(buf, len);
    if (want) {
        assert_same_text(want, mine);
        free(want);
    }

    /* read back by protobuf-c, with unknown fields appended to the graph */
    static const uint8_t extra[] = {
        0x78, 0x05,                                                 /* 15: 5 */
        0x85, 0x01, 0x01, 0x02, 0x03, 0x04,                         /* 16: fixed32 */
        0x81, 0x01, 1,    2,    3,    4,    5,    6,    7,    0x88, /* 16: fixed64 */
        0x82, 0x01, 0x03, 'a',  'b',  'c',                          /* 16: "abc" */
        0x82, 0x01, 0x06, 0x08, 0x01, 0x12, 0x02, 0x10, 0x7f, /* nested 16 { 1: 1 2 { 2: 127 } } */
        0x82, 0x01, 0x00,                                     /* 16: "" */
        0x82, 0x01, 0x04, 0x1b, 0x08, 0x02, 0x1c,             /* a group: 16 { 3 { 1: 2 } } */
        0xa0, 0x06, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, /* 100: max */
    };
    uint8_t *buf2 = malloc(len + sizeof extra);
    assert_non_null(buf2);
    memcpy(buf2, buf, len);
    memcpy(buf2 + len, extra, sizeof extra);
    Ge__Proto__GraphDef *back = ge__proto__graph_def__unpack(NULL, len + sizeof extra, buf2);
    assert_non_null(back);
    assert_true(back->base.n_unknown_fields >= 8);
    char *mine2 = dump(airc_ge_dump_txt, back);
    assert_non_null(strstr(mine2, "15: 5\n16: 0x04030201\n16: 0x8807060504030201\n16: \"abc\"\n"));
    want = protoc_decode(buf2, len + sizeof extra);
    if (want) {
        assert_same_text(want, mine2);
        free(want);
    }
    ge__proto__graph_def__free_unpacked(back, NULL);
    free(mine2);
    free(buf2);
    free(mine);
    free(buf);
    free_blocks();
}

static void test_empty_graph(void **state)
{
    (void)state;
    Ge__Proto__GraphDef g = GE__PROTO__GRAPH_DEF__INIT;
    char *s = dump(airc_ge_dump_txt, &g);
    assert_string_equal(s, "");
    free(s);
    s = dump(airc_ge_dump_pbtxt, &g);
    assert_string_equal(s, "");
    free(s);
    /* a graph with only a name, and an op with no fields */
    g.name = "g";
    Ge__Proto__OpDef op = GE__PROTO__OP_DEF__INIT;
    Ge__Proto__OpDef *ops[] = {&op};
    g.n_op = 1;
    g.op = ops;
    s = dump(airc_ge_dump_txt, &g);
    assert_string_equal(s, "name: \"g\"\nop {\n}\n");
    free(s);
    s = dump(airc_ge_dump_pbtxt, &g);
    assert_string_equal(s, "node {\n    name: \"\"\n    op: \"\"\n}\n");
    free(s);
}

/* ---- pbtxt ----------------------------------------------------------------- */

static void test_pbtxt_layout(void **state)
{
    (void)state;
    Ge__Proto__OpDef *abs_op = op_new("abs", "Abs", 1, (const char *const[]){"arg0_1:0"});
    op_attrs(abs_op, 1,
             (Ge__Proto__OpDef__AttrEntry *[]){OP_ATTR("_user_stream_label", attr_s("stream_1"))});
    abs_op->n_output_desc = 1;
    abs_op->output_desc = descs(1, (Ge__Proto__TensorDescriptor *[]){desc(
                                       "y", GE__PROTO__DATA_TYPE__DT_FLOAT, 1, (int64_t[]){4})});
    Ge__Proto__OpDef *sub =
        op_new("sub", "Sub", 4, (const char *const[]){"add:0", "mm:1", "abs:-1", "a:b:-1"});
    op_attrs(sub, 3,
             (Ge__Proto__OpDef__AttrEntry *[]){OP_ATTR("keep_dims", attr_b(true)),
                                               OP_ATTR("alpha", attr_f(1.0f)),
                                               OP_ATTR("keep_dims", attr_b(false))});
    Ge__Proto__GraphDef g = GE__PROTO__GRAPH_DEF__INIT;
    g.name = "ignored";
    Ge__Proto__OpDef *ops[] = {abs_op, sub};
    g.n_op = 2;
    g.op = ops;
    char *s = dump(airc_ge_dump_pbtxt, &g);
    static const char want[] = "node {\n"
                               "    name: \"abs\"\n"
                               "    op: \"Abs\"\n"
                               "    input: \"arg0_1:0\"\n"
                               "    attr {\n"
                               "        key: \"_user_stream_label\"\n"
                               "        value {\n"
                               "            s: 's: \"stream_1\"\\n'\n"
                               "        }\n"
                               "    }\n"
                               "    attr {\n"
                               "        key: \"[o]y\"\n"
                               "        value {\n"
                               "            s: 'name: \"y\"\\ndtype: DT_FLOAT\\nshape {\\n  dim: "
                               "4\\n}\\nlayout: \"ND\"\\n'\n"
                               "        }\n"
                               "    }\n"
                               "}\n"
                               "node {\n"
                               "    name: \"sub\"\n"
                               "    op: \"Sub\"\n"
                               "    input: \"add:0\"\n"
                               "    input: \"mm:1\"\n"
                               "    input: \"^abs\"\n"
                               "    input: \"a:b:-1\"\n"
                               "    attr {\n"
                               "        key: \"keep_dims\"\n"
                               "        value {\n"
                               "            s: 'b: true\\n'\n"
                               "        }\n"
                               "    }\n"
                               "    attr {\n"
                               "        key: \"alpha\"\n"
                               "        value {\n"
                               "            s: 'f: 1\\n'\n"
                               "        }\n"
                               "    }\n"
                               "    attr {\n"
                               "        key: \"keep_dims\"\n"
                               "        value {\n"
                               "            s: 'b: false\\n'\n"
                               "        }\n"
                               "    }\n"
                               "}\n";
    assert_same_text(want, s);
    free(s);
    free_blocks();
}

static void test_escaping(void **state)
{
    (void)state;
    /* Python's repr(bytes): ' and no " -> double quotes; both -> \' */
    Ge__Proto__OpDef *op =
        op_new("we\"ird\\na\tme\x01", "Op\xc3\xa9", 1, (const char *const[]){"x\"y:-1"});
    op_attrs(op, 3,
             (Ge__Proto__OpDef__AttrEntry *[]){
                 OP_ATTR("k1", attr_i(7)),
                 OP_ATTR("k2", attr_s("it's")),
                 OP_ATTR("k3", attr_s("\xff\x7f")),
             });
    Ge__Proto__GraphDef g = GE__PROTO__GRAPH_DEF__INIT;
    Ge__Proto__OpDef *ops[] = {op};
    g.n_op = 1;
    g.op = ops;
    char *s = dump(airc_ge_dump_pbtxt, &g);
    assert_non_null(strstr(s, "    name: \"we\\\"ird\\\\na\\tme\\001\"\n"));
    assert_non_null(strstr(s, "    op: \"Op\xc3\xa9\"\n"));
    assert_non_null(strstr(s, "    input: \"^x\\\"y\"\n"));
    assert_non_null(strstr(s, "            s: 'i: 7\\n'\n"));
    /* text `s: "it\'s"\n`: holds ' and " -> single quotes, \ and ' escaped */
    assert_non_null(strstr(s, "            s: 's: \"it\\\\\\'s\"\\n'\n"));
    /* text `s: "\377\177"\n`: backslashes doubled */
    assert_non_null(strstr(s, "            s: 's: \"\\\\377\\\\177\"\\n'\n"));
    free(s);

    /* txt: protoc's CEscape, UTF-8 as octal */
    s = dump(airc_ge_dump_txt, &g);
    assert_non_null(strstr(s, "  name: \"we\\\"ird\\\\na\\tme\\001\"\n"));
    assert_non_null(strstr(s, "  type: \"Op\\303\\251\"\n"));
    assert_non_null(strstr(s, "      s: \"it\\'s\"\n"));
    free(s);
    free_blocks();
}

/* ---- errors ---------------------------------------------------------------- */

static void test_bad_arguments(void **state)
{
    (void)state;
    Ge__Proto__GraphDef g = GE__PROTO__GRAPH_DEF__INIT;
    airc_strbuf sb;
    airc_sb_init(&sb, test_ctx);
    AIRC_EXPECT(airc_ge_dump_txt(NULL, &sb), AIRC_E_INVALID_ARGUMENT, "graph");
    AIRC_EXPECT(airc_ge_dump_txt(&g, NULL), AIRC_E_INVALID_ARGUMENT, "output");
    AIRC_EXPECT(airc_ge_dump_pbtxt(NULL, &sb), AIRC_E_INVALID_ARGUMENT, "graph");
    AIRC_EXPECT(airc_ge_dump_pbtxt(&g, NULL), AIRC_E_INVALID_ARGUMENT, "output");
    AIRC_EXPECT(airc_ge_text_message(NULL, 0, &sb), AIRC_E_INVALID_ARGUMENT, "NULL");
    /* not a GraphDef */
    Ge__Proto__OpDef op = GE__PROTO__OP_DEF__INIT;
    AIRC_EXPECT(airc_ge_dump_txt((const Ge__Proto__GraphDef *)&op, &sb), AIRC_E_INVALID_ARGUMENT,
                "GraphDef");
    AIRC_EXPECT(airc_ge_dump_pbtxt((const Ge__Proto__GraphDef *)&op, &sb), AIRC_E_INVALID_ARGUMENT,
                "GraphDef");
    assert_int_equal(sb.len, 0);

    /* nesting deeper than protoc parses: NamedAttrs inside AttrDef ... */
    Ge__Proto__AttrDef attrs[80];
    Ge__Proto__NamedAttrs named[80];
    Ge__Proto__NamedAttrs__AttrEntry entries[80];
    Ge__Proto__NamedAttrs__AttrEntry *eptr[80];
    for (int i = 0; i < 80; i++) {
        attrs[i] = (Ge__Proto__AttrDef)GE__PROTO__ATTR_DEF__INIT;
        named[i] = (Ge__Proto__NamedAttrs)GE__PROTO__NAMED_ATTRS__INIT;
        entries[i] = (Ge__Proto__NamedAttrs__AttrEntry)GE__PROTO__NAMED_ATTRS__ATTR_ENTRY__INIT;
        attrs[i].value_case = GE__PROTO__ATTR_DEF__VALUE_FUNC;
        attrs[i].func = &named[i];
        if (i + 1 < 80) {
            eptr[i] = &entries[i];
            entries[i].key = "k";
            entries[i].value = &attrs[i + 1];
            named[i].n_attr = 1;
            named[i].attr = &eptr[i];
        }
    }
    airc_sb_puts(&sb, "keep");
    AIRC_EXPECT(airc_ge_text_message(&attrs[0].base, 0, &sb), AIRC_E_INVALID_ARGUMENT, "deeper");
    assert_string_equal(airc_sb_cstr(&sb), "keep"); /* cut back on failure */
    airc_sb_free(&sb);
}

typedef airc_status (*dump_fn)(const Ge__Proto__GraphDef *, airc_strbuf *);

static void oom_loop(dump_fn fn, const Ge__Proto__GraphDef *g)
{
    airc_test_alloc st;
    airc_allocator a;
    airc_test_alloc_init(&st, &a);
    airc_context *ctx = NULL;
    AIRC_ASSERT_OK(airc_context_create(&a, &ctx));
    long base = st.live;
    size_t failures = 0;
    for (size_t k = 1; k < 100000; k++) {
        airc_strbuf sb;
        airc_sb_init(&sb, ctx);
        st.fail_at = st.count + k;
        airc_status s = fn(g, &sb);
        st.fail_at = 0;
        airc_sb_free(&sb);
        assert_int_equal(st.live, base);
        if (s == AIRC_OK)
            break;
        assert_int_equal(s, AIRC_E_OUT_OF_MEMORY);
        failures++;
    }
    assert_true(failures >= 1);
    airc_context_destroy(ctx);
    assert_int_equal(st.live, 0);
}

static void test_failing_allocator(void **state)
{
    (void)state;
    Ge__Proto__GraphDef *g = build_graph();
    /* more than 32 attributes: txt's sort array comes from the heap */
    Ge__Proto__OpDef *big = op_new("big", "Big", 0, NULL);
    Ge__Proto__OpDef__AttrEntry *many[40];
    for (int i = 0; i < 40; i++) {
        char key[16];
        snprintf(key, sizeof key, "a%02d", 39 - i);
        many[i] = OP_ATTR(key, attr_i(i));
    }
    op_attrs(big, 40, many);
    g->op[3] = big;
    oom_loop(airc_ge_dump_txt, g);
    oom_loop(airc_ge_dump_pbtxt, g);
    free_blocks();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_txt_matches_protoc), cmocka_unit_test(test_empty_graph),
        cmocka_unit_test(test_pbtxt_layout),       cmocka_unit_test(test_escaping),
        cmocka_unit_test(test_bad_arguments),      cmocka_unit_test(test_failing_allocator),
    };
    if (airc_context_create(NULL, &test_ctx) != AIRC_OK)
        return 1;
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    airc_context_destroy(test_ctx);
    return failed;
}
