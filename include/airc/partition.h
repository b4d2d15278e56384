/* airc — partition API (part of the public API; included by airc/airc.h). */
#ifndef AIRC_PARTITION_H
#define AIRC_PARTITION_H

#include "airc/airc.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
