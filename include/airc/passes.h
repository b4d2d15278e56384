/* airc — passes API (part of the public API; included by airc/airc.h). */
#ifndef AIRC_PASSES_H
#define AIRC_PASSES_H

#include "airc/airc.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
