/* Text dumps of a GE GraphDef (debug.graph_dump.type = txt | pbtxt).
 *
 * Both writers append to a caller-owned airc_strbuf and never change the
 * graph. On failure the buffer is cut back to its length at the call (its
 * sticky oom flag stays set after an allocation failure); the caller still
 * frees it. Thread-safe for distinct buffers. */
#ifndef AIRC_GE_DUMP_H
#define AIRC_GE_DUMP_H

#include "backends/ge/ge_model.pb-c.h"
#include "core/core.h"

/* `txt`: the protobuf text format of g, byte for byte what
 * `protoc --decode=ge.proto.GraphDef ge_model.proto` prints for g packed
 * with protobuf-c (TorchAir writes str(GraphDef)).
 * AIRC_E_INVALID_ARGUMENT: g or out NULL, g not a GraphDef, nesting deeper
 * than protoc parses (100). AIRC_E_OUT_OF_MEMORY. */
AIRC_HIDDEN airc_status airc_ge_dump_txt(const Ge__Proto__GraphDef *g, airc_strbuf *out);

/* `pbtxt`: TensorFlow-GraphDef-style text (one `node { ... }` per OpDef)
 * that Netron and TensorBoard read, as TorchAir's convert_to_pbtxt writes it
 * (dump_pbtxt.c documents the mapping). Same return codes as txt. */
AIRC_HIDDEN airc_status airc_ge_dump_pbtxt(const Ge__Proto__GraphDef *g, airc_strbuf *out);

/* The protobuf text format of any protobuf-c message, at indent `indent`
 * (two spaces a level), as protoc prints it; shared by both dumps. Same
 * return codes as txt. */
AIRC_HIDDEN airc_status airc_ge_text_message(const ProtobufCMessage *msg, int indent,
                                             airc_strbuf *out);

#endif
