/* target.h: the targets oxidec compiles for, each one Target (ir.h): its
 * kind for src/emit and its hooks for the passes' stages.  The driver
 * picks one by name, once; the module keeps it. */
#ifndef OXIDEC_TARGET_H
#define OXIDEC_TARGET_H

#include "ir/ir.h"

extern const Target target_nvptx;   /* PTX and cubin for NVIDIA GPUs (the default) */
extern const Target target_host;    /* an object file for the emulator, src/runtime/oxemu.c */

/* The target --target=NAME names, or NULL. */
const Target *target_find(const char *name);

#endif
